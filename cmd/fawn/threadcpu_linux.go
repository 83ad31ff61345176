package main

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the processor time of the calling thread so far and the
// thread's id (0 when the clock cannot be read).
func threadCPU() (time.Duration, int) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0, 0
	}
	return time.Duration(ts.Nano()), unix.Gettid()
}

// processCPU is the processor time of all of fawn's threads so far (-1
// when it cannot be read).
func processCPU() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
