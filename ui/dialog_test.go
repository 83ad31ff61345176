package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/chat"
)

func bashRequest(id, cmd string) agent.PermissionRequest {
	return agent.PermissionRequest{ID: id, Tool: "bash", Reason: "commands ask in ask mode",
		Action: tools.Action{Kind: tools.KindExec, Summary: "$ " + cmd, Command: cmd, Cwd: "/proj/sub"}}
}

func TestDialogAnswers(t *testing.T) {
	cases := []struct {
		name  string
		keys  func(r *running)
		want  agent.Decision
		note  string
		shown string
	}{
		{"y allows once", func(r *running) { r.typeText("y") }, agent.AllowOnce, "", ""},
		{"a allows for the session", func(r *running) { r.typeText("a") }, agent.AllowSession, "", ""},
		{"n denies", func(r *running) { r.typeText("n") }, agent.Deny, "", ""},
		{"Esc denies", func(r *running) { r.key(tcell.KeyEscape, 0, 0) }, agent.Deny, "", ""},
		{"d denies with a note", func(r *running) {
			r.typeText("d")
			r.waitScreen("Note to the model:")
			r.typeText("use make clean instead")
			r.key(tcell.KeyEnter, 0, 0)
		}, agent.Deny, "use make clean instead", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ag := newScriptAgent()
			r := startApp(t, Options{Agent: ag}, 120, 30)
			r.onUI(func() {
				handleAll(r.app, agent.Event{Type: agent.EventTurnStarted}, ev(agent.EventToolCallStarted, "b1", "bash"))
				req := bashRequest("b1", "rm -rf build")
				r.app.task.router.Handle(agent.Event{Type: agent.EventPermissionAsked, ID: "b1", Name: "bash", Permission: &req})
			})
			r.waitScreen("bash wants to run a command")
			r.waitScreen("in /proj/sub")
			// Keys meant for the chat must not leak past the modal dialog.
			c.keys(r)
			select {
			case id := <-ag.approved:
				if id != "b1" {
					t.Fatalf("answered %q, want b1", id)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("no answer reached the agent")
			}
			got, _ := ag.answer("b1")
			if got.Decision != c.want || got.Note != c.note || got.Auto {
				t.Errorf("answer = %+v, want %v note %q", got, c.want, c.note)
			}
			r.sync()
			if strings.Contains(r.text(), "wants to run a command") {
				t.Error("the dialog stayed open after the answer")
			}
			if r.app.task.input.GetText() != "" {
				t.Errorf("dialog keys reached the chat input: %q", r.app.task.input.GetText())
			}
		})
	}
}

func TestDialogQueuesRequestsOneAtATime(t *testing.T) {
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.onUI(func() {
		handleAll(r.app, agent.Event{Type: agent.EventTurnStarted})
		for _, id := range []string{"b1", "b2"} {
			req := bashRequest(id, "echo "+id)
			handleAll(r.app, ev(agent.EventToolCallStarted, id, "bash"),
				agent.Event{Type: agent.EventPermissionAsked, ID: id, Name: "bash", Permission: &req})
		}
	})
	r.waitScreen("$ echo b1")
	r.waitScreen("(1 of 2)")
	r.typeText("y")
	if id := <-ag.approved; id != "b1" {
		t.Fatalf("first answer went to %s", id)
	}
	r.waitScreen("$ echo b2")
	r.typeText("n")
	if id := <-ag.approved; id != "b2" {
		t.Fatalf("second answer went to %s", id)
	}
}

func TestDialogShowsTheDiffOfAnEdit(t *testing.T) {
	a, s := newDrawnApp(t, Options{Root: "/proj"}, 100, 30)
	diff := "--- a/main.go\n+++ b/main.go\n@@ -1,3 +1,3 @@\n package main\n-func old() {}\n+func new() {}\n"
	req := agent.PermissionRequest{ID: "e1", Tool: "text_editor", Reason: "edits ask in ask mode",
		Action: tools.Action{Kind: tools.KindEdit, Summary: "Edit main.go +1 −1", Path: "/proj/main.go", Diff: diff}}
	handleAll(a, agent.Event{Type: agent.EventTurnStarted}, ev(agent.EventToolCallStarted, "e1", "text_editor"),
		agent.Event{Type: agent.EventPermissionAsked, ID: "e1", Name: "text_editor", Permission: &req})
	a.draw()
	text := screenText(s)
	for _, want := range []string{"text_editor wants to edit a file", "Edit main.go +1 −1", "edits ask in ask mode",
		"file main.go", "-func old() {}", "+func new() {}", "y allow once", "a allow for this session", "d deny with a note"} {
		if !strings.Contains(text, want) {
			t.Errorf("dialog lacks %q:\n%s", want, text)
		}
	}
	x, y := findText(s, "+func new")
	if _, st := cellAt(s, x, y); fgOf(st) != a.th.Added {
		t.Error("added lines are not in the added colour")
	}
	x, y = findText(s, "-func old")
	if _, st := cellAt(s, x, y); fgOf(st) != a.th.Removed {
		t.Error("removed lines are not in the removed colour")
	}
	// The card behind it says it waits.
	if c := a.task.router.Card("e1"); c == nil || c.Status != chat.StatusWaiting {
		t.Errorf("card status = %v, want waiting", c)
	}
}

func TestDialogScrollsALongDiff(t *testing.T) {
	a, s := newDrawnApp(t, Options{}, 100, 20)
	var diff strings.Builder
	diff.WriteString("@@ -1,60 +1,60 @@\n")
	for i := 0; i < 60; i++ {
		diff.WriteString("+added line " + strings.Repeat("x", i%7) + "\n")
	}
	diff.WriteString("+THE LAST LINE\n")
	req := agent.PermissionRequest{ID: "e1", Tool: "text_editor", Action: tools.Action{Kind: tools.KindEdit, Diff: diff.String()}}
	a.task.dialog.Push(req)
	a.draw()
	if strings.Contains(screenText(s), "THE LAST LINE") {
		t.Fatal("a 60-line diff should not fit in 20 rows")
	}
	for i := 0; i < 80; i++ {
		a.task.dialog.InputHandler()(tcell.NewEventKey(tcell.KeyDown, 0, 0), a.setFocus)
	}
	a.draw()
	if !strings.Contains(screenText(s), "THE LAST LINE") {
		t.Errorf("scrolling down does not reach the end:\n%s", screenText(s))
	}
}

// Finding 6: a command with 60 blank lines between a harmless first line
// and the real one shows whole: the blank run is one visible marker, so the
// last line is on screen; control characters and long runs of spaces are
// shown, not dropped.
func TestDialogHidesNothingOfACommand(t *testing.T) {
	for _, c := range []struct {
		name, cmd string
		want      []string
	}{
		{"blank lines", "echo harmless" + strings.Repeat("\n", 61) + "touch x", []string{"$ echo harmless", "⏎×60", "touch x"}},
		{"carriage return", "echo harmless\rrm -rf ~", []string{"echo harmless␍rm -rf ~"}},
		{"escape", "echo ok \x1b[8mrm -rf ~\x1b[0m", []string{"␛[8mrm -rf ~␛[0m"}},
		{"spaces", "echo harmless" + strings.Repeat(" ", 300) + "; touch x", []string{"echo harmless␠×300; touch x"}},
		{"bidi", "echo \u202egnirts", []string{"<U+202E>gnirts"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ag := newScriptAgent()
			r := startApp(t, Options{Agent: ag}, 120, 30)
			r.onUI(func() {
				handleAll(r.app, agent.Event{Type: agent.EventTurnStarted}, ev(agent.EventToolCallStarted, "b1", "bash"))
				req := bashRequest("b1", c.cmd)
				r.app.task.router.Handle(agent.Event{Type: agent.EventPermissionAsked, ID: "b1", Name: "bash", Permission: &req})
			})
			r.waitScreen("bash wants to run a command")
			for _, w := range c.want {
				r.waitScreen(w)
			}
		})
	}
}

// A command taller than the dialog says how many lines are below.
func TestDialogSaysWhatIsBelow(t *testing.T) {
	var cmd []string
	for i := range 40 {
		cmd = append(cmd, fmt.Sprintf("echo line-%d", i))
	}
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.onUI(func() {
		handleAll(r.app, agent.Event{Type: agent.EventTurnStarted}, ev(agent.EventToolCallStarted, "b1", "bash"))
		req := bashRequest("b1", strings.Join(cmd, "\n"))
		r.app.task.router.Handle(agent.Event{Type: agent.EventPermissionAsked, ID: "b1", Name: "bash", Permission: &req})
	})
	r.waitScreen("more lines")
	r.key(tcell.KeyPgDn, 0, 0)
	r.key(tcell.KeyPgDn, 0, 0)
	r.waitScreen("echo line-39")
}
