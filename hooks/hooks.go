// Package hooks owns the user's hook commands: programs fawn runs on agent
// events, configured in Claude Code's shape under `hooks`:
//
//	hooks:
//	  PreToolUse:
//	    - matcher: "bash|text_editor"     # a regular expression on the tool name; "" or "*": all
//	      hooks:
//	        - {type: command, command: "./scripts/check.sh", timeout: 30}
//
// Events: PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart,
// PreCompact. A hook gets the event as JSON on stdin (session_id, cwd,
// hook_event_name, tool_name, tool_input, tool_response, prompt) and runs
// with the project as its directory, in the same environment as the
// agent's shell (no API keys). Exit 0 goes on (its stdout becomes context
// for the model on UserPromptSubmit and SessionStart); exit 2 blocks, its
// stderr the reason; any other code is a warning. A JSON object on stdout
// may say {"decision": "block"|"approve", "reason": "…"} and, for
// PreToolUse, give the tool's input to use instead ("updated_input", or
// Claude Code's hookSpecificOutput.updatedInput). A hook that outlives its
// timeout (default 60 s) is killed with its process group and everything
// below it, and reported; what a hook leaves running that still holds its
// stdout or stderr a second after it exits is killed too (a daemon it
// means to keep must write elsewhere).
//
// Whether a project's hooks may run at all is decided by the trust package:
// they are trust items, like any project file that runs a program.
//
// It imports only internal/proc; agent, config and ui import it.
package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/internal/proc"
)

// Events fawn runs hooks on.
var Events = []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "PreCompact"}

// DefaultTimeout bounds a hook without a timeout of its own.
const DefaultTimeout = 60 * time.Second

// Hook is one command.
type Hook struct {
	Command string
	Timeout time.Duration
}

// Group is a matcher and its hooks.
type Group struct {
	Matcher string
	re      *regexp.Regexp
	Hooks   []Hook
}

// Config is the hooks by event.
type Config map[string][]Group

// Parse reads the `hooks` value of the configuration.
func Parse(raw map[string]any) (Config, error) {
	cfg := Config{}
	var errs []error
	names := make([]string, 0, len(raw))
	for ev := range raw {
		names = append(names, ev)
	}
	sort.Strings(names)
	for _, name := range names {
		// Configuration keys may arrive lower-cased (viper): match the
		// event's name without regard to case.
		ev := ""
		for _, e := range Events {
			if strings.EqualFold(e, name) {
				ev = e
			}
		}
		if ev == "" {
			errs = append(errs, fmt.Errorf("hooks.%s: not an event (want one of %s)", name, strings.Join(Events, ", ")))
			continue
		}
		list, ok := raw[name].([]any)
		if !ok {
			errs = append(errs, fmt.Errorf("hooks.%s: a list of {matcher, hooks}", ev))
			continue
		}
		for i, g := range list {
			m, ok := g.(map[string]any)
			if !ok {
				errs = append(errs, fmt.Errorf("hooks.%s[%d]: a mapping with matcher and hooks", ev, i))
				continue
			}
			grp := Group{}
			grp.Matcher, _ = m["matcher"].(string)
			pat := grp.Matcher
			if pat == "" || pat == "*" {
				pat = ".*"
			}
			re, err := regexp.Compile("^(?:" + pat + ")$")
			if err != nil {
				errs = append(errs, fmt.Errorf("hooks.%s[%d].matcher: %v", ev, i, err))
				continue
			}
			grp.re = re
			hs, _ := m["hooks"].([]any)
			for j, h := range hs {
				hm, _ := h.(map[string]any)
				cmd, _ := hm["command"].(string)
				typ, _ := hm["type"].(string)
				if typ != "" && typ != "command" {
					errs = append(errs, fmt.Errorf("hooks.%s[%d].hooks[%d]: type %q is not supported (command)", ev, i, j, typ))
					continue
				}
				if strings.TrimSpace(cmd) == "" {
					errs = append(errs, fmt.Errorf("hooks.%s[%d].hooks[%d]: no command", ev, i, j))
					continue
				}
				hk := Hook{Command: cmd, Timeout: DefaultTimeout}
				switch t := hm["timeout"].(type) {
				case int:
					hk.Timeout = time.Duration(t) * time.Second
				case float64:
					hk.Timeout = time.Duration(t * float64(time.Second))
				}
				if hk.Timeout <= 0 {
					hk.Timeout = DefaultTimeout
				}
				grp.Hooks = append(grp.Hooks, hk)
			}
			if len(grp.Hooks) == 0 {
				errs = append(errs, fmt.Errorf("hooks.%s[%d]: no hooks", ev, i))
				continue
			}
			cfg[ev] = append(cfg[ev], grp)
		}
	}
	return cfg, errors.Join(errs...)
}

// Input is what a hook is told, as JSON on its stdin.
type Input struct {
	SessionID    string          `json:"session_id"`
	Cwd          string          `json:"cwd"`
	Event        string          `json:"hook_event_name"`
	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse *string         `json:"tool_response,omitempty"`
	Prompt       string          `json:"prompt,omitempty"`
	// StopHookActive is true when the agent goes on because a Stop hook
	// blocked its end before.
	StopHookActive bool `json:"stop_hook_active,omitempty"`
}

// Result is one hook's run.
type Result struct {
	Event, Command string
	Duration       time.Duration
	Exit           int
	// Block: the hook said no (exit 2 or decision block); Reason why.
	Block  bool
	Reason string
	// Approve: the hook allowed a tool call without asking.
	Approve bool
	// Output is stdout (not JSON) of a successful hook.
	Output string
	// UpdatedInput replaces a PreToolUse call's arguments.
	UpdatedInput json.RawMessage
	// Warning says what went wrong when the hook failed without blocking.
	Warning string
}

// Verdict words the result for the chat.
func (r Result) Verdict() string {
	switch {
	case r.Block:
		return "blocked: " + firstLine(r.Reason)
	case r.Warning != "":
		return "failed: " + firstLine(r.Warning)
	case r.Approve:
		return "approved"
	case len(r.UpdatedInput) > 0:
		return "changed the input"
	}
	return "ok"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// Runner runs the configured hooks.
type Runner struct {
	Config Config
	// Dir is the project (the hooks' working directory); Env their
	// environment.
	Dir string
	Env []string
}

// Has reports whether any hook is configured for event.
func (r *Runner) Has(event string) bool { return r != nil && len(r.Config[event]) > 0 }

// Run runs the hooks of event whose matcher matches tool ("" for events
// without a tool), one after the other, and returns their results. A hook
// that blocks ends the run.
func (r *Runner) Run(ctx context.Context, event, tool string, in Input) []Result {
	if r == nil {
		return nil
	}
	in.Event, in.Cwd = event, r.Dir
	stdin, _ := json.Marshal(in)
	var out []Result
	for _, g := range r.Config[event] {
		if tool != "" && !g.re.MatchString(tool) {
			continue
		}
		for _, h := range g.Hooks {
			res := r.run(ctx, event, h, stdin)
			out = append(out, res)
			if res.Block {
				return out
			}
		}
	}
	return out
}

// maxOutput bounds what is kept of a hook's stdout and stderr.
const maxOutput = 64 << 10

type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (r *Runner) run(ctx context.Context, event string, h Hook, stdin []byte) Result {
	res := Result{Event: event, Command: h.Command}
	tctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	// proc: the timeout or a cancellation ends the hook's process group and
	// whatever is below it; what the hook leaves holding its output when it
	// exits is ended too, and not waited for.
	cmd := proc.Command(tctx, "bash", "-c", h.Command)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr capped
	start := time.Now()
	err := proc.Run(cmd, &stdout, &stderr)
	if cmd.Process == nil {
		res.Warning = "could not start: " + err.Error()
		return res
	}
	switch {
	case err != nil && ctx.Err() != nil:
		res.Duration = time.Since(start)
		res.Warning = "cancelled"
		return res
	case err != nil && tctx.Err() != nil:
		res.Duration = time.Since(start)
		res.Warning = fmt.Sprintf("killed after its timeout of %s", h.Timeout)
		return res
	}
	res.Duration = time.Since(start)
	var ee *exec.ExitError
	switch {
	case err == nil:
		res.parse(stdout.String())
	case errors.As(err, &ee) && ee.ExitCode() == 2:
		res.Exit, res.Block = 2, true
		res.Reason = strings.TrimSpace(stderr.String())
		if res.Reason == "" {
			res.Reason = "the hook exited 2 without saying why"
		}
	case errors.As(err, &ee):
		res.Exit = ee.ExitCode()
		res.Warning = fmt.Sprintf("exit %d: %s", res.Exit, strings.TrimSpace(stderr.String()))
	default:
		res.Exit = -1
		res.Warning = err.Error()
	}
	return res
}

// parse reads a successful hook's stdout: a JSON decision, or text.
func (res *Result) parse(stdout string) {
	s := strings.TrimSpace(stdout)
	if !strings.HasPrefix(s, "{") {
		res.Output = s
		return
	}
	var v struct {
		Decision     string          `json:"decision"`
		Reason       string          `json:"reason"`
		UpdatedInput json.RawMessage `json:"updated_input"`
		Specific     struct {
			UpdatedInput json.RawMessage `json:"updatedInput"`
			Decision     string          `json:"permissionDecision"`
			Reason       string          `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
		Context string `json:"additionalContext"`
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		res.Output = s
		return
	}
	if v.Decision == "" {
		switch v.Specific.Decision {
		case "deny":
			v.Decision = "block"
		case "allow":
			v.Decision = "approve"
		}
		if v.Reason == "" {
			v.Reason = v.Specific.Reason
		}
	}
	switch v.Decision {
	case "block":
		res.Block = true
		res.Reason = v.Reason
		if res.Reason == "" {
			res.Reason = "the hook blocked it without saying why"
		}
	case "approve":
		res.Approve = true
	}
	res.UpdatedInput = v.UpdatedInput
	if len(res.UpdatedInput) == 0 {
		res.UpdatedInput = v.Specific.UpdatedInput
	}
	res.Output = v.Context
}
