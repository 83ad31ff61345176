package chat

import (
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/hooks"
)

// A hook's run on a tool call shows in the call's card — a line with its
// verdict, what it said when the card is expanded — and not as a line of
// its own in the chat; a hook of no call (UserPromptSubmit) still is one.
func TestHooksShowInTheirCards(t *testing.T) {
	h := newHarness()
	r := h.router
	r.BeginTurn()
	r.Handle(agent.Event{Type: agent.EventTurnStarted, Text: "go"})
	r.Handle(agent.Event{Type: agent.EventHook, Hook: &hooks.Result{Event: "UserPromptSubmit", Command: "ctx.sh", Duration: 3 * time.Millisecond}})
	r.Handle(agent.Event{Type: agent.EventToolCallStarted, ID: "c1", Name: "bash"})
	r.Handle(agent.Event{Type: agent.EventToolCallReady, ID: "c1", Name: "bash", Args: `{"command":"make lint"}`})
	r.Handle(agent.Event{Type: agent.EventHook, ID: "c1", Name: "bash", Hook: &hooks.Result{Event: "PreToolUse", Command: "./check.sh", Duration: 12 * time.Millisecond, Approve: true}})
	r.Handle(agent.Event{Type: agent.EventToolRunStarted, ID: "c1", Name: "bash"})
	r.Handle(agent.Event{Type: agent.EventToolRunEnded, ID: "c1", Name: "bash", Result: "ok", Duration: time.Second})
	r.Handle(agent.Event{Type: agent.EventHook, ID: "c1", Name: "bash", Hook: &hooks.Result{Event: "PostToolUse", Command: "./after.sh", Duration: 5 * time.Millisecond,
		Block: true, Reason: "lint found 2 problems\nsee lint.log"}})
	r.Handle(agent.Event{Type: agent.EventTurnEnded})

	var card *Card
	var notices []string
	for i := 0; i < h.list.Len(); i++ {
		switch it := h.list.Item(i).(type) {
		case *Card:
			card = it
		case *Notice:
			notices = append(notices, it.Text)
		}
	}
	if card == nil {
		t.Fatal("no card")
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "UserPromptSubmit") {
		t.Errorf("the chat's own hook lines: %q; want only the UserPromptSubmit one", notices)
	}
	collapsed := linesText(card.Render(h.ctx, 80))
	for _, want := range []string{"⚙ PreToolUse hook: approved · `./check.sh` (12ms)", "⚙ PostToolUse hook: blocked: lint found 2 problems"} {
		if !strings.Contains(collapsed, want) {
			t.Errorf("the card does not show %q:\n%s", want, collapsed)
		}
	}
	if strings.Contains(collapsed, "see lint.log") {
		t.Errorf("a collapsed card shows the hook's whole reason:\n%s", collapsed)
	}
	card.Toggle()
	if expanded := linesText(card.Render(h.ctx, 80)); !strings.Contains(expanded, "see lint.log") {
		t.Errorf("the expanded card does not show what the hook said:\n%s", expanded)
	}
}
