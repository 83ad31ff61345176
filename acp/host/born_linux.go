package host

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// bornSince reports whether the file at p was created at or after t (its
// birth time, where the file system keeps one): an agent that announces a
// write only once it has written tells fawn no "before", and a file born
// in the turn had none. t must be a time of the file system's clock
// (fsBoundary), not time.Now.
func bornSince(p string, t time.Time) bool {
	if t.IsZero() {
		return false
	}
	var st unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, p, 0, unix.STATX_BTIME, &st) != nil || st.Mask&unix.STATX_BTIME == 0 {
		return false
	}
	born := time.Unix(st.Btime.Sec, int64(st.Btime.Nsec))
	return !born.Before(t)
}

// fsBoundary returns a time of the clock file systems stamp files with
// such that a file created before the call was born before it and one
// created after the call was born at or after it. That clock is the
// kernel's coarse one, up to a tick behind time.Now, so time.Now would
// count a file born just after it as older. fsBoundary stamps a file of
// its own in dir until the stamp moves on from the one it was created
// with: everything created before has the old stamp or an older one,
// everything after the new one or a later one. It waits a tick (a few
// milliseconds; a second at most on a file system that stamps seconds),
// and returns the zero time, which bornSince never matches, where it
// cannot tell.
func fsBoundary(dir string) time.Time {
	f, err := os.CreateTemp(dir, ".fawn-clock-*")
	if err != nil {
		return time.Time{}
	}
	name := f.Name()
	_ = f.Close()
	defer os.Remove(name)
	first, ok := mtime(name)
	if !ok {
		return time.Time{}
	}
	now := []unix.Timespec{{Nsec: unix.UTIME_NOW}, {Nsec: unix.UTIME_NOW}}
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
		if unix.UtimesNanoAt(unix.AT_FDCWD, name, now, 0) != nil {
			return time.Time{}
		}
		if t, ok := mtime(name); ok && t.After(first) {
			return t
		}
	}
	return time.Time{}
}

// mtime is the file's modification time as the file system keeps it.
func mtime(p string) (time.Time, bool) {
	var st unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, p, 0, unix.STATX_MTIME, &st) != nil || st.Mask&unix.STATX_MTIME == 0 {
		return time.Time{}, false
	}
	return time.Unix(st.Mtime.Sec, int64(st.Mtime.Nsec)), true
}
