package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/theme"
)

func TestInputNewlinesPasteAndHistory(t *testing.T) {
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag}, 120, 30)
	waitPrompts := func(n int) []string {
		t.Helper()
		waitFor(t, "the prompt to reach the agent", func() bool { return len(ag.promptList()) >= n })
		waitFor(t, "the turn to end", func() bool {
			done := false
			r.onUI(func() { done = !r.app.task.turnRunning() })
			return done
		})
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
		if got := r.app.task.input.GetText(); got != "/clear" {
			t.Errorf("Tab completed to %q", got)
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

func TestInputRows(t *testing.T) {
	in := NewInput(darkCtx().Th, ChatKeys(), commands.New())
	cases := []struct {
		text string
		want int
	}{
		{"", 1}, {"hello", 1}, {"a\nb\nc", 3}, {"a\n", 2}, {strings.Repeat("word ", 30), 4},
		{strings.Repeat("x\n", 100), maxInputRows}, {strings.Repeat("y", 1<<20), maxInputRows},
	}
	for _, c := range cases {
		in.SetText(c.text, true)
		if got := in.Rows(40); got != c.want {
			t.Errorf("Rows(%.20q…) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestHintDrawsAsTviewsPlaceholder: the empty input's hint, drawn by Input
// itself, leaves the same cells as tview's own placeholder (a TextView
// built at every frame) at every width fitPlaceholder fits it to; typed
// text replaces it.
func TestHintDrawsAsTviewsPlaceholder(t *testing.T) {
	dark := theme.Get("dark")
	th := &dark
	for _, w := range []int{12, 30, 50, 80} {
		in := NewInput(th, ChatKeys(), nil)
		in.fitPlaceholder(w)
		ref := tview.NewTextArea()
		ref.SetBackgroundColor(th.Background)
		ref.SetTextStyle(tcell.StyleDefault.Foreground(th.Foreground).Background(th.Background))
		ref.SetPlaceholderStyle(in.hintStyle)
		ref.SetPlaceholder(in.hint)
		got, want := simScreen(t, w, 3), simScreen(t, w, 3)
		in.SetRect(0, 0, w, 2)
		in.Draw(got)
		ref.SetRect(0, 0, w, 2)
		ref.Draw(want)
		got.Show()
		want.Show()
		gc, _, _ := got.GetContents()
		wc, _, _ := want.GetContents()
		for i := range gc {
			if string(gc[i].Runes) != string(wc[i].Runes) || gc[i].Style != wc[i].Style {
				t.Fatalf("width %d, cell %d,%d: %q %v, tview's placeholder %q %v\n%s", w, i%w, i/w,
					string(gc[i].Runes), gc[i].Style, string(wc[i].Runes), wc[i].Style, screenText(got))
			}
		}
		if w >= 30 && !strings.Contains(screenText(got), "Ask fawn") {
			t.Fatalf("width %d: no hint:\n%s", w, screenText(got))
		}
	}
	in := NewInput(th, ChatKeys(), nil)
	in.SetText("hello", true)
	s := simScreen(t, 40, 3)
	in.SetRect(0, 0, 40, 2)
	in.Draw(s)
	s.Show()
	if text := screenText(s); strings.Contains(text, "Ask fawn") || !strings.Contains(text, "hello") {
		t.Fatalf("typed text does not replace the hint:\n%s", text)
	}
}
