package trustprompt

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// The prompt answers by its table's keys: rebound, the new key answers,
// the old one does not, and the footer names the keys as bound.
func TestPromptKeysAreRebindable(t *testing.T) {
	keys := DefaultKeys()
	if unknown, err := keys.Override(map[string][]string{"trust.accept": {"a"}, "trust.down": {"ctrl+n"}}); err != nil || len(unknown) > 0 {
		t.Fatalf("override: %v %v", unknown, err)
	}
	v := New(Options{Dir: "/p", Items: items, New: items, Keys: keys})
	if s := strings.Join(screenText(t, v, 80, 12), "\n"); !strings.Contains(s, "a trust and remember") {
		t.Errorf("the footer does not name the bound key:\n%s", s)
	}
	press := func(k tcell.Key, r rune, m tcell.ModMask) {
		v.InputHandler()(tcell.NewEventKey(k, r, m), func(tview.Primitive) {})
	}
	press(tcell.KeyDown, 0, 0)
	if v.scroll != 0 {
		t.Fatal("Down still scrolls after trust.down was bound to Ctrl-N")
	}
	press(tcell.KeyCtrlN, 0, tcell.ModCtrl)
	if v.scroll != 1 {
		t.Fatalf("Ctrl-N did not scroll: %d", v.scroll)
	}
	press(tcell.KeyRune, 'y', 0)
	if _, ok := v.Answered(); ok {
		t.Fatal("y still trusts after trust.accept was bound to a")
	}
	press(tcell.KeyRune, 'A', 0)
	if a, ok := v.Answered(); !ok || a != Trust {
		t.Fatalf("A (a in either case) answered %v %v", a, ok)
	}
}
