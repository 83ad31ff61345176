package editor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/theme"
)

// viewHarness is a CodeView on its own, on a simulation screen.
func viewHarness(t *testing.T, text, path string, w, h int) (*CodeView, tcell.SimulationScreen) {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	v := NewCodeView(NewBuffer([]byte(text)), path, theme.Get("dark"), nil)
	v.SetRect(0, 0, w, h)
	v.Focus(func(tview.Primitive) {})
	t.Cleanup(func() { v.Close(); s.Fini() })
	return v, s
}

func TestHighlightIsWindowedAndDropsStaleResults(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 10_000; i++ {
		fmt.Fprintf(&sb, "var v%d = %d // line %d\n", i, i, i)
	}
	v, s := viewHarness(t, "package p\n"+sb.String(), "big.go", 60, 20)
	v.SetCursor(Pos{Line: 5000})
	v.CenterOn(5000)
	v.Draw(s)
	if !v.reqValid || v.reqTo-v.reqFrom > v.textH+2*hlMargin {
		t.Fatalf("asked to highlight lines %d..%d for a %d-line view", v.reqFrom, v.reqTo, v.textH)
	}
	if v.reqFrom > v.top || v.reqTo < v.top+v.textH {
		t.Fatalf("the request %d..%d does not cover the visible %d..%d", v.reqFrom, v.reqTo, v.top, v.top+v.textH)
	}
	// Wait for the result to be posted, but edit before it is applied.
	deadline := time.Now().Add(20 * time.Second)
	for {
		v.box.mu.Lock()
		n := len(v.box.fns)
		v.box.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no highlighting result")
		}
		time.Sleep(5 * time.Millisecond)
	}
	v.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone))
	v.box.drain()
	for i := v.top; i < v.top+v.textH; i++ {
		if v.styles[i].done {
			t.Fatalf("line %d took a result computed for an older text", i)
		}
	}
	// The next draws ask again and the fresh result lands.
	for !v.highlighted() {
		if time.Now().After(deadline) {
			t.Fatal("highlighting never caught up with the edit")
		}
		v.Draw(s)
		time.Sleep(5 * time.Millisecond)
	}
	// Lines far from the window were never lexed.
	if v.styles[0].done || v.styles[9999].done {
		t.Fatal("lines outside the window were highlighted")
	}
}

func TestTypingKeepsOldColoursUntilFreshOnes(t *testing.T) {
	v, s := viewHarness(t, "package p\n\nfunc f() {}\n", "a.go", 40, 5)
	deadline := time.Now().Add(20 * time.Second)
	for !v.highlighted() && time.Now().Before(deadline) {
		v.Draw(s)
		time.Sleep(5 * time.Millisecond)
	}
	v.SetCursor(Pos{2, 0})
	v.HandleKey(tcell.NewEventKey(tcell.KeyRune, ' ', tcell.ModNone))
	if len(v.styles[2].spans) == 0 {
		t.Fatal("the edited line lost its colours before fresh ones arrived")
	}
}

// Until the edited line is lexed again, its old colours move with its
// characters: the text after the typed keys keeps its own colours, not
// those of its old columns.
func TestTypingShiftsTheOldColoursWithTheText(t *testing.T) {
	v, s := viewHarness(t, "package p\n\nfunc f() { return \"s\" }\n", "a.go", 40, 5)
	deadline := time.Now().Add(20 * time.Second)
	for !v.highlighted() && time.Now().Before(deadline) {
		v.Draw(s)
		time.Sleep(5 * time.Millisecond)
	}
	styleAt := func(spans []span, off int) tcell.Style {
		for _, sp := range spans {
			if off < sp.end {
				return sp.style
			}
		}
		return tcell.StyleDefault
	}
	before := v.styles[2].spans
	line := v.buf.Line(2)
	v.SetCursor(Pos{2, 5}) // before the f of f()
	for _, r := range "gg" {
		v.HandleKey(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
	}
	after := v.styles[2].spans
	if v.styles[2].ver == v.buf.Version() {
		t.Skip("the line was lexed again before the check")
	}
	for i := range line {
		j := i
		if i >= 5 {
			j = i + 2
		}
		if styleAt(after, j) != styleAt(before, i) {
			t.Errorf("%q at %d has the colour of another character (was at %d)", v.buf.Line(2)[j], j, i)
		}
	}
	if styleAt(after, 5) != styleAt(before, 4) {
		t.Errorf("the typed text does not continue the colour before it")
	}
}

func TestSoftWrapRowsAndCursor(t *testing.T) {
	rows := wrapRows("alpha beta gamma delta", 10, 4, 0)
	if fmt.Sprint(rows) != "[0 6 11 17]" {
		t.Fatalf("wrap rows = %v", rows)
	}
	long := strings.Repeat("x", 25) // no space: cut between characters
	if got := fmt.Sprint(wrapRows(long, 10, 4, 0)); got != "[0 10 20]" {
		t.Fatalf("wrap rows of an unbroken line = %v", got)
	}
	v, s := viewHarness(t, "alpha beta gamma delta\nnext\n", "", 15, 6) // 10 columns of text
	v.SetWrap(true)
	v.Draw(s)
	v.SetCursor(Pos{0, 0})
	v.HandleKey(tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone))
	if v.Cursor() != (Pos{0, 6}) {
		t.Fatalf("down in a wrapped line went to %v, want the next row {0 6}", v.Cursor())
	}
	v.Draw(s)
	if x, y, ok := s.GetCursor(); !ok || x != 5 || y != 1 {
		t.Fatalf("cursor shown at %d,%d (%v), want 5,1", x, y, ok)
	}
	// Continuation rows sit under the line's indentation.
	if got := fmt.Sprint(wrapRows("    aaaa bbbb cccc", 10, 4, 4)); got != "[0 9 14]" {
		t.Fatalf("wrap rows with indent = %v", got)
	}
	v2, s2 := viewHarness(t, "    aaaa bbbb cccc\n", "", 15, 6)
	v2.SetWrap(true)
	v2.Draw(s2)
	s2.Show()
	row := func(y int) string {
		var sb strings.Builder
		for x := 0; x < 15; x++ {
			str, _, _ := s2.Get(x, y)
			sb.WriteString(str)
		}
		return sb.String()
	}
	if row(0) != "   1     aaaa  " || row(1) != "         bbbb  " || row(2) != "         cccc  " {
		t.Fatalf("wrapped rows drawn as %q %q %q", row(0), row(1), row(2))
	}
	v2.SetCursor(Pos{0, 9}) // "bbbb"
	v2.Draw(s2)
	if x, y, _ := s2.GetCursor(); x != 9 || y != 1 {
		t.Fatalf("cursor on a continuation row at %d,%d, want 9,1", x, y)
	}
	v2.HandleKey(tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone))
	if v2.Cursor() != (Pos{0, 14}) {
		t.Fatalf("down between continuation rows went to %v, want {0 14}", v2.Cursor())
	}
}
