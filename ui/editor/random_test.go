package editor

import (
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// TestRandomKeysKeepTheViewConsistent drives a view with random keys,
// pastes, clicks and resizes, drawing after each, and checks after every
// step that nothing points outside the text; at the end undoing everything
// gives back the original bytes.
func TestRandomKeysKeepTheViewConsistent(t *testing.T) {
	orig := "package p\n\n\tfunc f() { // 世界\n\treturn \"é\u0301\"\n}\n" + "x\ty\tz\r\n" + "long line with more words than fit in the view at all\n"
	keys := []*tcell.EventKey{
		tcell.NewEventKey(tcell.KeyLeft, 0, 0), tcell.NewEventKey(tcell.KeyRight, 0, 0),
		tcell.NewEventKey(tcell.KeyUp, 0, 0), tcell.NewEventKey(tcell.KeyDown, 0, 0),
		tcell.NewEventKey(tcell.KeyHome, 0, 0), tcell.NewEventKey(tcell.KeyEnd, 0, 0),
		tcell.NewEventKey(tcell.KeyPgUp, 0, 0), tcell.NewEventKey(tcell.KeyPgDn, 0, 0),
		tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModShift), tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModShift),
		tcell.NewEventKey(tcell.KeyUp, 0, tcell.ModShift), tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModShift),
		tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModCtrl), tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModCtrl|tcell.ModShift),
		tcell.NewEventKey(tcell.KeyEnter, 0, 0), tcell.NewEventKey(tcell.KeyTab, 0, 0), tcell.NewEventKey(tcell.KeyBacktab, 0, 0),
		tcell.NewEventKey(tcell.KeyBackspace2, 0, 0), tcell.NewEventKey(tcell.KeyDelete, 0, 0),
		tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModAlt), tcell.NewEventKey(tcell.KeyCtrlK, 0, tcell.ModCtrl),
		tcell.NewEventKey(tcell.KeyCtrlX, 0, tcell.ModCtrl), tcell.NewEventKey(tcell.KeyCtrlC, 0, tcell.ModCtrl),
		tcell.NewEventKey(tcell.KeyCtrlV, 0, tcell.ModCtrl), tcell.NewEventKey(tcell.KeyCtrlZ, 0, tcell.ModCtrl),
		tcell.NewEventKey(tcell.KeyCtrlY, 0, tcell.ModCtrl), tcell.NewEventKey(tcell.KeyRune, 'w', tcell.ModAlt),
		tcell.NewEventKey(tcell.KeyRune, 'a', tcell.ModAlt),
		tcell.NewEventKey(tcell.KeyRune, 'q', 0), tcell.NewEventKey(tcell.KeyRune, ' ', 0),
		tcell.NewEventKey(tcell.KeyRune, '界', 0), tcell.NewEventKey(tcell.KeyRune, '\u0301', 0),
		tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModCtrl), tcell.NewEventKey(tcell.KeyHome, 0, tcell.ModCtrl),
	}
	for seed := uint64(1); seed <= 3; seed++ {
		v, s := viewHarness(t, orig, "f.go", 30, 8)
		rng := rand.New(rand.NewPCG(seed, 7))
		for step := 0; step < 700; step++ {
			switch n := rng.IntN(40); {
			case n == 0:
				v.PasteHandler()("pasted\r\ntext\t世", nil)
			case n == 1:
				s.SetSize(10+rng.IntN(40), 3+rng.IntN(10))
				w, h := s.Size()
				v.SetRect(0, 0, w, h)
			case n == 2:
				w, h := s.Size()
				ev := tcell.NewEventMouse(rng.IntN(w), rng.IntN(h), tcell.Button1, 0)
				v.MouseHandler()(tview.MouseAction(1+rng.IntN(3)), ev, func(tview.Primitive) {})
			default:
				v.HandleKey(keys[rng.IntN(len(keys))])
			}
			v.Draw(s)
			checkView(t, v, seed, step)
		}
		if len(v.buf.hist.undo) == 0 {
			t.Fatalf("seed %d: the random keys made no undoable change", seed)
		}
		for i := 0; i < 5000 && v.buf.Modified(); i++ {
			v.buf.Undo()
		}
		if got := string(v.buf.Bytes()); got != orig {
			t.Fatalf("seed %d: undoing everything gave %q, want %q", seed, got, orig)
		}
	}
}

func checkView(t *testing.T, v *CodeView, seed uint64, step int) {
	t.Helper()
	n := v.buf.LineCount()
	bad := func(what string, p Pos) bool {
		return p.Line < 0 || p.Line >= n || p.Col < 0 || p.Col > len(v.buf.Line(p.Line))
	}
	if bad("cursor", v.cursor) || (v.selected && bad("anchor", v.anchor)) {
		t.Fatalf("seed %d step %d: cursor %v anchor %v outside %d lines", seed, step, v.cursor, v.anchor, n)
	}
	if len(v.styles) != n {
		t.Fatalf("seed %d step %d: %d line styles for %d lines", seed, step, len(v.styles), n)
	}
	if v.top < 0 || v.top >= n {
		t.Fatalf("seed %d step %d: top %d outside %d lines", seed, step, v.top, n)
	}
}

// TestRandomKeysOnTabs drives the whole pane, prompts and diff included.
func TestRandomKeysOnTabs(t *testing.T) {
	h := newHarness(t, 50, 10)
	h.write("a.go", "package a\n\nfunc A() int { return 1 }\n")
	h.write("b.md", "# b\n\ntext\n")
	h.open("a.go", 0)
	h.open("b.md", 0)
	h.agentEdit("a.go", "package a\n\nfunc A() int { return 1 }\n", "package a\n\n// A is one.\nfunc A() int { return 1 }\n", "str_replace")
	keys := []*tcell.EventKey{
		tcell.NewEventKey(tcell.KeyCtrlF, 0, tcell.ModCtrl), tcell.NewEventKey(tcell.KeyCtrlG, 0, tcell.ModCtrl),
		tcell.NewEventKey(tcell.KeyEscape, 0, 0), tcell.NewEventKey(tcell.KeyEnter, 0, 0),
		tcell.NewEventKey(tcell.KeyF3, 0, 0), tcell.NewEventKey(tcell.KeyF3, 0, tcell.ModShift),
		tcell.NewEventKey(tcell.KeyRune, 'v', tcell.ModAlt), tcell.NewEventKey(tcell.KeyRune, '1', tcell.ModAlt),
		tcell.NewEventKey(tcell.KeyRune, '2', tcell.ModAlt), tcell.NewEventKey(tcell.KeyPgDn, 0, tcell.ModCtrl),
		tcell.NewEventKey(tcell.KeyRune, 'a', 0), tcell.NewEventKey(tcell.KeyRune, '1', 0),
		tcell.NewEventKey(tcell.KeyRune, ':', 0), tcell.NewEventKey(tcell.KeyBackspace2, 0, 0),
		tcell.NewEventKey(tcell.KeyDown, 0, 0), tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModShift),
		tcell.NewEventKey(tcell.KeyCtrlZ, 0, tcell.ModCtrl), tcell.NewEventKey(tcell.KeyCtrlY, 0, tcell.ModCtrl),
		tcell.NewEventKey(tcell.KeyRune, 'w', tcell.ModAlt),
	}
	rng := rand.New(rand.NewPCG(3, 9))
	for step := 0; step < 800; step++ {
		h.tabs.HandleKey(keys[rng.IntN(len(keys))])
		h.draw()
		tb := h.tabs.current()
		checkView(t, tb.shown(), 0, step)
	}
	// Nothing was saved by the random keys, so the files are as they were.
	if got := h.read("b.md"); got != "# b\n\ntext\n" {
		t.Fatalf("b.md changed on disk: %q", got)
	}
}
