package agent

import (
	"context"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// With the shell sandboxed, a command runs without a dialog in ask mode;
// edits still ask, and a rule that asks or denies still wins.
func TestSandboxedCommandsDoNotAsk(t *testing.T) {
	for _, c := range []struct {
		name       string
		sandboxed  bool
		rule       func(*Options)
		asked, ran string
	}{
		{"sandboxed", true, nil, "w", "rwx"},
		{"not sandboxed", false, nil, "wx", "rwx"},
		{"ask rule", true, func(o *Options) { o.Config.Permissions.Ask = []string{"bash(echo:*)"} }, "wx", "rwx"},
		{"deny rule", true, func(o *Options) { o.Config.Permissions.Deny = []string{"bash(echo:*)"} }, "w", "rw"},
	} {
		t.Run(c.name, func(t *testing.T) {
			edits := []func(*Options){func(o *Options) { o.Sandboxed = func() bool { return c.sandboxed } }}
			if c.rule != nil {
				edits = append(edits, c.rule)
			}
			h := newHarness(t, llmtest.Script{Responses: threeKinds()}, ModeAsk, edits...)
			h.write("a.txt", "A")
			evs := runChecked(t, h, context.Background(), "go", func(ev Event) {
				if ev.Type == EventPermissionAsked {
					h.s.Approve(ev.ID, Answer{Decision: AllowOnce})
				}
			})
			asked, ran := "", ""
			o := outcomes(evs)
			for _, id := range []string{"r", "w", "x"} {
				if o[id].asked {
					asked += id
				}
				if o[id].ran {
					ran += id
				}
			}
			if asked != c.asked || ran != c.ran {
				t.Errorf("asked %q ran %q, want asked %q ran %q", asked, ran, c.asked, c.ran)
			}
		})
	}
}

// A command to run once outside the sandbox asks, whatever the sandbox,
// the allow rules and the session's grants say; headless, it is refused.
func TestOutsideTheSandboxAlwaysAsks(t *testing.T) {
	script := func() llmtest.Script {
		return llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{{ID: "o", Name: "bash", Arguments: `{"command":"echo out","outside_sandbox":true}`}}},
			{ToolCalls: []llmtest.ToolCall{{ID: "p", Name: "bash", Arguments: `{"command":"echo out","outside_sandbox":true}`}}},
			text("done"),
		}}
	}
	sandboxed := func(o *Options) {
		o.Sandboxed = func() bool { return true }
		o.Config.Permissions.Allow = []string{"bash(echo:*)"}
	}
	h := newHarness(t, script(), ModeAcceptEdits, sandboxed)
	evs := runChecked(t, h, context.Background(), "go", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			h.s.Approve(ev.ID, Answer{Decision: AllowSession})
		}
	})
	o := outcomes(evs)
	if !o["o"].asked || !o["o"].ran || !o["p"].asked || !o["p"].ran {
		t.Errorf("outside the sandbox: first %+v, second (after allow-session) %+v; both must ask", o["o"], o["p"])
	}
	h = newHarness(t, script(), ModeAsk, sandboxed, func(o *Options) { o.Interactive = false })
	evs = runChecked(t, h, context.Background(), "go", nil)
	if o := outcomes(evs); o["o"].ran {
		t.Errorf("headless ran a command outside the sandbox: %+v", o["o"])
	}
}
