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
	h.waitLine("delta epsilon")
	_, dy := h.rowIs("delta epsilon")
	h.waitLine("$") // the prompt after the output: the cursor is there
	_, py := h.rowIs("$")
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
	h.waitLine("delta epsilon")
	h.waitLine("$")
	_, ay := h.rowIs("alpha beta gamma")
	_, py := h.rowIs("$")
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
