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

// fawn fix 28: the alternate screen is made when a program first switches
// to it, at the size the terminal has then, and works as it did.
func TestAltScreenOnFirstUse(t *testing.T) {
	e := NewEmulator(80, 24)
	e.Resize(100, 30)
	e.WriteString("main text")
	e.WriteString("\x1bc") // RIS resets both screens
	e.WriteString("main again")
	if e.scrs[1].buf != nil {
		t.Fatal("the alternate screen was made before any program asked for it")
	}
	e.WriteString("\x1b[?1049h")
	if !e.IsAltScreen() {
		t.Fatal("CSI ? 1049 h did not switch to the alternate screen")
	}
	if w, h := e.scr.Width(), e.scr.Height(); w != 100 || h != 30 {
		t.Errorf("the alternate screen is %dx%d, want the terminal's 100x30", w, h)
	}
	e.WriteString("alt")
	if got := e.CellAt(0, 0); got == nil || got.Content != "a" {
		t.Errorf("alternate screen cell (0,0) = %+v, want \"a\"", got)
	}
	e.WriteString("\x1b[?1049l")
	if got := e.CellAt(0, 0); e.IsAltScreen() || got == nil || got.Content != "m" {
		t.Errorf("back on the main screen: cell (0,0) = %+v, want \"m\"", got)
	}
	e.Resize(90, 20)
	e.WriteString("\x1b[?1049h")
	if w, h := e.scr.Width(), e.scr.Height(); w != 90 || h != 20 {
		t.Errorf("the alternate screen is %dx%d after a resize, want 90x20", w, h)
	}
}
