package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// Headless in ask mode with allow [bash(echo:*)] and deny [bash(rm:*)]:
// echo runs, rm is refused by the rule, an unlisted command is refused
// with the rule that would allow it; in yolo, deny still holds; a rule
// never widens plan mode.
func TestPermissionRules(t *testing.T) {
	script := func() llmtest.Script {
		return llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{
				{ID: "c1", Name: "bash", Arguments: `{"command":"echo hi"}`},
				{ID: "c2", Name: "bash", Arguments: `{"command":"echo ok && rm -rf build"}`},
				{ID: "c3", Name: "bash", Arguments: `{"command":"go test ./..."}`},
			}},
			{Text: "Done."},
		}}
	}
	rulesOf := func(o *Options) {
		o.Interactive = false
		o.Config.Permissions.Allow = []string{"Bash(echo:*)"}
		o.Config.Permissions.Deny = []string{"bash(rm:*)"}
		o.Config.Permissions.RuleSources = map[string]string{"deny bash(rm:*)": "/team/.fawn/config.yaml:7"}
	}
	results := func(evs []Event) map[string]Event {
		out := map[string]Event{}
		for _, ev := range ofType(evs, EventToolRunEnded) {
			out[ev.ID] = ev
		}
		return out
	}
	notes := func(evs []Event) string {
		var b strings.Builder
		for _, ev := range ofType(evs, EventPermissionAnswered) {
			b.WriteString(ev.ID + ": " + ev.Answer.Decision.String() + " " + ev.Answer.Note + "\n")
		}
		return b.String()
	}

	h := newHarness(t, script(), ModeAsk, rulesOf)
	evs := h.run(context.Background(), "go", nil)
	r := results(evs)
	if r["c1"].IsError || !strings.Contains(r["c1"].Result, "hi") {
		t.Errorf("echo did not run: %+v", r["c1"])
	}
	if !r["c2"].IsError || !strings.Contains(r["c2"].Result, `permission rule "bash(rm:*)"`) {
		t.Errorf("rm in a compound command was not refused by the rule: %+v", r["c2"])
	}
	if !r["c3"].IsError {
		t.Errorf("an unlisted command ran headless in ask mode")
	}
	n := notes(evs)
	for _, want := range []string{
		"c1: allow allowed by the rule allow Bash(echo:*)",
		"c2: deny denied by the rule deny bash(rm:*) (/team/.fawn/config.yaml:7)",
		`c3: deny commands ask in ask mode, and nobody can answer in headless mode; allow it with the rule "bash(go test:*)" in permissions.allow`,
	} {
		if !strings.Contains(n, want) {
			t.Errorf("answers lack %q:\n%s", want, n)
		}
	}

	// Yolo honours deny.
	h = newHarness(t, script(), ModeYolo, rulesOf)
	r = results(h.run(context.Background(), "go", nil))
	if r["c1"].IsError || !r["c2"].IsError || r["c3"].IsError {
		t.Errorf("yolo: echo %v, rm %v, go test %v", r["c1"].IsError, r["c2"].IsError, r["c3"].IsError)
	}

	// Plan mode stays plan mode.
	h = newHarness(t, script(), ModePlan, rulesOf)
	r = results(h.run(context.Background(), "go", nil))
	if !r["c1"].IsError || !strings.Contains(r["c1"].Result, "plan mode") {
		t.Errorf("an allow rule widened plan mode: %+v", r["c1"])
	}
}

// An ask rule asks even where the mode or a session grant would not.
func TestAskRuleAsks(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Arguments: `{"path":"go.mod","content":"module x\n"}`}}},
		{Text: "Done."},
	}}, ModeAcceptEdits, func(o *Options) { o.Config.Permissions.Ask = []string{"Write(go.mod)"} })
	asked := false
	h.run(context.Background(), "go", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			asked = true
			if !strings.Contains(ev.Permission.Reason, "the rule ask Write(go.mod)") {
				t.Errorf("reason %q", ev.Permission.Reason)
			}
			h.s.Approve(ev.ID, Answer{Decision: AllowOnce})
		}
	})
	if !asked {
		t.Error("accept-edits did not ask for an edit an ask rule names")
	}
}
