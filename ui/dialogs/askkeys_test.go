package dialogs

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/theme"
)

// askDialog is a permission dialog with ask's keys, and the answers it gave.
func askDialog(t *testing.T, ask *AskKeys, req agent.PermissionRequest) (*PermissionDialog, *[]agent.Answer) {
	t.Helper()
	th := theme.Get("dark")
	d := NewPermissionDialog(&chat.Ctx{Th: &th, MD: chat.NewMarkdown(&th)}, DialogKeys())
	d.SetAskKeys(ask)
	var got []agent.Answer
	d.OnAnswer = func(_ string, a agent.Answer) { got = append(got, a) }
	d.Push(req)
	return d, &got
}

func (d *PermissionDialog) press(k tcell.Key, r rune, m tcell.ModMask) {
	d.InputHandler()(tcell.NewEventKey(k, r, m), nil)
}

// screen draws the dialog on a simulation screen and returns its text.
func (d *PermissionDialog) screen(t *testing.T) string {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(100, 30)
	d.SetRect(0, 0, 100, 30)
	d.Draw(s)
	s.Show()
	cells, w, _ := s.GetContents()
	var b strings.Builder
	for i, c := range cells {
		if i > 0 && i%w == 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(c.Runes))
	}
	return b.String()
}

func rebindAll(t *testing.T, ask *AskKeys, over map[string][]string) {
	t.Helper()
	unknown := map[string]int{}
	for _, tb := range ask.Tables() {
		u, err := tb.Override(over)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range u {
			unknown[n]++
		}
	}
	for n, c := range unknown {
		if c == len(ask.Tables()) {
			t.Fatalf("no table knows %s", n)
		}
	}
}

// A plan's answers are the Plan table's keys, and its footer names them.
func TestPlanKeysAreRebindable(t *testing.T) {
	ask := DefaultAskKeys()
	rebindAll(t, ask, map[string][]string{"plan.approve_ask": {"o"}, "note.back": {"ctrl+e"}, "plan.keep_planning": {"k"}})
	d, got := askDialog(t, ask, agent.PermissionRequest{ID: "1", Plan: "1. do it"})
	if s := d.screen(t); !strings.Contains(s, "o approve, ask before edits") {
		t.Errorf("the footer does not name the bound key:\n%s", s)
	}
	d.press(tcell.KeyRune, 'y', 0)
	d.press(tcell.KeyRune, '2', 0)
	d.press(tcell.KeyRune, 'n', 0)
	if len(*got) != 0 || d.noting {
		t.Fatalf("y, 2 or n still answer after the keys were bound elsewhere: %v", *got)
	}
	d.press(tcell.KeyRune, 'k', 0)
	if !d.noting {
		t.Fatal("k did not open the note")
	}
	d.press(tcell.KeyEscape, 0, 0)
	if !d.noting {
		t.Fatal("Esc still leaves the note after note.back was bound to Ctrl-E")
	}
	d.press(tcell.KeyCtrlE, 0, tcell.ModCtrl)
	if d.noting {
		t.Fatal("Ctrl-E did not leave the note")
	}
	d.press(tcell.KeyRune, 'o', 0)
	if len(*got) != 1 || (*got)[0].Decision != agent.PlanApproveAsk {
		t.Fatalf("o answered %v", *got)
	}
}

// A question's keys are the Question table's; the numbers still pick.
func TestQuestionKeysAreRebindable(t *testing.T) {
	ask := DefaultAskKeys()
	rebindAll(t, ask, map[string][]string{"question.down": {"j"}, "question.choose": {"space"}})
	d, got := askDialog(t, ask, agent.PermissionRequest{ID: "1", Question: &agent.Question{Text: "Which?", Options: []string{"red", "blue"}}})
	d.press(tcell.KeyDown, 0, 0)
	d.press(tcell.KeyEnter, 0, 0)
	if len(*got) != 0 || d.choice != 0 {
		t.Fatalf("Down or Enter still act: choice %d, answers %v", d.choice, *got)
	}
	d.press(tcell.KeyRune, 'j', 0)
	d.press(tcell.KeyRune, ' ', 0)
	if len(*got) != 1 || (*got)[0].Note != "blue" {
		t.Fatalf("j then Space answered %v", *got)
	}
}
