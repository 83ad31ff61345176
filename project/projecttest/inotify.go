package projecttest

import (
	"os"
	"path/filepath"
	"testing"
)

// InotifyInstances counts the inotify instances process proc ("self", or
// a pid) holds, from Linux's /proc: the tests that fawn keeps one watcher
// per project root read it.
func InotifyInstances(t testing.TB, proc string) int {
	t.Helper()
	dir := filepath.Join("/proc", proc, "fd")
	fds, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	n := 0
	for _, fd := range fds {
		if l, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && l == "anon_inode:inotify" {
			n++
		}
	}
	return n
}
