package serve

import (
	"strconv"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
)

// The permission options fawn offers, by ID. fawn's rules and mode have
// been applied before a request gets here: only a call they leave to the
// user is asked about.
const (
	optAllow        = "allow"
	optAllowSession = "allow-session"
	optAllowAlways  = "allow-always"
	optReject       = "reject"
	optAnswer       = "answer-" // + the option's index, for ask_user
)

// permissionRequest is the session/request_permission of a fawn ask: a
// tool call to allow or deny, or ask_user's question, whose options are
// the answers.
func permissionRequest(sid acp.SessionId, ev agent.Event, kind acp.ToolKind) acp.RequestPermissionRequest {
	p := ev.Permission
	tc := acp.ToolCallUpdate{ToolCallId: acp.ToolCallId(ev.ID), Kind: acp.Ptr(kind), Status: acp.Ptr(acp.ToolCallStatusPending)}
	if q := p.Question; q != nil {
		tc.Title = acp.Ptr(title(p.Agent, q.Text))
		opts := make([]acp.PermissionOption, 0, len(q.Options)+1)
		for i, o := range q.Options {
			opts = append(opts, acp.PermissionOption{Kind: acp.PermissionOptionKindAllowOnce, Name: o, OptionId: acp.PermissionOptionId(optAnswer + strconv.Itoa(i))})
		}
		opts = append(opts, acp.PermissionOption{Kind: acp.PermissionOptionKindRejectOnce, Name: "Do not answer", OptionId: optReject})
		return acp.RequestPermissionRequest{SessionId: sid, ToolCall: tc, Options: opts}
	}
	if p.Plan != "" {
		// exit_plan: the plan is the content; the answers are the plan
		// dialog's (agent.PlanApproveAcceptEdits is AllowSession,
		// PlanApproveAsk AllowOnce).
		tc.Title = acp.Ptr(title(p.Agent, "Approve the plan"))
		tc.Content = []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(clip(p.Plan, maxLiveOutput)))}
		return acp.RequestPermissionRequest{SessionId: sid, ToolCall: tc, Options: []acp.PermissionOption{
			{Kind: acp.PermissionOptionKindAllowAlways, Name: "Approve; edits run without asking", OptionId: optAllowSession},
			{Kind: acp.PermissionOptionKindAllowOnce, Name: "Approve; ask before edits", OptionId: optAllow},
			{Kind: acp.PermissionOptionKindRejectOnce, Name: "Keep planning", OptionId: optReject},
		}}
	}
	a := p.Action
	tc.Title = acp.Ptr(title(p.Agent, a.Summary))
	if a.Path != "" {
		tc.Locations = []acp.ToolCallLocation{{Path: a.Path}}
	}
	why := "fawn asks because " + p.Reason + "."
	if a.Diff != "" {
		why += "\n\n```diff\n" + strings.TrimRight(clip(a.Diff, maxLiveOutput), "\n") + "\n```"
	}
	tc.Content = []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(why))}
	opts := []acp.PermissionOption{{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: optAllow}}
	// A protected path asks every time: nothing that would remember the
	// answer is offered for it.
	if a.Protected == "" {
		opts = append(opts,
			acp.PermissionOption{Kind: acp.PermissionOptionKindAllowAlways, Name: "Allow " + sessionGrant(a) + " for this session", OptionId: optAllowSession},
			acp.PermissionOption{Kind: acp.PermissionOptionKindAllowAlways, Name: "Always allow (adds a permission rule)", OptionId: optAllowAlways})
	}
	opts = append(opts, acp.PermissionOption{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: optReject})
	return acp.RequestPermissionRequest{SessionId: sid, ToolCall: tc, Options: opts}
}

// sessionGrant says what "for this session" allows: the exact command, the
// one file, or the tool (as the agent's grants are kept).
func sessionGrant(a tools.Action) string {
	switch a.Kind {
	case tools.KindExec:
		return "this exact command"
	case tools.KindEdit:
		return "edits to this file"
	}
	return "this tool"
}

// answerOf is fawn's answer to the client's choice. A cancelled request
// (the turn was cancelled) is a denial: the turn is ending anyway.
func answerOf(p *agent.PermissionRequest, out acp.RequestPermissionOutcome) agent.Answer {
	if out.Selected == nil {
		return agent.Answer{Decision: agent.Deny, Note: "cancelled"}
	}
	id := string(out.Selected.OptionId)
	switch id {
	case optAllow:
		return agent.Answer{Decision: agent.AllowOnce}
	case optAllowSession:
		return agent.Answer{Decision: agent.AllowSession}
	case optAllowAlways:
		return agent.Answer{Decision: agent.AllowAlways}
	}
	if n, ok := strings.CutPrefix(id, optAnswer); ok && p.Question != nil {
		if i, err := strconv.Atoi(n); err == nil && i >= 0 && i < len(p.Question.Options) {
			return agent.Answer{Decision: agent.AllowOnce, Note: p.Question.Options[i]}
		}
	}
	return agent.Answer{Decision: agent.Deny}
}
