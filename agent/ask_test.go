package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// ask_user waits for the user's pick and returns it; a bad call and a
// refusal are results the model reads; headless it never waits.
func TestAskUser(t *testing.T) {
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_bad", Name: "ask_user", Arguments: `{"question":"Which?","options":["only one"]}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_q", Name: "ask_user", Arguments: `{"question":"Which database?","options":["SQLite","Postgres"]}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_q2", Name: "ask_user", Arguments: `{"question":"Go on?","options":["yes","no"]}`}}},
		{Text: "Using Postgres."},
	}}
	h := newHarness(t, script, ModeAsk, func(o *Options) { o.AskUser = true })
	var q *Question
	evs := h.run(context.Background(), "set up the db", func(ev Event) {
		if ev.Type != EventPermissionAsked {
			return
		}
		if ev.ID == "call_q" {
			q = ev.Permission.Question
			h.s.Approve(ev.ID, Answer{Decision: AllowOnce, Note: "Postgres"})
		} else {
			h.s.Approve(ev.ID, Answer{Decision: Deny})
		}
	})
	if end := last(evs); end.Err != nil {
		t.Fatal(end.Err)
	}
	if q == nil || q.Text != "Which database?" || strings.Join(q.Options, "|") != "SQLite|Postgres" {
		t.Errorf("the question asked: %+v", q)
	}
	final := h.srv.ChatRequests()[3]
	for id, want := range map[string]string{"call_bad": "2 to 6 options", "call_q": "The user answered: Postgres", "call_q2": "did not answer"} {
		if got := toolResultOf(final, id); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}

	hl := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_q", Name: "ask_user", Arguments: `{"question":"Which?","options":["a","b"]}`}}},
		{Text: "Chose a."},
	}}, ModeYolo, func(o *Options) { o.AskUser, o.Interactive = true, false })
	if end := last(hl.run(context.Background(), "go", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			t.Errorf("headless ask_user asked: %+v", ev)
		}
	})); end.Err != nil {
		t.Fatal(end.Err)
	}
	if got := toolResultOf(hl.srv.ChatRequests()[1], "call_q"); !strings.Contains(got, "no user can answer") || !strings.Contains(got, "yolo") {
		t.Errorf("headless: %q", got)
	}
}
