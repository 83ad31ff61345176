package host

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// An agent's log is rotated once it would pass its limit: the newest
// lines are in the log, the ones before in LOG.1, nothing is split, and
// both stay private to the user.
func TestAgentLogRotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent.log")
	l, err := openRotatingLog(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte("0123456789012345678901234567890123456789\n") // 41 bytes
	for i := 0; i < 5; i++ {
		if _, err := l.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	cur, _ := os.ReadFile(path)
	old, _ := os.ReadFile(path + ".1")
	// 5 lines of 41 bytes at 100 a file: two, two (then dropped), one.
	if !bytes.Equal(cur, line) || !bytes.Equal(old, bytes.Repeat(line, 2)) {
		t.Errorf("log %q\nLOG.1 %q", cur, old)
	}
	for _, p := range []string{path, path + ".1"} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, st.Mode(), err)
		}
	}

	// A log already past the limit is rotated when it is opened again.
	if err := os.WriteFile(path, bytes.Repeat(line, 3), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err = openRotatingLog(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if st, _ := os.Stat(path); st.Size() != 0 {
		t.Errorf("reopened log has %d bytes, want a fresh one", st.Size())
	}
}
