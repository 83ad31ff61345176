package termview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// Alt-V selects with the keyboard: the cursor starts at the shell's, moves
// with arrows and hjkl (into the scrollback too), v marks characters, V
// whole lines, y copies and ends; Esc ends without copying.
func TestKeyboardSelectsAndCopies(t *testing.T) {
	h := newHarness(t, 60, 10)
	var copied []string
	h.view.SetOnCopy(func(s string) { copied = append(copied, s) })
	h.run(`seq 1 30; printf 'alpha beta gamma\ndelta epsilon\n'`)
	// The prompt after the output: the cursor is there.
	ys := h.rowsOf("delta epsilon", "$")
	dy, py := ys[0], ys[1]
	press := func(keys string) {
		for _, r := range keys {
			h.key(tcell.KeyRune, r, tcell.ModNone)
		}
	}
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	if !strings.Contains(h.inner()[0], "select") {
		t.Fatalf("no hint in the corner:\n%s", h.text())
	}
	press(strings.Repeat("k", py-dy) + "0v" + "llll")
	h.rows()
	ix, iy, _, _ := h.view.GetInnerRect()
	for _, c := range []struct {
		x    int
		want bool
	}{{0, true}, {3, true}, {5, false}} {
		_, _, st, _ := h.scr.GetContent(ix+c.x, iy+dy)
		if _, bg, _ := st.Decompose(); (bg == h.view.theme.Selection) != c.want {
			t.Errorf("cell %d of 'delta epsilon': selected %v, want %v", c.x, !c.want, c.want)
		}
	}
	press("y")
	if len(copied) != 1 || copied[0] != "delta" {
		t.Fatalf("copied %q", copied)
	}
	// Whole lines, upwards.
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	h.key(tcell.KeyUp, 0, tcell.ModNone)
	press("Vk")
	h.key(tcell.KeyEnter, 0, tcell.ModNone)
	if len(copied) != 2 || copied[1] != "alpha beta gamma\ndelta epsilon" {
		t.Fatalf("copied %q", copied)
	}
	// Into the scrollback: g goes to the oldest line and the view follows.
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	press("g")
	h.rows()
	if h.view.back == 0 {
		t.Fatalf("the view did not scroll back to the selection cursor:\n%s", h.text())
	}
	press("V")
	for i := 0; i < 200; i++ {
		press("j")
		if h.view.sel != nil && strings.HasSuffix(h.term.Text(h.view.sel.from, h.view.sel.to), "\n1") {
			break
		}
	}
	press("y")
	if got := copied[len(copied)-1]; !strings.HasSuffix(got, "\n1") || h.view.ksel != nil {
		t.Fatalf("copied %q from the scrollback", got)
	}
	// Esc ends without copying and leaves nothing selected.
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	press("vkk")
	h.key(tcell.KeyEsc, 0, tcell.ModNone)
	if h.view.ksel != nil || h.view.sel != nil || len(copied) != 3 {
		t.Fatalf("after Esc: selecting %v, selection %v, copied %q", h.view.ksel != nil, h.view.sel != nil, copied)
	}
	// Keys go to the shell again.
	h.typeText("echo after\n")
	h.waitLine("after")
}

// w, b and e move the selection cursor by words, across lines.
func TestKeyboardSelectionMovesByWords(t *testing.T) {
	h := newHarness(t, 60, 10)
	var copied []string
	h.view.SetOnCopy(func(s string) { copied = append(copied, s) })
	h.run(`printf 'alpha beta gamma\ndelta epsilon\n'`)
	ys := h.rowsOf("alpha beta gamma", "$")
	ay, py := ys[0], ys[1]
	press := func(keys string) {
		for _, r := range keys {
			h.key(tcell.KeyRune, r, tcell.ModNone)
		}
	}
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	press(strings.Repeat("k", py-ay) + "0vwey")
	if len(copied) != 1 || copied[0] != "alpha beta" {
		t.Fatalf("v w e y copied %q", copied)
	}
	// w from the last word goes on to the next line's first; b comes back.
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	press(strings.Repeat("k", py-ay) + "$bvwey")
	if len(copied) != 2 || copied[1] != "gamma\ndelta" {
		t.Fatalf("$ b v w e y copied %q", copied)
	}
}

// A match in a line that wrapped is marked on both rows it crosses.
func TestFindMarksAMatchAcrossAWrap(t *testing.T) {
	h := newHarness(t, 60, 10)
	_, _, w, _ := h.view.GetInnerRect()
	h.run(fmt.Sprintf(`printf '%%s\n' "$(printf 'x%%.0s' {1..%d})needle"`, w-2))
	h.waitLine("edle")
	h.key(tcell.KeyRune, '/', tcell.ModAlt)
	h.typeText("needle")
	h.waitFor("the matches (the command line has one too)", func(rows []string) bool { return strings.Contains(rows[len(rows)-1], "2 of 2") })
	h.rows()
	ix, iy, _, _ := h.view.GetInnerRect()
	_, ey := h.rowIs("edle")
	for _, c := range []struct{ x, y int }{{w - 2, ey - 1}, {w - 1, ey - 1}, {0, ey}, {3, ey}} {
		_, _, st, _ := h.scr.GetContent(ix+c.x, iy+c.y)
		if _, bg, _ := st.Decompose(); bg != h.view.theme.Warning {
			t.Errorf("cell %d,%d of the match is not marked", c.x, c.y)
		}
	}
	if _, _, st, _ := h.scr.GetContent(ix+4, iy+ey); func() bool { _, bg, _ := st.Decompose(); return bg == h.view.theme.Warning }() {
		t.Error("the cell after the match is marked")
	}
	h.key(tcell.KeyEscape, 0, tcell.ModNone)
}

// Every key of keyboard selection moves the cursor, sets the mark or ends
// as documented on selectKey; keys it does not know change nothing.
func TestKeyboardSelectionKeys(t *testing.T) {
	h := newHarness(t, 60, 10)
	h.run(`seq 1 30`)
	h.waitLine("30")
	h.waitLine("$")
	h.rows()
	v := h.view
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	if v.ksel == nil {
		t.Fatal("Alt-V did not start keyboard selection")
	}
	page := int64(max(v.rows-1, 1))
	last, oldest := v.lastLine(), v.oldestLine()
	start, right := v.ksel.at.Line, v.cols-1
	type want struct {
		line int64
		col  int
	}
	for _, step := range []struct {
		name string
		key  tcell.Key
		r    rune
		want want
	}{
		{"0", tcell.KeyRune, '0', want{start, 0}},
		{"l", tcell.KeyRune, 'l', want{start, 1}},
		{"Right", tcell.KeyRight, 0, want{start, 2}},
		{"Left", tcell.KeyLeft, 0, want{start, 1}},
		{"h", tcell.KeyRune, 'h', want{start, 0}},
		{"h at the left edge", tcell.KeyRune, 'h', want{start, 0}},
		{"End", tcell.KeyEnd, 0, want{start, right}},
		{"l at the right edge", tcell.KeyRune, 'l', want{start, right}},
		{"Home", tcell.KeyHome, 0, want{start, 0}},
		{"$", tcell.KeyRune, '$', want{start, right}},
		{"Up", tcell.KeyUp, 0, want{start - 1, right}},
		{"k", tcell.KeyRune, 'k', want{start - 2, right}},
		{"Down", tcell.KeyDown, 0, want{start - 1, right}},
		{"j", tcell.KeyRune, 'j', want{start, right}},
		{"G", tcell.KeyRune, 'G', want{last, 0}},
		{"j at the bottom", tcell.KeyRune, 'j', want{last, 0}},
		{"PgUp", tcell.KeyPgUp, 0, want{last - page, 0}},
		{"PgDn", tcell.KeyPgDn, 0, want{last, 0}},
		{"g", tcell.KeyRune, 'g', want{oldest, 0}},
		{"k at the top", tcell.KeyRune, 'k', want{oldest, 0}},
		{"Tab changes nothing", tcell.KeyTab, 0, want{oldest, 0}},
		{"x changes nothing", tcell.KeyRune, 'x', want{oldest, 0}},
	} {
		h.key(step.key, step.r, tcell.ModNone)
		if v.ksel == nil {
			t.Fatalf("%s ended keyboard selection", step.name)
		}
		if got := (want{v.ksel.at.Line, v.ksel.at.Col}); got != step.want {
			t.Fatalf("%s: cursor at %+v, want %+v", step.name, got, step.want)
		}
	}

	// v and V set the mark (characters, whole lines), switch between the
	// two, and drop it when pressed again.
	h.key(tcell.KeyRune, 'j', tcell.ModNone)
	h.key(tcell.KeyRune, 'l', tcell.ModNone)
	for _, step := range []struct {
		r           rune
		mark, lines bool
		toWide      bool // the selection is widened to whole lines
	}{
		{'v', true, false, false},
		{'v', false, false, false},
		{'V', true, true, true},
		{'v', true, false, false},
		{' ', false, false, false},
		{'V', true, true, true},
		{'V', false, false, false},
	} {
		h.key(tcell.KeyRune, step.r, tcell.ModNone)
		k := v.ksel
		if (k.mark != nil) != step.mark || (step.mark && k.lines != step.lines) || (v.sel != nil) != step.mark {
			t.Fatalf("after %q: mark %v lines %v selection %v, want mark %v lines %v", step.r, k.mark != nil, k.lines, v.sel != nil, step.mark, step.lines)
		}
		if v.sel != nil && (v.sel.from.Col == 0 && v.sel.to.Col == 1<<20) != step.toWide {
			t.Fatalf("after %q: selection %+v, whole lines %v", step.r, *v.sel, step.toWide)
		}
	}

	// q ends it, without copying.
	h.key(tcell.KeyRune, 'v', tcell.ModNone)
	h.key(tcell.KeyRune, 'q', tcell.ModNone)
	if v.ksel != nil || v.sel != nil {
		t.Fatal("q did not end keyboard selection")
	}
}
