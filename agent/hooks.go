package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/rules"
	"github.com/fawn-ide/fawn/skills"
	"github.com/fawn-ide/fawn/tools"
)

// EventHook: a hook ran {Hook; ID and Name of the tool call for tool hooks}.
const EventHook EventType = "hook"

// newHooks reads the configured hooks (nil when there are none).
func newHooks(cfg *config.Config, root string, env []string) (*hooks.Runner, error) {
	if len(cfg.Hooks) == 0 {
		return nil, nil
	}
	hc, err := hooks.Parse(cfg.Hooks)
	if err != nil {
		return nil, err
	}
	if env == nil {
		env, _ = config.CleanEnv(os.Environ(), cfg.Shell)
	}
	return &hooks.Runner{Config: hc, Dir: root, Env: env}, nil
}

// HookLine words a hook's run for the chat.
func HookLine(ev Event) string { return hookLine(ev) }

// Hooks are the configured hooks (/hooks); nil when there are none.
func (s *Session) Hooks() hooks.Config {
	if s.hooks == nil {
		return nil
	}
	return s.hooks.Config
}

// runHooks runs event's hooks and shows each run.
func (s *Session) runHooks(ctx context.Context, t *turn, event, id, tool string, in hooks.Input) []hooks.Result {
	if !s.hooks.Has(event) {
		return nil
	}
	in.SessionID = s.ID()
	res := s.hooks.Run(ctx, event, tool, in)
	for i := range res {
		r := res[i]
		t.emit(Event{Type: EventHook, ID: id, Name: tool, Hook: &r})
	}
	return res
}

// blockedBy is the reason a hook blocked, or "".
func blockedBy(res []hooks.Result) string {
	for _, r := range res {
		if r.Block {
			return r.Reason
		}
	}
	return ""
}

// hookContext is what the hooks said for the model.
func hookContext(res []hooks.Result) string {
	var parts []string
	for _, r := range res {
		if !r.Block && strings.TrimSpace(r.Output) != "" {
			parts = append(parts, strings.TrimSpace(r.Output))
		}
	}
	return strings.Join(parts, "\n")
}

// preToolUse runs the PreToolUse hooks of a call: a block refuses it, an
// updated input replaces its arguments, an approval lets it through
// without asking (deny rules still hold).
func (s *Session) preToolUse(ctx context.Context, t *turn, id, name, args string) (newArgs string, approved bool, refused string) {
	res := s.runHooks(ctx, t, "PreToolUse", id, name, hooks.Input{ToolName: name, ToolInput: json.RawMessage(args)})
	if why := blockedBy(res); why != "" {
		return args, false, "error: blocked by a PreToolUse hook, so it was not run: " + why
	}
	for _, r := range res {
		if len(r.UpdatedInput) > 0 && json.Valid(r.UpdatedInput) {
			args = string(r.UpdatedInput)
		}
		approved = approved || r.Approve
	}
	return args, approved, ""
}

// postToolUse runs the PostToolUse hooks of a call that ran; what they say
// goes to the model with the result.
func (s *Session) postToolUse(ctx context.Context, t *turn, id, name, args, result string) string {
	res := s.runHooks(ctx, t, "PostToolUse", id, name, hooks.Input{ToolName: name, ToolInput: json.RawMessage(args), ToolResponse: &result})
	if why := blockedBy(res); why != "" {
		result += "\n[fawn: a PostToolUse hook says: " + why + "]"
	}
	if c := hookContext(res); c != "" {
		result += "\n[fawn: a PostToolUse hook adds: " + c + "]"
	}
	return result
}

// denyOnly is the permission check of a call a hook approved: only deny
// rules can still refuse it.
func (s *Session) denyOnly(t *turn, id, name string, act tools.Action) verdict {
	if eff, rule := s.ruleSet().Decide(s.ruleCall(name, act)); eff == rules.Deny {
		a := Answer{Decision: Deny, Auto: true, Note: "denied by the rule deny " + rule.Raw + ruleFrom(rule)}
		s.answered(t, id, name, a)
		return verdict{answer: &a, result: fmt.Sprintf("error: denied by the user's permission rule %q.", rule.Raw)}
	}
	a := Answer{Decision: AllowOnce, Auto: true, Note: "approved by a PreToolUse hook"}
	s.answered(t, id, name, a)
	return verdict{allow: true, answer: &a}
}

// stopHooks runs the Stop hooks when the agent is done; a block makes it
// go on once, with the reason as a message.
func (s *Session) stopHooks(ctx context.Context, t *turn, invoke func(*schema.Message) error) error {
	for round := 0; round < 2; round++ {
		why := blockedBy(s.runHooks(ctx, t, "Stop", "", "", hooks.Input{StopHookActive: round > 0}))
		if why == "" || ctx.Err() != nil {
			return nil
		}
		if round == 1 {
			t.emit(Event{Type: EventInfo, Text: "a Stop hook blocked the end again; the turn ends here: " + why})
			return nil
		}
		if err := invoke(schema.UserMessage("[fawn: a Stop hook does not let you finish yet: " + why + "]")); err != nil {
			return err
		}
		if t.err != nil || t.limitHit {
			return nil
		}
	}
	return nil
}

// Skills are the skills the system prompt names (/skills).
func (s *Session) Skills() []skills.Skill { return s.skills }
