package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestStartupGCPace: relaxGC slows the collector for the start-up and
// restoreGC puts the previous pace back, once; with GOGC set, neither
// touches it.
func TestStartupGCPace(t *testing.T) {
	t.Setenv("GOGC", "")
	prev := debug.SetGCPercent(150)
	defer debug.SetGCPercent(prev)
	relaxGC()
	if got := debug.SetGCPercent(startupGCPercent); got != startupGCPercent {
		t.Fatalf("pace during the start-up %d, want %d", got, startupGCPercent)
	}
	restoreGC()
	restoreGC() // a second call changes nothing
	if got := debug.SetGCPercent(150); got != 150 {
		t.Fatalf("pace after restoreGC %d, want the previous 150", got)
	}

	t.Setenv("GOGC", "50")
	relaxGC()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Fatalf("with GOGC set, relaxGC changed the pace to %d", got)
	}
	restoreGC()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Fatalf("with GOGC set, restoreGC changed the pace to %d", got)
	}
}

// TestNoHeapSampling: allocations are not sampled for heap profiles unless
// FAWN_MEMPROFILE asks for one.
func TestNoHeapSampling(t *testing.T) {
	prev := runtime.MemProfileRate
	defer func() { runtime.MemProfileRate = prev }()
	t.Setenv("FAWN_MEMPROFILE", "")
	runtime.MemProfileRate = 512 << 10
	noHeapSampling()
	if runtime.MemProfileRate != 0 {
		t.Fatalf("MemProfileRate %d without FAWN_MEMPROFILE, want 0", runtime.MemProfileRate)
	}
	t.Setenv("FAWN_MEMPROFILE", "/nowhere")
	runtime.MemProfileRate = 512 << 10
	noHeapSampling()
	if runtime.MemProfileRate != 512<<10 {
		t.Fatalf("MemProfileRate %d with FAWN_MEMPROFILE, want it left as it was", runtime.MemProfileRate)
	}
}
