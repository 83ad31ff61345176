//go:build !linux

package main

import "time"

// threadCPU: no clock of a thread's time here (the frame log writes -1).
func threadCPU() (time.Duration, int) { return 0, 0 }

// processCPU: not read here (the frame log writes -1).
func processCPU() time.Duration { return -1 }
