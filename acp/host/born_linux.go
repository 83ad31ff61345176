package host

import (
	"time"

	"golang.org/x/sys/unix"
)

// bornSince reports whether the file at p was created at or after t (its
// birth time, where the file system keeps one): an agent that announces a
// write only once it has written tells fawn no "before", and a file born
// in the turn had none.
func bornSince(p string, t time.Time) bool {
	var st unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, p, 0, unix.STATX_BTIME, &st) != nil || st.Mask&unix.STATX_BTIME == 0 {
		return false
	}
	born := time.Unix(st.Btime.Sec, int64(st.Btime.Nsec))
	return !born.Before(t)
}
