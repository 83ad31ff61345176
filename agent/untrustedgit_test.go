package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/rules"
	"github.com/fawn-ide/fawn/trust"
)

// TestUntrustedGitAsks: with allow [bash(git status)], git status in a
// project that is not trusted is not let through by the rule: headless it
// is refused, and the note and the model's result say that git reads the
// repository's own configuration; in the IDE the dialog's reason says it.
// Trusted, the rule allows it as before.
func TestUntrustedGitAsks(t *testing.T) {
	script := func() llmtest.Script {
		return llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"git status"}`}}},
			{Text: "Done."},
		}}
	}
	for _, c := range []struct {
		name        string
		trust       func(root string) *trust.Decision
		interactive bool
	}{
		{"untrusted", func(string) *trust.Decision { return nil }, false},
		{"declined", func(root string) *trust.Decision {
			return trust.Deny(root, []trust.Item{{Kind: trust.KindHook, Name: "x", Detail: "true"}}, trust.Untrusted)
		}, false},
		{"untrusted IDE", func(string) *trust.Decision { return nil }, true},
		{"trusted", func(root string) *trust.Decision { return trust.Allow(root, nil, trust.NothingToTrust, "") }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, script(), ModeAsk, func(o *Options) {
				o.Interactive = c.interactive
				o.Config.Permissions.Allow = []string{"bash(git status)"}
				o.Trust = c.trust(o.Env.Root)
			})
			var asked []string
			var note string
			h.run(context.Background(), "go", func(ev Event) {
				switch ev.Type {
				case EventPermissionAsked:
					asked = append(asked, ev.Permission.Reason)
					h.s.Approve(ev.ID, Answer{Decision: Deny})
				case EventPermissionAnswered:
					note = ev.Answer.Note
				}
			})
			result := toolResultOf(h.srv.ChatRequests()[1], "c1")
			switch {
			case c.name == "trusted":
				if len(asked) > 0 || !strings.Contains(note, "allowed by the rule allow bash(git status)") {
					t.Errorf("trusted: asked %v, note %q", asked, note)
				}
			case c.interactive:
				if len(asked) != 1 || !strings.Contains(asked[0], rules.UntrustedGit) {
					t.Errorf("the dialog's reason does not say why: %q", asked)
				}
			default:
				if !strings.Contains(note, rules.UntrustedGit) || !strings.Contains(note, "--trust") {
					t.Errorf("headless note: %q", note)
				}
				if !strings.Contains(result, "denied") || !strings.Contains(result, rules.UntrustedGit) {
					t.Errorf("the model is not told why: %q", result)
				}
			}
		})
	}
}
