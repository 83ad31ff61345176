package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// frameLog opens the file FAWN_FRAMELOG names and returns what writes each
// frame's drawing time to it, in microseconds, one a line, as the frame is
// shown (so a benchmark reads the times of a session while it runs), and
// what closes it. Without the variable both are nil.
func frameLog(stderr io.Writer) (func(time.Duration), func()) {
	path := os.Getenv("FAWN_FRAMELOG")
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: FAWN_FRAMELOG: %v\n", err)
		return nil, nil
	}
	// One buffer, reused: a frame costs a write and no allocation.
	line := make([]byte, 0, 24)
	return func(d time.Duration) {
			line = strconv.AppendInt(line[:0], d.Microseconds(), 10)
			line = append(line, '\n')
			_, _ = f.Write(line)
		}, func() {
			_ = f.Close()
		}
}
