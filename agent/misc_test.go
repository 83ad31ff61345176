package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

func TestBusyAndClear(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "slow", Fault: &llmtest.Fault{Kind: llmtest.Stall}},
		text("fresh start"),
	}}, ModeAsk)
	ctx, cancel := context.WithCancel(context.Background())
	first := h.s.Run(ctx, "one")
	waitFor(t, func() bool { return h.srv.Served() == 1 })
	evs := collect(t, h.s.Run(context.Background(), "two"), nil)
	if !errors.Is(last(evs).Err, ErrBusy) || len(evs) != 3 {
		t.Errorf("second Run while busy:\n%s", render(evs))
	}
	cancel()
	collect(t, first, nil)

	h.env.Todos.Replace([]tools.Todo{{ID: "1", Title: "x", Status: "pending"}})
	h.s.Clear()
	if len(h.s.History()) != 0 || len(h.s.Todos()) != 0 {
		t.Errorf("Clear left history %v, todos %v", h.s.History(), h.s.Todos())
	}
	runChecked(t, h, context.Background(), "three", nil)
	msgs := h.srv.ChatRequests()[1].Messages
	if len(msgs) != 2 || msgs[1].Content != "three" {
		t.Errorf("after Clear the model got %+v", msgs)
	}
}

func TestTodoReminder(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		call("r", "read_file", `{"path":"a.txt"}`),
		text("ok"),
	}}, ModeAsk)
	h.write("a.txt", "A")
	h.env.Todos.Replace([]tools.Todo{
		{ID: "1", Title: "Read a.txt", Status: "in_progress"},
		{ID: "2", Title: "Done already", Status: "completed"},
	})
	evs := runChecked(t, h, context.Background(), "go", nil)
	if r := ofType(evs, EventToolRunEnded)[0].Result; r != "A" {
		t.Errorf("the event carries %q, want the tool's own result", r)
	}
	sent := string(h.srv.ChatRequests()[1].Messages[3].Content)
	if !strings.HasPrefix(sent, "A\n\n(fawn reminder: 1 open to-do(s): [in_progress] Read a.txt.") {
		t.Errorf("the model got %q", sent)
	}
}

func TestRequestShape(t *testing.T) {
	for _, key := range []string{"", "sk-test-123"} {
		h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{text("ok")}}, ModeAsk, func(o *Options) {
			o.Config.Models.Chat.APIKey = key
			o.Config.Models.Chat.ExtraBody = map[string]any{"top_k": 20, "chat_template_kwargs": map[string]any{"enable_thinking": false}}
			temp := 0.2
			o.Config.Models.Chat.Temperature = &temp
			o.Config.Models.Chat.MaxTokens = 1234
		})
		runChecked(t, h, context.Background(), "hi", nil)
		req := h.srv.Requests()[0]
		auth := req.Header.Get("Authorization")
		if key == "" && auth != "" || key != "" && auth != "Bearer "+key {
			t.Errorf("key %q sent Authorization %q", key, auth)
		}
		f := req.Chat.Fields
		if string(f["top_k"]) != "20" || string(f["chat_template_kwargs"]) != `{"enable_thinking":false}` ||
			string(f["max_tokens"]) != "1234" || string(f["temperature"]) != "0.2" || string(f["stream"]) != "true" {
			t.Errorf("request fields: %v", f)
		}
		if h.s.ModelName() != "openai/llmtest" {
			t.Errorf("ModelName %q", h.s.ModelName())
		}
	}
}

// A server that numbers its calls call_0, call_1 in every response must not
// make two calls of one session share an ID.
func TestIDsUniqueInSession(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		call("call_0", "read_file", `{"path":"a.txt"}`),
		call("call_0", "read_file", `{"path":"a.txt"}`),
		text("ok"),
	}}, ModeAsk)
	h.write("a.txt", "A")
	evs := runChecked(t, h, context.Background(), "go", nil)
	ready := ofType(evs, EventToolCallReady)
	if len(ready) != 2 || ready[0].ID != "call_0" || ready[1].ID == "call_0" {
		t.Errorf("IDs %s %s", ready[0].ID, ready[1].ID)
	}
}

func TestToolFailuresBecomeResults(t *testing.T) {
	panicky := &testTool{
		name:   "panicky",
		params: map[string]*schema.ParameterInfo{},
		plan:   func(map[string]any) (tools.Action, error) { return tools.Action{Kind: tools.KindRead}, nil },
		run:    func(context.Context, map[string]any) (string, error) { panic("oops") },
	}
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "p", Name: "panicky", Arguments: ``},
			{ID: "e", Name: "read_file", Arguments: `{"path":"missing.txt"}`},
			{ID: "o", Name: "read_file", Arguments: `{"path":"../outside"}`},
			{ID: "x", Name: "bash", Arguments: `{"command":"echo out; exit 3"}`},
		}},
		text("ok"),
	}}, ModeYolo, func(o *Options) { o.Tools = append(o.Tools, panicky) })
	evs := runChecked(t, h, context.Background(), "go", nil)
	got := map[string]string{}
	for _, e := range ofType(evs, EventToolRunEnded) {
		got[e.ID] = e.Result
	}
	if got["p"] != "error: the tool crashed: oops" || !strings.Contains(got["e"], "no such file") ||
		got["o"] != "error: ../outside is outside the project" || got["x"] != "out\nexit status 3" {
		t.Errorf("results %q", got)
	}
	if last(evs).Err != nil || answerText(evs) != "ok" {
		t.Errorf("turn: %v", last(evs).Err)
	}
	var updates int
	for _, e := range ofType(evs, EventToolUpdate) {
		if _, ok := e.Data.(tools.FileViewed); ok {
			updates++
		}
	}
	if updates != 0 {
		t.Errorf("a failed read reported a view")
	}
}

func TestNewSessionErrors(t *testing.T) {
	env := &tools.Env{Root: t.TempDir()}
	cfg := testConfig(t, "http://127.0.0.1:1/v1", ModeAsk)
	for name, o := range map[string]Options{
		"no config": {Env: env},
		"no env":    {Config: cfg},
		"dup tools": {Config: cfg, Env: env, Tools: []tools.Tool{bashTool("."), bashTool(".")}},
	} {
		if _, err := NewSession(context.Background(), o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	bad := *cfg
	bad.Permissions.Mode = "sideways"
	if _, err := NewSession(context.Background(), Options{Config: &bad, Env: env}); err == nil || !strings.Contains(err.Error(), "permissions.mode") {
		t.Errorf("bad mode: %v", err)
	}
	bad = *cfg
	bad.Models.Chat.Type = "gemini"
	if _, err := NewSession(context.Background(), Options{Config: &bad, Env: env}); err == nil || !strings.Contains(err.Error(), "want openai, anthropic or demo") {
		t.Errorf("bad type: %v", err)
	}
}

// A tool that ignores its context does not hold the session: after the
// grace period the turn ends without it.
func TestStubbornToolIsLeftBehind(t *testing.T) {
	release := make(chan struct{})
	stubborn := &testTool{
		name:   "stubborn",
		params: map[string]*schema.ParameterInfo{},
		plan:   func(map[string]any) (tools.Action, error) { return tools.Action{Kind: tools.KindRead}, nil },
		run: func(context.Context, map[string]any) (string, error) {
			<-release
			return "finally", nil
		},
	}
	t.Cleanup(func() { close(release) }) // runs after the harness: lets the goroutine end
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{call("s", "stubborn", `{}`), text("next")}}, ModeYolo,
		func(o *Options) { o.Tools = append(o.Tools, stubborn) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := runChecked(t, h, ctx, "go", func(ev Event) {
		if ev.Type == EventToolRunStarted {
			cancel()
		}
	})
	r := ofType(evs, EventToolRunEnded)
	if len(r) != 1 || !strings.Contains(r[0].Result, "did not stop within 3s") || !errors.Is(last(evs).Err, ErrCancelled) {
		t.Errorf("events:\n%s", render(evs))
	}
	evs = runChecked(t, h, context.Background(), "again", nil)
	if answerText(evs) != "next" {
		t.Errorf("next turn:\n%s", render(evs))
	}
}

func TestReasoningFieldsAndNotices(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Reasoning: "thinking aloud", ReasoningField: "reasoning", Text: "cut sho", FinishReason: "length"},
		{},
	}}, ModeAsk, func(o *Options) { o.Config.Models.Chat.MaxTokens = 7 })
	evs := runChecked(t, h, context.Background(), "hi", nil)
	got := render(evs)
	for _, want := range []string{`reasoning "thinking aloud"`, `info "the answer was cut off at the output limit (models.chat_model.max_tokens = 7)"`} {
		if !strings.Contains(got, want) {
			t.Errorf("events lack %s:\n%s", want, got)
		}
	}
	evs = runChecked(t, h, context.Background(), "again", nil)
	if !strings.Contains(render(evs), `info "the model sent an empty answer"`) {
		t.Errorf("events:\n%s", render(evs))
	}
}
