package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

func hookCfg(event, command string) map[string]any {
	return map[string]any{event: []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}}}
}

// UserPromptSubmit: stdout becomes context for the model; exit 2 keeps the
// prompt from being sent. Stop: exit 2 makes the agent go on once with the
// reason. SessionStart: its stdout reaches the first prompt only.
func TestPromptStopAndSessionHooks(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "One."}, {Text: "Two."}}}, ModeYolo, func(o *Options) {
		o.Config.Hooks = hookCfg("UserPromptSubmit", `in=$(cat); case "$in" in *forbidden*) echo "not that" >&2; exit 2;; esac; echo "branch: main"`)
		o.Config.Hooks["SessionStart"] = hookCfg("SessionStart", "echo started-context")["SessionStart"]
	})
	h.run(context.Background(), "hello", nil)
	evs := h.run(context.Background(), "something forbidden", nil)
	if end := last(evs); end.Err == nil || !strings.Contains(end.Err.Error(), "blocked the prompt") || !strings.Contains(end.Err.Error(), "not that") {
		t.Errorf("the prompt was not blocked: %v", end.Err)
	}
	h.run(context.Background(), "again", nil)
	reqs := h.srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests (the blocked prompt must send none)", len(reqs))
	}
	first, second := nonSystem(reqs[0]), nonSystem(reqs[1])
	if c := string(first[0].Content); !strings.Contains(c, "hello") || !strings.Contains(c, "branch: main") || !strings.Contains(c, "started-context") {
		t.Errorf("first prompt: %q", c)
	}
	if c := string(second[len(second)-1].Content); !strings.Contains(c, "branch: main") || strings.Contains(c, "started-context") {
		t.Errorf("later prompt: %q", c)
	}

	// Stop.
	h = newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "Finished."}, {Text: "Ran the tests too."}}}, ModeYolo, func(o *Options) {
		o.Config.Hooks = hookCfg("Stop", `in=$(cat); case "$in" in *stop_hook_active*) exit 0;; esac; echo "run the tests first" >&2; exit 2`)
	})
	evs = h.run(context.Background(), "do it", nil)
	if end := last(evs); end.Err != nil {
		t.Fatalf("turn: %v", end.Err)
	}
	reqs = h.srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("the agent did not go on after the Stop hook: %d requests", len(reqs))
	}
	msgs := nonSystem(reqs[1])
	if c := string(msgs[len(msgs)-1].Content); !strings.Contains(c, "run the tests first") {
		t.Errorf("the reason did not reach the model: %q", c)
	}
	if n := len(ofType(evs, EventHook)); n != 2 {
		t.Errorf("%d hook events, want 2", n)
	}
}
