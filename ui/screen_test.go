package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// On xterm, sgr0 loses its charset reset (sent once on entering the
// screen instead) and cnorm its blink reset; the entry itself is left as
// it was.
func TestLeanTerminfo(t *testing.T) {
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	attrOff, enterCA := ti.AttrOff, ti.EnterCA
	lean := leanTerminfo(ti)
	if lean.AttrOff != "\x1b[m" || lean.ShowCursor != "\x1b[?25h" || lean.EnterCA != enterCA+"\x1b(B" {
		t.Fatalf("sgr0 %q, cnorm %q, smcup %q", lean.AttrOff, lean.ShowCursor, lean.EnterCA)
	}
	if ti.AttrOff != attrOff || ti.EnterCA != enterCA {
		t.Fatal("the terminfo database's entry was changed")
	}
}

// shapeScreen records the cursor shapes handed to it.
type shapeScreen struct {
	tcell.SimulationScreen
	got []tcell.CursorStyle
}

func (s *shapeScreen) SetCursorStyle(cs tcell.CursorStyle, _ ...tcell.Color) {
	s.got = append(s.got, cs)
}

// The cursor shape reaches tcell (which sends it with every frame) only
// when it changes, while the cursor shows, and again after a Sync.
func TestCursorShapeIsSentOnChange(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(10, 3)
	rec := &shapeScreen{SimulationScreen: sim}
	f := newCellBuffer(rec)
	frame := func(shape tcell.CursorStyle, shown bool) {
		f.begin()
		f.HideCursor()
		f.SetCursorStyle(shape)
		if shown {
			f.ShowCursor(1, 1)
		}
		f.Show()
	}
	frame(tcell.CursorStyleDefault, true)
	frame(tcell.CursorStyleDefault, true)
	frame(tcell.CursorStyleSteadyBar, false) // hidden: nothing sent
	frame(tcell.CursorStyleSteadyBar, true)
	frame(tcell.CursorStyleSteadyBar, true)
	f.Sync()
	want := []tcell.CursorStyle{tcell.CursorStyleDefault, shapeUnknown, tcell.CursorStyleSteadyBar, shapeUnknown, tcell.CursorStyleSteadyBar}
	if len(rec.got) != len(want) {
		t.Fatalf("shapes handed to tcell %v, want %v", rec.got, want)
	}
	for i := range want {
		if rec.got[i] != want[i] {
			t.Fatalf("shapes handed to tcell %v, want %v", rec.got, want)
		}
	}
}
