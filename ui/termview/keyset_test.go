package termview

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// Keyboard selection takes its keys from its table: rebound, the new keys
// move, mark, copy and end it, the old ones do nothing, and the corner
// names the keys as bound.
func TestKeyboardSelectionKeysAreRebindable(t *testing.T) {
	ks := DefaultKeySet()
	if unknown, err := ks.Select.Override(map[string][]string{
		"terminal.select_up":   {"i"},
		"terminal.select_mark": {"m"},
		"terminal.select_copy": {"c"},
		"terminal.select_end":  {"x"},
	}); err != nil || len(unknown) > 0 {
		t.Fatalf("override: %v %v", unknown, err)
	}
	h := newHarness(t, 60, 10, ks)
	var copied []string
	h.view.SetOnCopy(func(s string) { copied = append(copied, s) })
	h.run(`printf 'alpha\nbeta\n'`)
	h.waitLine("beta")
	h.waitLine("$")
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	if !strings.Contains(h.inner()[0], "m mark") {
		t.Errorf("the corner does not name the bound mark key:\n%s", h.text())
	}
	at := h.view.ksel.at
	h.press(tcell.KeyRune, 'k', 0)
	h.press(tcell.KeyUp, 0, 0)
	if h.view.ksel.at != at {
		t.Fatal("k or Up still move after select_up was bound to i")
	}
	h.press(tcell.KeyRune, 'i', 0) // onto "beta"
	h.press(tcell.KeyRune, '0', 0)
	h.press(tcell.KeyRune, 'v', 0)
	if h.view.ksel.mark != nil {
		t.Fatal("v still marks after select_mark was bound to m")
	}
	h.press(tcell.KeyRune, 'm', 0)
	h.press(tcell.KeyRune, '$', 0)
	h.press(tcell.KeyRune, 'y', 0)
	h.press(tcell.KeyEnter, 0, 0)
	h.press(tcell.KeyEsc, 0, 0)
	h.press(tcell.KeyRune, 'q', 0)
	if h.view.ksel == nil || len(copied) != 0 {
		t.Fatalf("y, Enter, Esc or q still end the selection (copied %q)", copied)
	}
	h.press(tcell.KeyRune, 'c', 0)
	if h.view.ksel != nil || len(copied) != 1 || !strings.HasPrefix(copied[0], "beta") {
		t.Fatalf("c did not copy and end: copied %q", copied)
	}
	h.key(tcell.KeyRune, 'v', tcell.ModAlt)
	h.press(tcell.KeyRune, 'x', 0)
	if h.view.ksel != nil {
		t.Fatal("x did not end the selection")
	}
}

// The scrollback search takes its keys from its table.
func TestFindKeysAreRebindable(t *testing.T) {
	ks := DefaultKeySet()
	if unknown, err := ks.Find.Override(map[string][]string{
		"terminal.find_done":  {"ctrl+o"},
		"terminal.find_close": {"ctrl+e"},
	}); err != nil || len(unknown) > 0 {
		t.Fatalf("override: %v %v", unknown, err)
	}
	h := newHarness(t, 60, 10, ks)
	h.run(`echo abc`)
	h.waitLine("abc")
	h.key(tcell.KeyRune, '/', tcell.ModAlt)
	h.waitText("find:")
	h.typeText("ab")
	h.press(tcell.KeyEnter, 0, 0)
	if !h.view.find.typing {
		t.Fatal("Enter still ends typing after find_done was bound to Ctrl-O")
	}
	h.press(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	if h.view.find.typing {
		t.Fatal("Ctrl-O did not end typing")
	}
	h.press(tcell.KeyEsc, 0, 0)
	if h.view.find == nil {
		t.Fatal("Esc still closes the search after find_close was bound to Ctrl-E")
	}
	h.waitText("Ctrl-E: close")
	h.press(tcell.KeyCtrlE, 0, tcell.ModCtrl)
	if h.view.find != nil {
		t.Fatal("Ctrl-E did not close the search")
	}
}
