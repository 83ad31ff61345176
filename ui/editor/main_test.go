package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the run when goroutines of this package or of fsnotify
// outlive the tests: every Tabs must stop what it started.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchFileOnce.path != "" {
		os.RemoveAll(filepath.Dir(benchFileOnce.path))
	}
	if code == 0 {
		if leaked := waitForLeaks(10 * time.Second); leaked != "" {
			fmt.Fprintf(os.Stderr, "goroutines left running after the tests:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

func waitForLeaks(limit time.Duration) string {
	deadline := time.Now().Add(limit)
	for {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var leaked []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "waitForLeaks") {
				continue
			}
			if strings.Contains(g, "fawn/ui/editor.") || strings.Contains(g, "fsnotify") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 {
			return ""
		}
		if time.Now().After(deadline) {
			return strings.Join(leaked, "\n\n")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
