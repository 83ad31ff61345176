package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// frameLog opens the file FAWN_FRAMELOG names and returns what hears of
// each frame — start as it starts to draw, shown once it is shown — and
// what closes the log. Each frame is a line, written as it is shown (so
// a benchmark reads the times of a session while it runs):
//
//	WALL CPU PROC KIND
//
// WALL is its drawing time in microseconds; CPU the time the UI
// goroutine's thread ran in it, PROC the time all of fawn's threads ran
// (each -1 when not known: the goroutine moved to another thread, or the
// system has no such clock); KIND is "full" (the whole screen) or "chat"
// (the chat alone). A slow frame so tells fawn's drawing (CPU near WALL)
// from fawn's other work taking the processors (PROC well over CPU: the
// terminal emulator, the garbage collector) and from the machine's load
// (neither near WALL). Without the variable all three are nil.
func frameLog(stderr io.Writer) (start func(full bool), shown func(time.Duration), closeLog func()) {
	path := os.Getenv("FAWN_FRAMELOG")
	if path == "" {
		return nil, nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: FAWN_FRAMELOG: %v\n", err)
		return nil, nil, nil
	}
	// One buffer, reused: a frame costs a write and no allocation.
	line := make([]byte, 0, 40)
	var cpu0, proc0 time.Duration
	var tid0 int
	var full bool
	start = func(whole bool) {
		full = whole
		cpu0, tid0 = threadCPU()
		proc0 = processCPU()
	}
	shown = func(d time.Duration) {
		cpu, proc := int64(-1), int64(-1)
		if cpu1, tid1 := threadCPU(); tid0 != 0 && tid1 == tid0 && cpu1 >= cpu0 {
			cpu = (cpu1 - cpu0).Microseconds()
		}
		if proc1 := processCPU(); proc0 >= 0 && proc1 >= proc0 {
			proc = (proc1 - proc0).Microseconds()
		}
		line = strconv.AppendInt(line[:0], d.Microseconds(), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, cpu, 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, proc, 10)
		if full {
			line = append(line, " full\n"...)
		} else {
			line = append(line, " chat\n"...)
		}
		_, _ = f.Write(line)
	}
	return start, shown, func() { _ = f.Close() }
}
