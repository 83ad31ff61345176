package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

const testPlan = "Write the greeting.\n\n1. Create **hello.txt** with a greeting\n2. Check it\n"

// In plan mode an edit is refused with word of exit_plan; the plan sent
// back with a note is a result the model reads; approved with accept-edits,
// the mode changes, the steps become the to-do list, and the same turn
// goes on to edit without asking.
func TestExitPlanApprovedGoesOnInTheSameTurn(t *testing.T) {
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_edit", Name: "write_file", Arguments: `{"path":"hello.txt","content":"hi\n"}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_plan1", Name: "exit_plan", Arguments: `{"plan":"Just do it."}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_plan2", Name: "exit_plan", Arguments: `{"plan":` + jsonString(testPlan) + `}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_edit2", Name: "write_file", Arguments: `{"path":"hello.txt","content":"hi\n"}`}}},
		{Text: "Done."},
	}}
	h := newHarness(t, script, ModePlan, func(o *Options) { o.AskUser = true })
	var plans []string
	evs := h.run(context.Background(), "greet", func(ev Event) {
		if ev.Type != EventPermissionAsked {
			return
		}
		switch ev.ID {
		case "call_plan1":
			plans = append(plans, ev.Permission.Plan)
			h.s.Approve(ev.ID, Answer{Decision: PlanKeepPlanning, Note: "list the steps"})
		case "call_plan2":
			plans = append(plans, ev.Permission.Plan)
			h.s.Approve(ev.ID, Answer{Decision: PlanApproveAcceptEdits})
		default:
			t.Errorf("asked about %s (%s) after the plan was approved in accept-edits", ev.ID, ev.Name)
			h.s.Approve(ev.ID, Answer{Decision: Deny})
		}
	})
	if end := last(evs); end.Err != nil {
		t.Fatal(end.Err)
	}
	if len(plans) != 2 || plans[1] != strings.TrimSpace(testPlan) {
		t.Errorf("the plans shown: %q", plans)
	}
	if got := h.s.Mode(); got != ModeAcceptEdits {
		t.Errorf("the mode after approval: %s", got)
	}
	if b, err := os.ReadFile(filepath.Join(h.root, "hello.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("the approved plan was not carried out: %q %v", b, err)
	}
	todos := h.s.Todos()
	if len(todos) != 2 || todos[0].Title != "Create hello.txt with a greeting" || todos[1].Status != "pending" {
		t.Errorf("the to-dos: %+v", todos)
	}
	// A rewind reads the to-do list back from the conversation: the
	// approved plan's steps, not the plan sent back.
	if got := todosOf(h.s.History()); len(got) != 2 || got[1].Title != "Check it" {
		t.Errorf("the to-dos the conversation leaves: %+v", got)
	}
	back := []*schema.Message{
		schema.AssistantMessage("", []schema.ToolCall{{ID: "p", Function: schema.FunctionCall{Name: "exit_plan", Arguments: `{"plan":"1. One\n2. Two"}`}}}),
		schema.ToolMessage("The user did not approve the plan and wants you to keep planning.", "p"),
	}
	if got := todosOf(back); len(got) != 0 {
		t.Errorf("a plan sent back left to-dos: %+v", got)
	}
	final := h.srv.ChatRequests()[4]
	for id, want := range map[string]string{
		"call_edit":  "call exit_plan",
		"call_plan1": "Their note: list the steps",
		"call_plan2": "now in accept-edits mode",
	} {
		if got := toolResultOf(final, id); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	turns := 0
	for _, ev := range evs {
		if ev.Type == EventTurnStarted {
			turns++
		}
	}
	if turns != 1 {
		t.Errorf("%d turns; the plan should go on in the one it was made in", turns)
	}
	if sys := string(h.srv.ChatRequests()[0].Messages[0].Content); !strings.Contains(sys, "call exit_plan with your plan") {
		t.Errorf("the system prompt does not say how plan mode ends")
	}
}

// Outside plan mode exit_plan asks nothing and says so; headless in plan
// mode it asks nothing and tells the model to stop.
func TestExitPlanOutsidePlanModeAndHeadless(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_plan", Name: "exit_plan", Arguments: `{"plan":"1. x"}`}}},
		{Text: "Carrying on."},
	}}, ModeAsk, func(o *Options) { o.AskUser = true })
	h.run(context.Background(), "go", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			t.Errorf("exit_plan asked outside plan mode")
		}
	})
	if got := toolResultOf(h.srv.ChatRequests()[1], "call_plan"); !strings.Contains(got, "only for plan mode") {
		t.Errorf("outside plan mode: %q", got)
	}

	hl := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_plan", Name: "exit_plan", Arguments: `{"plan":"1. Rename x\n2. Test it"}`}}},
		{Text: "The plan is ready."},
	}}, ModePlan, func(o *Options) { o.AskUser, o.Interactive = true, false })
	var out, errb bytes.Buffer
	if code := RunHeadless(context.Background(), hl.s, "go", FormatText, &out, &errb); code != ExitOK {
		t.Fatalf("headless: exit %d: %s", code, errb.String())
	}
	if got := out.String(); got != "1. Rename x\n2. Test it\n\nThe plan is ready.\n" {
		t.Errorf("headless printed %q; want the plan, then the model's last words", got)
	}
	if got := toolResultOf(hl.srv.ChatRequests()[1], "call_plan"); !strings.Contains(got, "End your turn now") {
		t.Errorf("headless: %q", got)
	}
	if hl.s.Mode() != ModePlan {
		t.Errorf("headless left plan mode: %s", hl.s.Mode())
	}
	if got := tools.PlanTodos("Intro\n\n1. One\n2) **Two**\n   - a detail\n- Three\n"); len(got) != 3 || got[1].Title != "Two" || got[2].ID != "3" {
		t.Errorf("PlanTodos: %+v", got)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
