package editor

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The file finder's keys are the picker's actions, which the user's
// bindings rebind: picker.down on Ctrl-J moves the finder's choice, and
// Down no longer does.
func TestFinderKeysAreRebindable(t *testing.T) {
	h := newHarness(t, 80, 20)
	h.write("a1.txt", "")
	h.write("a2.txt", "")
	h.write("a3.txt", "")
	if unknown, err := h.tabs.FinderKeys().Override(map[string][]string{"picker.down": {"ctrl+j"}}); err != nil || len(unknown) > 0 {
		t.Fatalf("override: %v %v", unknown, err)
	}
	h.tabs.OpenFinder()
	h.typeText("a")
	h.waitFor("the finder's matches", func() bool { h.draw(); return len(h.tabs.finder.matches) == 3 })
	h.key(tcell.KeyDown, 0, 0)
	if h.tabs.finder.sel != 0 {
		t.Errorf("Down still moves once rebound: choice %d", h.tabs.finder.sel)
	}
	h.key(tcell.KeyCtrlJ, 0, 0)
	if h.tabs.finder.sel != 1 {
		t.Errorf("Ctrl-J does not move down: choice %d", h.tabs.finder.sel)
	}
}
