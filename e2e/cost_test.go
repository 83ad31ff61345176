package e2e

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The status bar and /context show what the session has cost at the
// model's price (gpt-4o is in fawn's table: 900 prompt tokens at $2.50 and
// 12 out at $10 per million make $0.0024).
func TestStatusBarAndContextShowTheCost(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Forty-two.", Usage: &llmtest.Usage{PromptTokens: 900, CompletionTokens: 12}},
	}})
	tm := startIDE(t, srv, "", "--model", "gpt-4o")
	tm.prompt("what is the answer?")
	tm.WaitFor("Forty-two.", "idle", "↑900", "$0.0024")
	tm.prompt("/context")
	tm.WaitFor("Cost so far: $0.0024")
}

// A model fawn has no price for shows no cost, not $0.
func TestStatusBarShowsNoCostWithoutAPrice(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Forty-two.", Usage: &llmtest.Usage{PromptTokens: 900, CompletionTokens: 12}},
	}})
	tm := startIDE(t, srv, "")
	tm.prompt("what is the answer?")
	if s := tm.WaitFor("Forty-two.", "idle", "↑900"); strings.Contains(s, "$0") {
		t.Errorf("a cost is shown for a model without a price:\n%s", s)
	}
}

// --allowed-tools works in the IDE too: the command it allows runs without
// asking.
func TestAllowedToolsInTheIDE(t *testing.T) {
	project := t.TempDir()
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo made-by-echo"}`)}},
		{Text: "Made it."},
	}})
	tm := startIDE(t, srv, project, "--allowed-tools", "bash(echo:*)")
	tm.prompt("make it")
	s := tm.WaitFor("Made it.", "idle")
	if strings.Contains(s, "y allow once") {
		t.Errorf("the allowed command asked:\n%s", s)
	}
	reqs := srv.ChatRequests()
	if got := reqs[len(reqs)-1].Messages; !strings.Contains(string(got[len(got)-1].Content), "made-by-echo") {
		t.Errorf("the allowed command did not run: the model got %q", got[len(got)-1].Content)
	}
}
