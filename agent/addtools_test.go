package agent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

// Tools that arrive after the session started (MCP servers still starting
// when the IDE opened) are offered to the model from the next turn on.
func TestAddToolsBindsThemAtTheNextTurn(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "first"},
		{Text: "Using the late tool.", ToolCalls: []llmtest.ToolCall{{Name: "late_echo", Arguments: `{"path":"x"}`}}},
		{Text: "done"},
	}}, ModeYolo)
	h.run(context.Background(), "one", nil)

	late := &testTool{
		name:   "late_echo",
		params: readFileTool(h.root).(*testTool).params,
		plan: func(map[string]any) (tools.Action, error) {
			return tools.Action{Kind: tools.KindRead, Summary: "echo"}, nil
		},
		run: func(_ context.Context, m map[string]any) (string, error) { return "echo " + str(m, "path"), nil },
	}
	if err := h.s.AddTools(late); err != nil {
		t.Fatal(err)
	}
	if err := h.s.AddTools(late); err == nil || !strings.Contains(err.Error(), "two tools") {
		t.Errorf("a second tool of the same name was accepted: %v", err)
	}
	evs := h.run(context.Background(), "two", nil)
	ends := ofType(evs, EventToolRunEnded)
	if len(ends) != 1 || ends[0].IsError || ends[0].Result != "echo x" {
		t.Fatalf("late tool result: %+v\n%s", ends, render(evs))
	}
	if !slices.Contains(h.s.ToolNames(), "late_echo") {
		t.Errorf("ToolNames = %v", h.s.ToolNames())
	}
	reqs := h.srv.ChatRequests()
	has := func(r *llmtest.ChatRequest) bool {
		for _, tl := range r.Tools {
			if tl.Function.Name == "late_echo" {
				return true
			}
		}
		return false
	}
	if has(reqs[0]) || !has(reqs[1]) {
		t.Errorf("late_echo offered in requests: first %v, second %v", has(reqs[0]), has(reqs[1]))
	}
	if !strings.Contains(string(reqs[1].Messages[0].Content), "late_echo") {
		t.Errorf("the system prompt of the second turn does not list the late tool")
	}
}
