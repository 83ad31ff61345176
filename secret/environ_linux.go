package secret

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// wipeEnvironBlock overwrites the entries of names in the environment block
// the process was started with, through /proc/self/mem: the bytes between
// env_start and env_end of /proc/self/stat are what /proc/PID/environ
// shows. Go copied the environment at start-up, so nothing in fawn reads
// the block again (and libc's environ, under cgo, sees the variables
// gone: os.Unsetenv took them out of it first).
func wipeEnvironBlock(names map[string]bool) error {
	start, end, err := environBounds()
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no /proc: nobody can read the block through it either
	}
	if err != nil {
		return err
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer mem.Close()
	block := make([]byte, end-start)
	if _, err := mem.ReadAt(block, start); err != nil {
		return fmt.Errorf("reading the environment block: %w", err)
	}
	for _, r := range wipe(block, names) {
		if _, err := mem.WriteAt(block[r[0]:r[1]], start+int64(r[0])); err != nil {
			return fmt.Errorf("overwriting the environment block: %w", err)
		}
	}
	return nil
}

// environBounds reads env_start and env_end (fields 50 and 51 of
// /proc/self/stat, Linux 3.5 and later).
func environBounds() (start, end int64, err error) {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, 0, err
	}
	// The command name (field 2) may hold spaces and parentheses: the
	// fields after it start after the last ')'.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, errors.New("/proc/self/stat: no command name")
	}
	fields := strings.Fields(s[i+1:]) // fields[0] is field 3
	const envStart, envEnd = 50, 51
	if len(fields) < envEnd-2 {
		return 0, 0, fmt.Errorf("/proc/self/stat has %d fields, the environment's bounds are fields %d and %d", len(fields)+2, envStart, envEnd)
	}
	start, err1 := strconv.ParseInt(fields[envStart-3], 10, 64)
	end, err2 := strconv.ParseInt(fields[envEnd-3], 10, 64)
	if err := errors.Join(err1, err2); err != nil || end < start || end-start > 1<<30 {
		return 0, 0, fmt.Errorf("/proc/self/stat: bad environment bounds %q %q", fields[envStart-3], fields[envEnd-3])
	}
	return start, end, nil
}
