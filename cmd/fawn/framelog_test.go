package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The frame log says of each frame its drawing time, the time the UI
// thread ran in it and whether it drew the whole screen: a frame that
// waited (here, slept) shows a drawing time its thread did not run.
func TestFrameLogTellsWorkFromWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), "frames")
	t.Setenv("FAWN_FRAMELOG", path)
	start, shown, closeLog := frameLog(io.Discard)
	if start == nil || shown == nil {
		t.Fatal("no frame log")
	}
	runtime.LockOSThread() // the UI goroutine's thread stays put here
	defer runtime.UnlockOSThread()
	start(true)
	time.Sleep(50 * time.Millisecond)
	shown(50 * time.Millisecond)
	start(false)
	shown(time.Millisecond)
	closeLog()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("the log:\n%s", b)
	}
	f := strings.Fields(lines[0])
	if len(f) != 4 || f[0] != "50000" || f[3] != "full" || !strings.HasPrefix(lines[1], "1000 ") || !strings.HasSuffix(lines[1], " chat") {
		t.Fatalf("the log:\n%s", b)
	}
	cpu, err1 := strconv.Atoi(f[1])
	proc, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || (runtime.GOOS == "linux" && (cpu < 0 || cpu >= 50000 || proc < 0)) {
		t.Errorf("a frame that slept 50 ms ran %s µs, its process %s µs", f[1], f[2])
	}
}
