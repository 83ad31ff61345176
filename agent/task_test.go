package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/subagent"
	"github.com/fawn-ide/fawn/tools"
)

func toolResultOf(r *llmtest.ChatRequest, id string) string {
	for _, m := range r.Messages {
		if m.Role == "tool" && m.ToolCallID == id {
			return string(m.Content)
		}
	}
	return ""
}

func toolNamesOf(r *llmtest.ChatRequest) []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

// A task call runs the subagent in a nested request: its system prompt is
// the definition's body, its tools the allow-list (never task or
// todo_write), its answer the task's result. Its edit asks like the main
// agent's, the request names the agent, and the answer given with the
// relayed ID reaches it. Its events come with the task's ID as prefix.
func TestTaskRunsASubagent(t *testing.T) {
	reviewer := subagent.Def{Name: "fixer", Description: "Fixes small bugs", Prompt: "You fix bugs. FIXER-PROMPT-MARKER", Tools: []string{"read_file", "write_file", "todo_write", "task"}, Scope: "project"}
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Handing it over.", ToolCalls: []llmtest.ToolCall{{ID: "call_task", Name: "task", Arguments: `{"description":"Fix main.go","prompt":"Fix the typo in main.go and say what you changed.","subagent_type":"fixer"}`}}},
		{Text: "Reading. ", ToolCalls: []llmtest.ToolCall{{ID: "call_r", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_w", Name: "write_file", Arguments: `{"path":"main.go","content":"package main\n"}`}}},
		{Text: "Fixed the typo: pakage → package in main.go:1. SUB-ANSWER-MARKER"},
		{Text: "The fixer fixed main.go."},
	}}, ModeAsk, func(o *Options) {
		o.Subagents = []subagent.Def{subagent.General, reviewer}
		o.Tools = append(o.Tools, tools.NewTodoWrite(&tools.Env{Root: t.TempDir()}))
	})
	h.write("main.go", "pakage main\n")
	var asked *PermissionRequest
	evs := h.run(context.Background(), "fix main.go", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			asked = ev.Permission
			h.s.Approve(ev.ID, Answer{Decision: AllowOnce})
		}
	})
	end := last(evs)
	if end.Err != nil {
		t.Fatal(end.Err)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "main.go")); string(b) != "package main\n" {
		t.Errorf("main.go = %q: the subagent's approved write did not happen", b)
	}
	if asked == nil || asked.Agent != "fixer" || asked.ID != "call_task/call_w" || asked.Tool != "write_file" {
		t.Errorf("the permission request: %+v", asked)
	}
	reqs := h.srv.ChatRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests", len(reqs))
	}
	sub := reqs[1]
	sys := string(sub.Messages[0].Content)
	if !strings.Contains(sys, "FIXER-PROMPT-MARKER") || strings.Contains(sys, "You are fawn") || !strings.Contains(sys, h.root) {
		t.Errorf("the subagent's system prompt:\n%s", sys)
	}
	if len(sub.Messages) != 2 || string(sub.Messages[1].Content) != "Fix the typo in main.go and say what you changed." {
		t.Errorf("the subagent's request knows more than its task: %+v", sub.Messages)
	}
	if got := strings.Join(toolNamesOf(sub), ","); got != "read_file,write_file" {
		t.Errorf("the subagent's tools: %s", got)
	}
	if got := strings.Join(toolNamesOf(reqs[0]), ","); !strings.Contains(got, "task") {
		t.Errorf("the main agent's tools lack task: %s", got)
	}
	if got := toolResultOf(reqs[4], "call_task"); !strings.Contains(got, "SUB-ANSWER-MARKER") || strings.Contains(got, "Reading.") {
		t.Errorf("the task's result is %q, want the subagent's final answer", got)
	}
	if len(reqs[4].Messages) != 4 { // system, user, assistant+task, tool: nothing of the subagent's
		t.Errorf("the main conversation holds %d messages: %+v", len(reqs[4].Messages), reqs[4].Messages)
	}

	var sawRead, sawWords bool
	var usage *SubagentUsage
	for _, ev := range evs {
		switch {
		case ev.Type == EventToolRunEnded && ev.ID == "call_task/call_r":
			sawRead = ev.Agent == "fixer" && ev.Parent == "call_task" && ev.Result == "pakage main\n"
		case ev.Type == EventToolOutput && ev.ID == "call_task" && strings.Contains(ev.Text, "Reading"):
			sawWords = true
		case ev.Type == EventToolUpdate && ev.ID == "call_task":
			if u, ok := ev.Data.(SubagentUsage); ok {
				usage = &u
			}
		}
	}
	if !sawRead || !sawWords {
		t.Errorf("relayed events: read %v, words %v:\n%s", sawRead, sawWords, render(evs))
	}
	if usage == nil || usage.Agent != "fixer" || usage.Usage.Steps != 3 || usage.Usage.ToolCalls != 2 {
		t.Errorf("subagent usage: %+v", usage)
	}
	if end.Usage.Steps != 5 || end.Usage.ToolCalls != 3 {
		t.Errorf("the turn's usage counts the subagent's steps and calls in: %+v", end.Usage)
	}
}

// Two task calls in one response run at once: each subagent calls a tool
// that returns only when both are inside it.
func TestParallelTasks(t *testing.T) {
	var mu sync.Mutex
	inside, both := 0, make(chan struct{})
	meet := &testTool{
		name:   "meet",
		params: map[string]*schema.ParameterInfo{},
		plan: func(map[string]any) (tools.Action, error) {
			return tools.Action{Kind: tools.KindRead, Summary: "meet"}, nil
		},
		run: func(ctx context.Context, _ map[string]any) (string, error) {
			mu.Lock()
			if inside++; inside == 2 {
				close(both)
			}
			mu.Unlock()
			select {
			case <-both:
				return "met", nil
			case <-time.After(deadline / 2):
				return "", errors.New("the other subagent never came: the tasks ran one after the other")
			case <-ctx.Done():
				return "", ctx.Err()
			}
		},
	}
	task := func(id, what string) llmtest.ToolCall {
		return llmtest.ToolCall{ID: id, Name: "task", Arguments: fmt.Sprintf(`{"description":%q,"prompt":"Call meet, then answer."}`, what)}
	}
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{task("call_a", "first"), task("call_b", "second")}},
		{ToolCalls: []llmtest.ToolCall{{Name: "meet", Arguments: `{}`}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "meet", Arguments: `{}`}}},
		{Text: "done one"},
		{Text: "done two"},
		{Text: "Both finished."},
	}}, ModeAsk, func(o *Options) {
		o.Subagents = []subagent.Def{subagent.General}
		o.Tools = append(o.Tools, meet)
	})
	evs := h.run(context.Background(), "do two things", nil)
	if end := last(evs); end.Err != nil {
		t.Fatal(end.Err)
	}
	reqs := h.srv.ChatRequests()
	final := reqs[len(reqs)-1]
	a, b := toolResultOf(final, "call_a"), toolResultOf(final, "call_b")
	if !strings.HasPrefix(a, "done") || !strings.HasPrefix(b, "done") || a == b {
		t.Errorf("task results %q and %q", a, b)
	}
	for _, ev := range evs {
		if ev.Type == EventToolRunEnded && ev.Name == "meet" && ev.IsError {
			t.Errorf("%s: %s", ev.ID, ev.Result)
		}
	}
}

// Esc (the turn's context) cancels the subagent with the turn, and an
// unknown agent is an error the model reads.
func TestTaskCancelAndUnknownAgent(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_x", Name: "task", Arguments: `{"description":"x","prompt":"p","subagent_type":"nobody"}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_t", Name: "task", Arguments: `{"description":"sleep","prompt":"sleep"}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_s", Name: "bash", Arguments: `{"command":"sleep 30"}`}}},
	}}, ModeYolo, func(o *Options) { o.Subagents = []subagent.Def{subagent.General} })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := h.run(ctx, "go", func(ev Event) {
		if ev.Type == EventToolRunStarted && ev.ID == "call_t/call_s" {
			cancel()
		}
	})
	if end := last(evs); !errors.Is(end.Err, ErrCancelled) && !errors.Is(end.Err, context.Canceled) {
		t.Errorf("the turn ended with %v", end.Err)
	}
	got := map[string]string{}
	for _, ev := range evs {
		if ev.Type == EventToolRunEnded {
			got[ev.ID] = ev.Result
		}
	}
	if !strings.Contains(got["call_x"], `no agent named "nobody"`) {
		t.Errorf("unknown agent: %q", got["call_x"])
	}
	if !strings.HasPrefix(got["call_t/call_s"], cancelledResult) || !strings.HasPrefix(got["call_t"], cancelledResult) {
		t.Errorf("cancelled: %q / %q", got["call_t/call_s"], got["call_t"])
	}
}

// A response with more task calls than run at once: they all finish, and
// never more than maxParallelTasks subagents run together.
func TestTaskCallsAreBounded(t *testing.T) {
	var mu sync.Mutex
	in, most := 0, 0
	probe := &testTool{
		name:   "probe",
		params: map[string]*schema.ParameterInfo{},
		plan: func(map[string]any) (tools.Action, error) {
			return tools.Action{Kind: tools.KindRead, Summary: "probe"}, nil
		},
		run: func(ctx context.Context, _ map[string]any) (string, error) {
			mu.Lock()
			in++
			most = max(most, in)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond) // lets the others pile up, if they could
			mu.Lock()
			in--
			mu.Unlock()
			return "ok", nil
		},
	}
	const n = maxParallelTasks + 3
	var calls []llmtest.ToolCall
	rs := []llmtest.Response{{}}
	for i := range n {
		calls = append(calls, llmtest.ToolCall{ID: fmt.Sprintf("call_%d", i), Name: "task", Arguments: `{"description":"probe","prompt":"Call probe, then answer."}`})
	}
	rs[0].ToolCalls = calls
	for range n {
		rs = append(rs, llmtest.Response{ToolCalls: []llmtest.ToolCall{{Name: "probe", Arguments: `{}`}}})
	}
	for range n {
		rs = append(rs, llmtest.Response{Text: "probed"})
	}
	rs = append(rs, llmtest.Response{Text: "All probed."})
	h := newHarness(t, llmtest.Script{Responses: rs}, ModeAsk, func(o *Options) {
		o.Subagents = []subagent.Def{subagent.General}
		o.Tools = append(o.Tools, probe)
	})
	if end := last(h.run(context.Background(), "probe a lot", nil)); end.Err != nil {
		t.Fatal(end.Err)
	}
	reqs := h.srv.ChatRequests()
	for i := range n {
		if got := toolResultOf(reqs[len(reqs)-1], fmt.Sprintf("call_%d", i)); got != "probed" {
			t.Errorf("call_%d: %q", i, got)
		}
	}
	if most > maxParallelTasks {
		t.Errorf("%d subagents ran at once; the bound is %d", most, maxParallelTasks)
	}
}
