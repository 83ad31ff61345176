package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
)

func TestInputNewlinesPasteAndHistory(t *testing.T) {
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag}, 120, 30)
	waitPrompts := func(n int) []string {
		t.Helper()
		waitFor(t, "the prompt to reach the agent", func() bool { return len(ag.promptList()) >= n })
		r.waitTurnEnded()
		return ag.promptList()
	}

	// Alt-Enter, Ctrl-J and Shift-Enter insert newlines; Enter sends.
	r.typeText("a")
	r.key(tcell.KeyEnter, 0, tcell.ModAlt)
	r.typeText("b")
	r.key(tcell.KeyCtrlJ, 0, tcell.ModCtrl)
	r.typeText("c")
	r.key(tcell.KeyEnter, 0, tcell.ModShift)
	r.typeText("d")
	r.key(tcell.KeyEnter, 0, 0)
	if got := waitPrompts(1)[0]; got != "a\nb\nc\nd" {
		t.Errorf("sent %q, want four lines", got)
	}

	// A bracketed paste with newlines stays one message.
	r.screen.PostEventWait(tcell.NewEventPaste(true))
	for _, c := range "line one\nline two\nline three" {
		if c == '\n' {
			r.screen.InjectKey(tcell.KeyEnter, 0, 0)
		} else {
			r.screen.InjectKey(tcell.KeyRune, c, 0)
		}
	}
	r.screen.PostEventWait(tcell.NewEventPaste(false))
	r.sync()
	if got := r.app.task.input.GetText(); got != "line one\nline two\nline three" {
		t.Fatalf("after the paste the input holds %q", got)
	}
	r.key(tcell.KeyEnter, 0, 0)
	if got := waitPrompts(2); got[1] != "line one\nline two\nline three" || len(got) != 2 {
		t.Errorf("the paste was sent as %q", got[1:])
	}

	// Up and Down walk the history and come back to the draft.
	r.typeText("draft")
	r.key(tcell.KeyUp, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "line one\nline two\nline three" {
			t.Errorf("Up recalled %q", got)
		}
	})
	r.key(tcell.KeyHome, 0, tcell.ModCtrl)
	r.onUI(func() { r.app.task.input.SetText(r.app.task.input.GetText(), false) }) // cursor to the start
	r.key(tcell.KeyUp, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "a\nb\nc\nd" {
			t.Errorf("second Up recalled %q", got)
		}
	})
	r.key(tcell.KeyDown, 0, 0)
	r.key(tcell.KeyDown, 0, 0)
	r.key(tcell.KeyDown, 0, 0)
	r.key(tcell.KeyDown, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "draft" {
			t.Errorf("Down did not come back to the draft: %q", got)
		}
	})
}

func TestSlashCommands(t *testing.T) {
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag, Config: &config.Config{ConfigDir: "/home/u/.config/fawn"}}, 120, 30)
	r.typeText("/to")
	r.waitScreen("/tools")
	r.onUI(func() { r.app.task.input.SetText("", true) })
	r.typeText("/")
	for _, want := range []string{"/clear", "/exit", "/help", "/model"} {
		r.waitScreen(want)
	}
	r.typeText("cl")
	r.waitScreen("Forget the conversation")
	r.key(tcell.KeyTab, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "/clear " {
			t.Errorf("Tab completed to %q, want the command and a space", got)
		}
	})
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("conversation cleared")
	if ag.cleared != 1 {
		t.Errorf("Clear called %d times", ag.cleared)
	}

	r.typeText("/tools")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("tools: bash, text_editor, todo_write")

	r.typeText("/model")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("model: test/model")

	r.typeText("/mode plan")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("permission mode: plan")
	if ag.Mode() != agent.ModePlan {
		t.Errorf("mode = %v", ag.Mode())
	}

	r.typeText("/frobnicate")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("unknown command /frobnicate")

	// A path is a message, not a command.
	r.typeText("/etc/hosts looks odd")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the message to be sent", func() bool { return len(ag.promptList()) == 1 })
	if got := ag.promptList()[0]; got != "/etc/hosts looks odd" {
		t.Errorf("sent %q", got)
	}

	r.typeText("/help")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("keys and commands")
	r.key(tcell.KeyEscape, 0, 0)

	r.typeText("/exit")
	r.screen.InjectKey(tcell.KeyEnter, 0, 0)
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("/exit: Run returned %v", err)
		}
		r.done <- nil
	case <-time.After(20 * time.Second):
		t.Fatal("/exit did not end Run")
	}
}

// slowTurn streams a little text, then waits until cancelled or released.
func slowTurn(release chan struct{}) func(ctx context.Context, emit func(agent.Event)) {
	return func(ctx context.Context, emit func(agent.Event)) {
		emit(agent.Event{Type: agent.EventText, Text: "working…"})
		select {
		case <-ctx.Done():
		case <-release:
			emit(agent.Event{Type: agent.EventText, Text: " finished."})
		}
	}
}

func TestTypingWhileBusyQueuesAndEscCancels(t *testing.T) {
	release := make(chan struct{})
	ag := newScriptAgent(slowTurn(release), slowTurn(release), slowTurn(release))
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.typeText("first")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("working…")
	r.typeText("second")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("queued: sent when the agent finishes")
	if n := len(ag.promptList()); n != 1 {
		t.Fatalf("%d prompts sent while the first turn runs, want 1", n)
	}
	// The first turn ends: the queued message goes out by itself.
	release <- struct{}{}
	waitFor(t, "the queued message to be sent", func() bool { return len(ag.promptList()) == 2 })
	if got := ag.promptList()[1]; got != "second" {
		t.Errorf("queued message sent as %q", got)
	}
	r.waitScreen("working…")

	// Queue a third, then Esc: the turn is cancelled and the queued message
	// goes back into the input instead of being lost.
	r.typeText("third")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("queued")
	r.key(tcell.KeyEscape, 0, 0)
	r.waitScreen("⊘ cancelled")
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "third" {
			t.Errorf("after Esc the input holds %q, want the queued message", got)
		}
		if r.app.task.turnRunning() {
			t.Error("a turn still runs after Esc")
		}
	})
	if strings.Contains(r.text(), "queued:") {
		t.Error("the queued message still shows as queued")
	}
	if n := len(ag.promptList()); n != 2 {
		t.Errorf("%d prompts sent, want 2 (the third was put back)", n)
	}
}

func TestSelectAndCopyMessages(t *testing.T) {
	ag := newScriptAgent(func(ctx context.Context, emit func(agent.Event)) {
		emit(agent.Event{Type: agent.EventText, Text: "The answer is **42**.\n\nSecond paragraph."})
	})
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.typeText("question")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Second paragraph.")
	r.key(tcell.KeyUp, 0, tcell.ModAlt)
	r.onUI(func() {
		if !r.app.task.list.HasFocus() {
			t.Fatal("Alt-Up did not move into the messages")
		}
	})
	r.typeText("y")
	if got := string(r.screen.GetClipboardData()); got != "The answer is **42**.\n\nSecond paragraph." {
		t.Errorf("copied %q", got)
	}
	r.waitScreen("copied 3 lines")
	r.typeText("k")
	r.typeText("y")
	if got := string(r.screen.GetClipboardData()); got != "question" {
		t.Errorf("after k, copied %q, want the user's message", got)
	}
	r.key(tcell.KeyEscape, 0, 0)
	r.onUI(func() {
		if !r.app.task.input.HasFocus() {
			t.Error("Esc did not return to the input")
		}
	})
	// Text typed while a message is selected goes to the input.
	r.key(tcell.KeyUp, 0, tcell.ModAlt)
	r.typeText("hello")
	r.onUI(func() {
		if !r.app.task.input.HasFocus() || r.app.task.input.GetText() != "hello" {
			t.Errorf("typing in the list: input focus %v, text %q", r.app.task.input.HasFocus(), r.app.task.input.GetText())
		}
	})
}

func TestCtrlCInTheChatCancelsTheTurn(t *testing.T) {
	release := make(chan struct{})
	ag := newScriptAgent(slowTurn(release))
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.typeText("go")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("working…")
	r.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	r.waitScreen("⊘ cancelled")
	r.onUI(func() {
		if r.app.task.turnRunning() {
			t.Error("Ctrl-C did not cancel the turn")
		}
	})
}
