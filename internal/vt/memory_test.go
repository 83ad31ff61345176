package vt

import (
	"runtime"
	"strings"
	"testing"
)

// fawn fix 13: an emulator is small when made, and the 64 KB data buffer
// still takes the sequences the emulator acts on; longer data is cut, not
// a crash.
func TestEmulatorIsSmallAndTakesLongTitles(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	e := NewEmulator(120, 40)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 2<<20 {
		t.Errorf("NewEmulator(120, 40) allocated %d bytes; want under 2 MiB (the data buffer alone was 4 MiB)", got)
	}
	var titles []string
	e.SetCallbacks(Callbacks{Title: func(s string) { titles = append(titles, s) }})
	long := strings.Repeat("t", 10000)
	e.WriteString("\x1b]2;" + long + "\x07")
	e.WriteString("\x1b]2;" + strings.Repeat("x", 200000) + "\x07after")
	if len(titles) == 0 || titles[0] != long {
		t.Fatalf("a 10,000-byte title was not taken whole (%d titles)", len(titles))
	}
	if got := e.CellAt(0, 0); got == nil || got.Content != "a" {
		t.Errorf("the text after an over-long OSC: cell (0,0) = %+v, want \"a\"", got)
	}
}
