package serve

import (
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
)

func optionIDs(req acp.RequestPermissionRequest) string {
	var ids []string
	for _, o := range req.Options {
		ids = append(ids, string(o.OptionId))
	}
	return strings.Join(ids, " ")
}

// A protected path asks every time: no option that would remember the
// answer is offered; the planned diff is shown with the request.
func TestPermissionRequestOfAProtectedEdit(t *testing.T) {
	act := tools.Action{Kind: tools.KindEdit, Summary: "Edit .git/config", Path: "/p/.git/config", Diff: "-a\n+b\n", Protected: "git's own configuration"}
	req := permissionRequest("s", agent.Event{ID: "e", Permission: &agent.PermissionRequest{ID: "e", Tool: "text_editor", Action: act, Reason: "this edit always asks"}}, acp.ToolKindEdit)
	if got := optionIDs(req); got != "allow reject" {
		t.Errorf("options %q, want allow and reject only", got)
	}
	text := req.ToolCall.Content[0].Content.Content.Text.Text
	if !strings.Contains(text, "this edit always asks") || !strings.Contains(text, "```diff\n-a\n+b\n```") {
		t.Errorf("content %q", text)
	}
	if len(req.ToolCall.Locations) != 1 || req.ToolCall.Locations[0].Path != "/p/.git/config" {
		t.Errorf("locations %+v", req.ToolCall.Locations)
	}
}

func TestAnswerOf(t *testing.T) {
	p := &agent.PermissionRequest{Question: &agent.Question{Text: "?", Options: []string{"a", "b"}}}
	for _, c := range []struct {
		out  acp.RequestPermissionOutcome
		want agent.Answer
	}{
		{acp.NewRequestPermissionOutcomeSelected(optAllow), agent.Answer{Decision: agent.AllowOnce}},
		{acp.NewRequestPermissionOutcomeSelected(optAllowSession), agent.Answer{Decision: agent.AllowSession}},
		{acp.NewRequestPermissionOutcomeSelected(optAllowAlways), agent.Answer{Decision: agent.AllowAlways}},
		{acp.NewRequestPermissionOutcomeSelected(optReject), agent.Answer{Decision: agent.Deny}},
		{acp.NewRequestPermissionOutcomeSelected("answer-1"), agent.Answer{Decision: agent.AllowOnce, Note: "b"}},
		{acp.NewRequestPermissionOutcomeSelected("answer-7"), agent.Answer{Decision: agent.Deny}},
		{acp.NewRequestPermissionOutcomeSelected("something else"), agent.Answer{Decision: agent.Deny}},
		{acp.NewRequestPermissionOutcomeCancelled(), agent.Answer{Decision: agent.Deny, Note: "cancelled"}},
	} {
		if got := answerOf(p, c.out); got != c.want {
			t.Errorf("%+v: got %+v, want %+v", c.out, got, c.want)
		}
	}
}

// exit_plan's plan reaches an ACP client as a permission request carrying
// the plan, with the plan dialog's three answers.
func TestPermissionRequestOfAPlan(t *testing.T) {
	p := &agent.PermissionRequest{ID: "e", Tool: tools.ExitPlanName, Plan: "1. Do this\n2. Then that"}
	req := permissionRequest("s", agent.Event{ID: "e", Permission: p}, acp.ToolKindThink)
	if got := optionIDs(req); got != "allow-session allow reject" {
		t.Errorf("options %q", got)
	}
	if text := req.ToolCall.Content[0].Content.Content.Text.Text; text != p.Plan {
		t.Errorf("content %q", text)
	}
	for id, want := range map[string]agent.Decision{optAllowSession: agent.PlanApproveAcceptEdits, optAllow: agent.PlanApproveAsk, optReject: agent.PlanKeepPlanning} {
		if got := answerOf(p, acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(id))); got.Decision != want {
			t.Errorf("%s: %v, want %v", id, got.Decision, want)
		}
	}
}
