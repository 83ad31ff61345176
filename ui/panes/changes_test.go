package panes

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/theme"
)

// The Changes tab: newest first with counts and who, the newest selected
// until the user moves in the list, and its keys act on the selection.
func TestChangesView(t *testing.T) {
	th := theme.Get("dark")
	v := NewChangesView(&th, nil)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	v.now = func() time.Time { return now }
	var diffs, opens, reverts []string
	v.OnDiff = func(p string) { diffs = append(diffs, p) }
	v.OnOpen = func(p string) { opens = append(opens, p) }
	v.OnRevert = func(p string) { reverts = append(reverts, p) }

	s := simScreen(t, 80, 6)
	draw := func() string {
		s.Clear()
		v.SetRect(0, 0, 80, 6)
		v.Draw(s)
		s.Show()
		return screenText(s)
	}
	if got := draw(); !strings.Contains(got, "Nothing changed in this session yet") || v.Title() != "Changes" {
		t.Fatalf("empty:\n%s", got)
	}
	a := ChangeRow{Path: "a.txt", State: "new", Plus: 1, Counted: true, By: "agent tool", When: now.Add(-2 * time.Minute)}
	if !v.SetRows([]ChangeRow{a}) || v.SetRows([]ChangeRow{a}) {
		t.Fatal("SetRows should report a change once")
	}
	b := ChangeRow{Path: "src/b.go", Plus: 3, Minus: 1, Counted: true, By: "agent command", When: now}
	v.SetRows([]ChangeRow{b, a})
	got := draw()
	for _, want := range []string{"src/b.go", "+3 −1 · agent command · just now", "a.txt", "new +1 −0 · agent tool", "Enter diff"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if v.Title() != "Changes 2" || v.Selected() != "src/b.go" {
		t.Errorf("title %q, selected %q", v.Title(), v.Selected())
	}
	key := func(k tcell.Key, r rune) {
		v.InputHandler()(tcell.NewEventKey(k, r, 0), func(p tview.Primitive) {})
	}
	key(tcell.KeyDown, 0)
	key(tcell.KeyEnter, 0)
	key(tcell.KeyRune, 'o')
	key(tcell.KeyRune, 'R')
	key(tcell.KeyRune, 'k')
	key(tcell.KeyRune, 'd')
	if strings.Join(diffs, ",") != "a.txt,src/b.go" || strings.Join(opens, ",") != "a.txt" || strings.Join(reverts, ",") != "a.txt" {
		t.Errorf("diffs %v opens %v reverts %v", diffs, opens, reverts)
	}
	v.SetNote("Changes are recorded only when sessions are kept.")
	if got := draw(); !strings.Contains(got, "recorded only when sessions are kept") || v.Selected() != "" {
		t.Errorf("note:\n%s", got)
	}
}
