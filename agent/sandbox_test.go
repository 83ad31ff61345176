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
