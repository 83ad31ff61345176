package host

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/rules"
	"github.com/fawn-ide/fawn/tools"
)

// grant is what "allow for the session" allowed: a command, a file, or a
// kind of call.
type grant struct{ tool, command, path string }

// ruling is what fawn's rules and mode say of a request before anyone is
// asked: an answer, or a reason to ask.
type ruling struct {
	answer *agent.Answer // nil: ask
	reason string        // why it asks
	call   rules.Call
}

// rule decides a call by the permission rules and mode, as fawn's own
// agent does: deny rules hold in every mode; reads pass; yolo allows; plan
// refuses edits and commands; an allow rule, accept-edits (for an edit that
// is not protected) and a session grant allow; anything else asks.
func (h *Host) rule(name string, act tools.Action) ruling {
	call := h.ruleCall(name, act)
	h.mu.Lock()
	set, mode := h.rules, h.mode
	h.mu.Unlock()
	v := set.Check(call)
	r := ruling{call: call}
	if v.Effect == rules.Deny {
		r.answer = &agent.Answer{Decision: agent.Deny, Auto: true, Note: "denied by the rule deny " + v.Rule.Raw + ruleFrom(v.Rule)}
		return r
	}
	if act.Kind == tools.KindRead {
		r.answer = &agent.Answer{Decision: agent.AllowOnce, Auto: true}
		return r
	}
	what := "commands"
	if act.Kind == tools.KindEdit {
		what = "edits"
	}
	protected := act.Kind == tools.KindEdit && act.Protected != ""
	switch {
	case mode == agent.ModeYolo:
		r.answer = &agent.Answer{Decision: agent.AllowOnce, Auto: true}
		return r
	case mode == agent.ModePlan:
		r.answer = &agent.Answer{Decision: agent.Deny, Auto: true, Note: "plan mode: " + what + " are refused"}
		return r
	case v.Effect == rules.Allow && !protected:
		r.answer = &agent.Answer{Decision: agent.AllowOnce, Auto: true, Note: "allowed by the rule allow " + v.Rule.Raw + ruleFrom(v.Rule)}
		return r
	case v.Effect == rules.Ask:
	case mode == agent.ModeAcceptEdits && act.Kind == tools.KindEdit && !protected:
		r.answer = &agent.Answer{Decision: agent.AllowOnce, Auto: true}
		return r
	}
	h.mu.Lock()
	granted := h.grants[grantFor(name, act)]
	h.mu.Unlock()
	if granted && !protected && v.Effect != rules.Ask {
		r.answer = &agent.Answer{Decision: agent.AllowSession, Auto: true}
		return r
	}
	r.reason = fmt.Sprintf("%s ask in %s mode", what, mode)
	switch {
	case protected:
		r.reason = "this edit always asks: " + act.Protected
	case v.Effect == rules.Ask:
		r.reason = "the rule ask " + v.Rule.Raw + ruleFrom(v.Rule) + " asks for it"
	case v.Caution != "":
		r.reason = "this command always asks: " + v.Caution
	}
	if !h.opts.Interactive {
		r.answer = &agent.Answer{Decision: agent.Deny, Auto: true, Note: fmt.Sprintf(
			"%s, and nobody can answer in headless mode; allow it with the rule %q in permissions.allow of your config, or with --permission-mode (accept-edits, yolo)",
			r.reason, rules.Suggest(call))}
	}
	return r
}

// ruleCall is what the rules see of a call: a hosted agent's command is
// matched as a bash line, its edits and reads as text_editor's.
func (h *Host) ruleCall(name string, act tools.Action) rules.Call {
	tool := name
	switch act.Kind {
	case tools.KindExec:
		tool = "bash"
	case tools.KindEdit, tools.KindRead:
		if name == nameEditor || act.Path != "" {
			tool = nameEditor
		}
	}
	c := rules.Call{Tool: tool, Edit: act.Kind == tools.KindEdit, Read: act.Kind == tools.KindRead, Exec: act.Kind == tools.KindExec,
		Command: act.Command, Untrusted: !h.opts.Trusted}
	if act.Path != "" {
		if rel, err := filepath.Rel(h.opts.Root, act.Path); err == nil && !strings.HasPrefix(rel, "..") {
			c.Path = filepath.ToSlash(rel)
		}
	}
	return c
}

func grantFor(name string, a tools.Action) grant {
	switch a.Kind {
	case tools.KindEdit:
		return grant{tool: nameEditor, path: a.Path}
	case tools.KindExec:
		return grant{tool: "bash", command: a.Command}
	}
	return grant{tool: name}
}

func ruleFrom(r *rules.Rule) string {
	if r.Source == "" {
		return ""
	}
	return " (" + r.Source + ")"
}

// permit decides call id (named name, doing act) by the rules and mode,
// asking the user when they leave it open; the answer is emitted. ok is
// false when the turn was cancelled (or ended) before an answer.
func (h *Host) permit(ctx context.Context, t *turn, id, name string, act tools.Action) (a agent.Answer, ok bool) {
	r := h.rule(name, act)
	if r.answer == nil {
		req := agent.PermissionRequest{ID: id, Tool: name, Action: act, Reason: r.reason}
		ch := make(chan agent.Answer, 1)
		h.mu.Lock()
		h.asks[id] = ch
		h.mu.Unlock()
		t.mu.Lock()
		t.emit(agent.Event{Type: agent.EventPermissionAsked, ID: id, Name: name, Action: &req.Action, Permission: &req})
		t.mu.Unlock()
		select {
		case a = <-ch:
		case <-t.cancelled:
		case <-ctx.Done():
		}
		h.mu.Lock()
		delete(h.asks, id)
		h.mu.Unlock()
		if t.isCancelled() || ctx.Err() != nil {
			a = agent.Answer{Decision: agent.Deny, Auto: true, Note: "cancelled by the user"}
			t.mu.Lock()
			t.emit(agent.Event{Type: agent.EventPermissionAnswered, ID: id, Name: name, Answer: &a})
			t.mu.Unlock()
			return a, false
		}
		h.remember(t, r.call, name, act, a)
	} else {
		a = *r.answer
	}
	t.mu.Lock()
	t.emit(agent.Event{Type: agent.EventPermissionAnswered, ID: id, Name: name, Answer: &a})
	if a.Decision != agent.Deny && act.Kind == tools.KindEdit {
		if c := t.calls[id]; c != nil {
			for _, p := range c.paths {
				t.approved[p] = true
			}
		}
		if act.Path != "" {
			t.approved[act.Path] = true
		}
	}
	t.mu.Unlock()
	return a, true
}

// remember keeps what an answer allows beyond this call: the session's
// grant, or the rule of "allow always" (saved where SaveRule keeps it).
func (h *Host) remember(t *turn, call rules.Call, name string, act tools.Action, a agent.Answer) {
	protected := act.Kind == tools.KindEdit && act.Protected != ""
	if protected {
		return
	}
	switch a.Decision {
	case agent.AllowSession:
		h.mu.Lock()
		h.grants[grantFor(name, act)] = true
		h.mu.Unlock()
	case agent.AllowAlways:
		raw := rules.Suggest(call)
		where := "this session"
		if h.opts.SaveRule != nil {
			if w, err := h.opts.SaveRule("allow", raw); err == nil {
				where = w
			} else {
				t.mu.Lock()
				t.emit(agent.Event{Type: agent.EventError, Err: fmt.Errorf("the rule allow %s holds for this session only: it could not be saved: %w", raw, err)})
				t.mu.Unlock()
			}
		}
		if r, err := rules.Parse(raw, rules.Allow, where); err == nil {
			h.mu.Lock()
			h.rules = &rules.Set{Rules: append(append([]rules.Rule(nil), h.rules.Rules...), r)}
			h.mu.Unlock()
			t.mu.Lock()
			t.emit(agent.Event{Type: agent.EventInfo, Text: fmt.Sprintf("rule added: allow %s (%s)", raw, where)})
			t.mu.Unlock()
		}
	}
}

// requestPermission answers session/request_permission: the call is
// shown (announced if it was not), fawn's rules and mode answer where they
// speak, the user otherwise; a request while no turn runs, or once the turn
// is cancelled, is answered "cancelled".
func (h *Host) requestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	cancelled := acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}
	h.mu.Lock()
	t := h.turn
	h.mu.Unlock()
	if t == nil || t.isCancelled() {
		return cancelled, nil
	}
	id := string(p.ToolCall.ToolCallId)
	t.mu.Lock()
	t.apply(patchOfUpdate(p.ToolCall))
	c := t.calls[id]
	var name string
	var act tools.Action
	if c != nil {
		t.ready(c)
		name, act = c.name, c.action(h)
	}
	t.mu.Unlock()
	if c == nil {
		// No call ID: a request of its own.
		h.mu.Lock()
		h.seq++
		id = fmt.Sprintf("ask-%d", h.seq)
		h.mu.Unlock()
		name, act = string(acp.ToolKindOther), tools.Action{Kind: tools.KindOther, Summary: "the agent asks for permission"}
	}
	a, ok := h.permit(ctx, t, id, name, act)
	if !ok {
		return cancelled, nil
	}
	if opt, found := pickOption(p.Options, a.Decision); found {
		return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Selected: &acp.RequestPermissionOutcomeSelected{OptionId: opt, Outcome: "selected"}}}, nil
	}
	// A refusal the agent gave no option for: as good as cancelled.
	return cancelled, nil
}

// pickOption is the agent's option that says what d says: the "once" kind
// first for a single call, the "always" kind for a session or lasting
// answer, the other where only that one is offered.
func pickOption(opts []acp.PermissionOption, d agent.Decision) (acp.PermissionOptionId, bool) {
	var want []acp.PermissionOptionKind
	switch d {
	case agent.Deny:
		want = []acp.PermissionOptionKind{acp.PermissionOptionKindRejectOnce, acp.PermissionOptionKindRejectAlways}
	case agent.AllowOnce:
		want = []acp.PermissionOptionKind{acp.PermissionOptionKindAllowOnce, acp.PermissionOptionKindAllowAlways}
	default:
		want = []acp.PermissionOptionKind{acp.PermissionOptionKindAllowAlways, acp.PermissionOptionKindAllowOnce}
	}
	for _, k := range want {
		for _, o := range opts {
			if o.Kind == k {
				return o.OptionId, true
			}
		}
	}
	return "", false
}
