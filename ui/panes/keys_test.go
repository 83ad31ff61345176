package panes

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

func rebind(t *testing.T, tb *keymap.Table, over map[string][]string) {
	t.Helper()
	if unknown, err := tb.Override(over); err != nil || len(unknown) > 0 {
		t.Fatalf("override %v: unknown %v, %v", over, unknown, err)
	}
}

func press(h func(*tcell.EventKey, func(tview.Primitive)), k tcell.Key, r rune, mods tcell.ModMask) {
	h(tcell.NewEventKey(k, r, mods), func(tview.Primitive) {})
}

// The Changes list's keys are its table's: rebound, the new keys move and
// act, the old ones do not, and the hint names the keys as bound.
func TestChangesKeysAreRebindable(t *testing.T) {
	th := theme.Get("dark")
	keys := ChangesKeys()
	rebind(t, keys, map[string][]string{"changes.down": {"ctrl+n"}, "changes.diff": {"ctrl+d"}, "changes.revert": {"X"}})
	v := NewChangesView(&th, keys)
	var diffs, reverts []string
	v.OnDiff = func(p string) { diffs = append(diffs, p) }
	v.OnRevert = func(p string) { reverts = append(reverts, p) }
	v.SetRows([]ChangeRow{{Path: "a.txt", Counted: true}, {Path: "b.txt", Counted: true}})
	s := simScreen(t, 80, 6)
	v.SetRect(0, 0, 80, 6)
	v.Draw(s)
	s.Show()
	if got := screenText(s); !strings.Contains(got, "Ctrl-D diff · o open · X revert the file") {
		t.Errorf("the hint does not name the bound keys:\n%s", got)
	}
	h := v.InputHandler()
	press(h, tcell.KeyDown, 0, 0)
	press(h, tcell.KeyRune, 'j', 0)
	if v.Selected() != "a.txt" {
		t.Fatalf("Down or j still move after changes.down was bound to Ctrl-N: %s", v.Selected())
	}
	press(h, tcell.KeyCtrlN, 0, tcell.ModCtrl)
	if v.Selected() != "b.txt" {
		t.Fatalf("Ctrl-N did not move down: %s", v.Selected())
	}
	press(h, tcell.KeyEnter, 0, 0)
	press(h, tcell.KeyRune, 'R', 0)
	if len(diffs)+len(reverts) != 0 {
		t.Fatalf("Enter or R still act: diffs %v reverts %v", diffs, reverts)
	}
	press(h, tcell.KeyCtrlD, 0, tcell.ModCtrl)
	press(h, tcell.KeyRune, 'X', 0)
	if strings.Join(diffs, ",") != "b.txt" || strings.Join(reverts, ",") != "b.txt" {
		t.Fatalf("Ctrl-D, X: diffs %v reverts %v", diffs, reverts)
	}
}

// The to-do list scrolls by its table's keys.
func TestTodoKeysAreRebindable(t *testing.T) {
	th := theme.Get("dark")
	keys := TodoKeys()
	rebind(t, keys, map[string][]string{"todo.down": {"j"}})
	v := NewTodoView(&th, keys)
	var items []tools.Todo
	for range 30 {
		items = append(items, tools.Todo{ID: "x", Title: "a step", Status: "pending"})
	}
	v.SetItems(items)
	s := simScreen(t, 40, 5)
	v.SetRect(0, 0, 40, 5)
	v.Draw(s)
	h := v.InputHandler()
	press(h, tcell.KeyDown, 0, 0)
	if v.offset != 0 {
		t.Fatalf("Down still scrolls after todo.down was bound to j: offset %d", v.offset)
	}
	press(h, tcell.KeyRune, 'j', 0)
	if v.offset != 1 {
		t.Fatalf("j did not scroll: offset %d", v.offset)
	}
}

// The agent terminal scrolls by its table's keys.
func TestAgentTermKeysAreRebindable(t *testing.T) {
	th := theme.Get("dark")
	keys := AgentTermKeys()
	rebind(t, keys, map[string][]string{"agent_terminal.up": {"k"}})
	v := NewAgentTerm(&th, keys)
	h := v.InputHandler()
	press(h, tcell.KeyUp, 0, 0)
	if v.offset != 0 {
		t.Fatalf("Up still scrolls after agent_terminal.up was bound to k: offset %d", v.offset)
	}
	press(h, tcell.KeyRune, 'k', 0)
	if v.offset != 1 {
		t.Fatalf("k did not scroll back: offset %d", v.offset)
	}
}
