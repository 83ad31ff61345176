package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/panes"
)

func ev(typ agent.EventType, id, name string) agent.Event {
	return agent.Event{Type: typ, ID: id, Name: name}
}

// handleAll feeds events to the app's router as the loop would.
func handleAll(a *App, events ...agent.Event) {
	for _, e := range events {
		a.task.router.Handle(e)
	}
}

func TestRouterOutOfOrderFinishes(t *testing.T) {
	a, s := newDrawnApp(t, Options{Root: "/proj"}, 120, 40)
	run := func(id, name, args string) []agent.Event {
		return []agent.Event{
			ev(agent.EventToolCallStarted, id, name),
			{Type: agent.EventToolCallReady, ID: id, Name: name, Args: args},
			ev(agent.EventToolRunStarted, id, name),
		}
	}
	handleAll(a, agent.Event{Type: agent.EventTurnStarted})
	handleAll(a, run("b1", "bash", `{"command":"make slow"}`)...)
	handleAll(a, run("g1", "grep", `{"pattern":"TODO","output_mode":"files_with_matches"}`)...)
	handleAll(a, run("b2", "bash", `{"command":"echo fast"}`)...)
	if a.task.router.Running() != 3 {
		t.Fatalf("running = %d, want 3", a.task.router.Running())
	}
	// The last call finishes first, then the search, then the first call,
	// whose output keeps arriving after the others ended.
	handleAll(a,
		agent.Event{Type: agent.EventToolOutput, ID: "b2", Text: "fast\n"},
		agent.Event{Type: agent.EventToolRunEnded, ID: "b2", Name: "bash", Result: "fast\nexit code 0", Duration: 10 * time.Millisecond},
		agent.Event{Type: agent.EventToolOutput, ID: "b1", Text: "step 1\n"},
		agent.Event{Type: agent.EventToolRunEnded, ID: "g1", Name: "grep", Result: "a.go\nb.go\nc.go", Duration: 20 * time.Millisecond},
		agent.Event{Type: agent.EventToolOutput, ID: "b1", Text: "step 2\n"},
		agent.Event{Type: agent.EventToolUpdate, ID: "b1", Data: tools.CommandDone{Output: "step 1\nstep 2\n", TotalLines: 2, ExitCode: 2}},
		agent.Event{Type: agent.EventToolRunEnded, ID: "b1", Name: "bash", Result: "step 1\nstep 2\n[exit code 2 · cwd /proj]", IsError: true, Duration: 3 * time.Second},
	)
	if a.task.router.Running() != 0 {
		t.Errorf("running = %d after all ended, want 0", a.task.router.Running())
	}
	var cards []*chat.Card
	for i := 0; i < a.task.list.Len(); i++ {
		if c, ok := a.task.list.Item(i).(*chat.Card); ok {
			cards = append(cards, c)
		}
	}
	if len(cards) != 3 || cards[0].ID != "b1" || cards[1].ID != "g1" || cards[2].ID != "b2" {
		t.Fatalf("cards not in call order: %v", cards)
	}
	if got := strings.Join(cards[0].OutputLines(), "|"); got != "step 1|step 2" {
		t.Errorf("b1 output = %q; events of one ID must reach its own card", got)
	}
	if got := strings.Join(cards[2].OutputLines(), "|"); got != "fast" {
		t.Errorf("b2 output = %q", got)
	}
	if cards[0].Status != chat.StatusFailed || cards[1].Status != chat.StatusDone || cards[2].Status != chat.StatusDone {
		t.Errorf("statuses = %v %v %v, want failed done done", cards[0].Status, cards[1].Status, cards[2].Status)
	}
	a.draw()
	text := screenText(s)
	for _, want := range []string{"✗ ❯ $ make slow", "3.0s", `✓ ⌕ Search "TODO" → 3 files`, "✓ ❯ $ echo fast", "step 2", "exit code 2"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
}

func TestRouterUnknownAndUnannouncedTools(t *testing.T) {
	a, s := newDrawnApp(t, Options{}, 140, 30)
	handleAll(a,
		agent.Event{Type: agent.EventTurnStarted},
		ev(agent.EventToolCallStarted, "m1", "mcp__github__search_issues"),
		agent.Event{Type: agent.EventToolCallReady, ID: "m1", Name: "mcp__github__search_issues", Args: `{"q":"crash"}`},
		ev(agent.EventToolRunStarted, "m1", "mcp__github__search_issues"),
		agent.Event{Type: agent.EventToolRunEnded, ID: "m1", Result: "#12 crash on resize\n#40 crash at exit"},
		// A call whose start was never announced (an unknown tool the
		// model made up) still gets a card from its first event.
		agent.Event{Type: agent.EventToolRunEnded, ID: "x9", Name: "frobnicate", Result: "error: unknown tool frobnicate", IsError: true},
	)
	c := a.task.router.Card("m1")
	if c != nil {
		t.Error("a finished call should be forgotten by the router")
	}
	a.draw()
	text := screenText(s)
	for _, want := range []string{`⚙ mcp__github__search_issues {"q":"crash"}`, "#12 crash on resize", "✗ ⚙ frobnicate", "error: unknown tool frobnicate"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
}

func TestRouterDrivesEditorTerminalAndTodo(t *testing.T) {
	ed := newRecordingEditor()
	a, s := newDrawnApp(t, Options{Editor: ed, Root: "/proj"}, 120, 40)
	handleAll(a,
		agent.Event{Type: agent.EventTurnStarted},
		ev(agent.EventToolCallStarted, "v1", "text_editor"),
		agent.Event{Type: agent.EventToolCallReady, ID: "v1", Name: "text_editor", Args: `{"command":"view","path":"/proj/main.go"}`},
		ev(agent.EventToolRunStarted, "v1", "text_editor"),
		agent.Event{Type: agent.EventToolUpdate, ID: "v1", Data: tools.FileViewed{Path: "/proj/main.go", Start: 1, End: 40}},
		agent.Event{Type: agent.EventToolRunEnded, ID: "v1", Result: "…"},
		ev(agent.EventToolCallStarted, "e1", "text_editor"),
		agent.Event{Type: agent.EventToolCallReady, ID: "e1", Name: "text_editor", Args: `{"command":"str_replace","path":"/proj/main.go"}`},
		ev(agent.EventToolRunStarted, "e1", "text_editor"),
		agent.Event{Type: agent.EventToolUpdate, ID: "e1", Data: tools.FileChanged{Path: "/proj/main.go",
			Before: []byte("a\nb\nc\n"), After: []byte("a\nB\nB2\nc\n"), Command: "str_replace"}},
		agent.Event{Type: agent.EventToolRunEnded, ID: "e1", Result: "edited"},
	)
	if len(ed.viewed) != 1 || ed.viewed[0].Path != "/proj/main.go" || ed.viewed[0].End != 40 {
		t.Errorf("editor viewed = %+v", ed.viewed)
	}
	if len(ed.changed) != 1 || string(ed.changed[0].After) != "a\nB\nB2\nc\n" {
		t.Errorf("editor changed = %+v", ed.changed)
	}
	a.draw()
	text := screenText(s)
	for _, want := range []string{"View main.go:1-40", "Edit main.go  +2 −1", "- b", "+ B2", "changed /proj/main.go"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
	// Enter on the edit card jumps to the file at the first changed line.
	a.task.list.Select(a.task.list.Len() - 1)
	a.setFocus(a.task.list)
	a.task.list.Activate(a.task.list.Selected(), -1)
	if len(ed.opened) != 1 || ed.opened[0] != "/proj/main.go:2" {
		t.Errorf("jump opened %v, want /proj/main.go:2", ed.opened)
	}
	if a.focusPane != panes.Editor {
		t.Errorf("focus is on %v after the jump, want the editor", a.focusPane)
	}

	// A bash call brings the terminal forward…
	a.task.strip.Show(panes.Todo)
	a.focusOn(panes.Chat)
	handleAll(a, ev(agent.EventToolCallStarted, "b1", "bash"), ev(agent.EventToolRunStarted, "b1", "bash"))
	if a.task.strip.Active() != panes.Terminal {
		t.Errorf("bash did not bring the terminal forward")
	}
	handleAll(a, agent.Event{Type: agent.EventToolRunEnded, ID: "b1", Result: "exit code 0"})
	// …and a to-do update brings the list forward, unless the user is
	// working in the terminal: then its tab is only marked.
	a.focusOn(panes.Terminal)
	todos := tools.TodosChanged{Items: []tools.Todo{{ID: "1", Title: "x", Status: "pending"}}}
	handleAll(a, ev(agent.EventToolCallStarted, "t1", "todo_write"), ev(agent.EventToolRunStarted, "t1", "todo_write"),
		agent.Event{Type: agent.EventToolUpdate, ID: "t1", Data: todos},
		agent.Event{Type: agent.EventToolRunEnded, ID: "t1", Result: "ok"})
	if a.task.strip.Active() != panes.Terminal {
		t.Errorf("a to-do update took the strip away from the terminal the user works in")
	}
	if len(a.task.todos.Items()) != 1 || a.task.todos.Title() != "To-do 0/1" {
		t.Errorf("to-do view = %v %q", a.task.todos.Items(), a.task.todos.Title())
	}
	a.draw()
	if !strings.Contains(screenText(s), "To-do 0/1 •") {
		t.Errorf("the to-do tab is not marked as changed:\n%s", screenText(s))
	}
	// Once the terminal has been idle a while and is not focused, a to-do
	// update brings the list forward.
	a.focusOn(panes.Chat)
	later := time.Now().Add(stripIdle + time.Second)
	a.task.strip.now = func() time.Time { return later }
	handleAll(a, ev(agent.EventToolCallStarted, "t2", "todo_write"), agent.Event{Type: agent.EventToolUpdate, ID: "t2", Data: todos})
	if a.task.strip.Active() != panes.Todo {
		t.Errorf("a to-do update did not bring the list forward")
	}
}

// The strip never switches from the terminal the user is reading to the
// to-do list: while the agent's command prints, a to-do update only puts a
// badge on the to-do tab, even with the focus in the chat.
func TestStripKeepsTheBusyTerminal(t *testing.T) {
	a, s := newDrawnApp(t, Options{Agent: newScriptAgent()}, 120, 40)
	now := time.Now()
	a.task.strip.now = func() time.Time { return now }
	handleAll(a, agent.Event{Type: agent.EventTurnStarted},
		ev(agent.EventToolCallStarted, "b1", "bash"), ev(agent.EventToolRunStarted, "b1", "bash"),
		agent.Event{Type: agent.EventToolOutput, ID: "b1", Text: "building…\n"})
	now = now.Add(2 * time.Second)
	todos := tools.TodosChanged{Items: []tools.Todo{{ID: "1", Title: "x", Status: "pending"}}}
	handleAll(a, ev(agent.EventToolCallStarted, "t1", "todo_write"), ev(agent.EventToolRunStarted, "t1", "todo_write"),
		agent.Event{Type: agent.EventToolUpdate, ID: "t1", Data: todos})
	if a.task.strip.Active() != panes.Terminal {
		t.Fatal("a to-do update took the strip away from a terminal that just printed")
	}
	a.draw()
	if !strings.Contains(screenText(s), "To-do 0/1 •") {
		t.Errorf("the to-do tab has no badge:\n%s", screenText(s))
	}
	// The user typing in the terminal keeps it too, however long ago it printed.
	now = now.Add(time.Minute)
	a.focusOn(panes.Terminal)
	handleAll(a, agent.Event{Type: agent.EventToolUpdate, ID: "t1", Data: todos})
	if a.task.strip.Active() != panes.Terminal {
		t.Error("a to-do update took the strip away from the focused terminal")
	}
}

func TestRouterPermissionAndCancelledTurn(t *testing.T) {
	ag := newScriptAgent()
	a, s := newDrawnApp(t, Options{Agent: ag}, 120, 40)
	req := &agent.PermissionRequest{ID: "b1", Tool: "bash", Reason: "commands ask in ask mode",
		Action: tools.Action{Kind: tools.KindExec, Summary: "$ rm -rf build", Command: "rm -rf build", Cwd: "/proj"}}
	handleAll(a,
		agent.Event{Type: agent.EventTurnStarted},
		ev(agent.EventToolCallStarted, "b1", "bash"),
		agent.Event{Type: agent.EventToolCallReady, ID: "b1", Name: "bash", Args: `{"command":"rm -rf build"}`},
		agent.Event{Type: agent.EventPermissionAsked, ID: "b1", Name: "bash", Permission: req},
	)
	a.draw()
	text := screenText(s)
	for _, want := range []string{"waiting for permission", "bash wants to run a command", "$ rm -rf build", "in /proj", "allow once"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
	if st := a.task.router.State(a.task.dialog.Visible()); st != "waiting for you" {
		t.Errorf("state = %q", st)
	}
	// A second call's request waits behind the first.
	handleAll(a, ev(agent.EventToolCallStarted, "b2", "bash"),
		agent.Event{Type: agent.EventPermissionAsked, ID: "b2", Name: "bash", Permission: &agent.PermissionRequest{ID: "b2", Tool: "bash"}})
	a.draw()
	if !strings.Contains(screenText(s), "(1 of 2)") {
		t.Errorf("queued request not counted:\n%s", screenText(s))
	}
	// The turn is cancelled: both requests go away, the cards say cancelled.
	a.task.router.Cancelled = true
	handleAll(a, agent.Event{Type: agent.EventTurnEnded, Err: errors.New("context canceled")})
	if a.task.dialog.Visible() {
		t.Error("the dialog outlived its turn")
	}
	a.draw()
	text = screenText(s)
	if strings.Count(text, "cancelled") < 3 {
		t.Errorf("want both cards and the turn marked cancelled:\n%s", text)
	}
	if a.task.router.Busy() {
		t.Error("router still busy after the turn ended")
	}
}

func TestRouterRetriesErrorsAndReasoning(t *testing.T) {
	a, s := newDrawnApp(t, Options{}, 160, 30) // the retry notice on one line
	handleAll(a,
		agent.Event{Type: agent.EventTurnStarted},
		agent.Event{Type: agent.EventRetry, Retry: &agent.RetryInfo{Attempt: 1, MaxAttempts: 4, Wait: 2 * time.Second, Reason: "rate limited (429)"}},
		agent.Event{Type: agent.EventRetry, Retry: &agent.RetryInfo{Attempt: 2, MaxAttempts: 4, Wait: 4 * time.Second, Reason: "rate limited (429)"}},
		agent.Event{Type: agent.EventReasoning, Text: "Let me think about this."},
		agent.Event{Type: agent.EventText, Text: "Answer."},
		agent.Event{Type: agent.EventError, Err: errors.New("401 from https://api.openai.com/v1: check models.chat_model.api_key")},
		agent.Event{Type: agent.EventTurnEnded, Err: errors.New("401 from https://api.openai.com/v1: check models.chat_model.api_key")},
	)
	a.draw()
	text := screenText(s)
	if strings.Count(text, "rate limited") != 1 || !strings.Contains(text, "attempt 3 of 4") {
		t.Errorf("retries should update one notice in place:\n%s", text)
	}
	if strings.Count(text, "401 from") != 1 {
		t.Errorf("the error should show once:\n%s", text)
	}
	x, y := findText(s, "401 from")
	if _, st := cellAt(s, x, y); fgOf(st) != a.th.Error {
		t.Errorf("error text is not in the error colour")
	}
	if !strings.Contains(text, "▸ Thought for") || strings.Contains(text, "Let me think") {
		t.Errorf("reasoning should be collapsed:\n%s", text)
	}
}

// After a stream breaks mid-answer the agent retries and the answer streams
// again from its start; the chat must show it once, not broken + whole.
func TestRouterRetryReplacesTheBrokenAnswer(t *testing.T) {
	a, s := newDrawnApp(t, Options{Root: "/proj"}, 100, 30)
	handleAll(a,
		agent.Event{Type: agent.EventTurnStarted, Text: "hi"},
		agent.Event{Type: agent.EventReasoning, Text: "thinking about it"},
		agent.Event{Type: agent.EventText, Text: "The answer is forty"},
		agent.Event{Type: agent.EventRetry, Retry: &agent.RetryInfo{Attempt: 1, MaxAttempts: 4, Wait: time.Second, Reason: "connection dropped"}},
		agent.Event{Type: agent.EventReasoning, Text: "thinking again"},
		agent.Event{Type: agent.EventText, Text: "The answer is forty-two."},
		agent.Event{Type: agent.EventTurnEnded, Usage: &agent.Usage{}},
	)
	a.draw()
	text := screenText(s)
	if n := strings.Count(text, "The answer is forty"); n != 1 {
		t.Errorf("the answer appears %d times:\n%s", n, text)
	}
	if !strings.Contains(text, "The answer is forty-two.") || !strings.Contains(text, "connection dropped") {
		t.Errorf("screen lacks the retried answer or the retry notice:\n%s", text)
	}
	if strings.Contains(text, "thinking about it") {
		t.Errorf("the broken stream's reasoning is still shown:\n%s", text)
	}
}

// A hosted agent's own command shows as a command card and in the agent
// terminal tab, which it brings forward, not the shared terminal (it did
// not run there); its other calls show their titles.
func TestRouterHostedAgentCalls(t *testing.T) {
	a, s := newDrawnApp(t, Options{Root: "/proj"}, 120, 40)
	a.task.strip.Show(panes.Todo)
	handleAll(a,
		agent.Event{Type: agent.EventTurnStarted},
		ev(agent.EventToolCallStarted, "x1", "execute"),
		agent.Event{Type: agent.EventToolCallReady, ID: "x1", Name: "execute", Args: `{"command":"go test ./...","title":"Run the tests"}`},
		ev(agent.EventToolRunStarted, "x1", "execute"),
		agent.Event{Type: agent.EventToolOutput, ID: "x1", Text: "ok  pkg\n", Data: tools.Output{Text: "ok  pkg\n"}},
		agent.Event{Type: agent.EventToolRunEnded, ID: "x1", Result: "ok  pkg\n"},
		ev(agent.EventToolCallStarted, "s1", "search"),
		agent.Event{Type: agent.EventToolCallReady, ID: "s1", Name: "search", Args: `{"title":"Find the callers of Run"}`},
		agent.Event{Type: agent.EventToolRunEnded, ID: "s1", Result: "3 callers"},
	)
	if a.task.agentTerm == nil || a.task.strip.current() != tview.Primitive(a.task.agentTerm) {
		t.Errorf("a hosted agent's own command did not bring the agent terminal tab forward")
	}
	if !strings.Contains(a.task.agentTerm.Text(), "$ go test ./...\nok  pkg\n[done]") {
		t.Errorf("the agent terminal tab holds %q", a.task.agentTerm.Text())
	}
	a.draw()
	text := screenText(s)
	for _, want := range []string{"❯ $ go test ./...", "ok  pkg", "Find the callers of Run"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
}
