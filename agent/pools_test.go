package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/subagent"
	"github.com/fawn-ide/fawn/tools"
)

// fourTasks is a response that hands four tasks to subagents at once.
func fourTasks() llmtest.Response {
	var calls []llmtest.ToolCall
	for i := range 4 {
		calls = append(calls, llmtest.ToolCall{ID: fmt.Sprintf("call_t%d", i), Name: "task", Arguments: `{"description":"look","prompt":"Look, then answer."}`})
	}
	return llmtest.Response{ToolCalls: calls}
}

// slowText is an answer streamed slowly enough that requests sent at once
// would overlap at the server.
func slowText(s string) llmtest.Response {
	return llmtest.Response{Text: s, ChunkSize: 2, Delay: llmtest.Duration(15 * time.Millisecond)}
}

// named adds an entry of models.named on url to o's configuration.
func named(o *Options, name, url string, edit func(*config.Model)) {
	mc := config.Model{Type: "openai", Model: "llmtest-" + name, BaseURL: url, Timeout: time.Minute, StallTimeout: 15 * time.Second}
	if edit != nil {
		edit(&mc)
	}
	if o.Config.Models.Named == nil {
		o.Config.Models.Named = map[string]config.Model{}
	}
	o.Config.Models.Named[name] = mc
}

// chat_model's parallel (1 by default) holds under four subagents at once:
// the server never answers two requests together. The time a request
// queues for its slot is not silence: the last of the four waits longer
// than stall_timeout, and is not taken for stalled.
func TestPoolCapHoldsUnderParallelSubagents(t *testing.T) {
	rs := []llmtest.Response{fourTasks()}
	for range 4 {
		rs = append(rs, slowText(strings.Repeat("looked around. ", 4)))
	}
	rs = append(rs, llmtest.Response{Text: "All done."})
	h := newHarness(t, llmtest.Script{Responses: rs}, ModeAsk, func(o *Options) {
		o.Subagents = []subagent.Def{subagent.General}
		o.Config.Models.Chat.StallTimeout = 500 * time.Millisecond
	})
	evs := h.run(context.Background(), "look four times", nil)
	if end := last(evs); end.Err != nil {
		t.Fatal(end.Err)
	}
	for _, ev := range evs {
		if ev.Type == EventRetry || strings.Contains(ev.Text, "retrying") {
			t.Errorf("a request was retried while it queued: %+v", ev)
		}
	}
	if n := len(h.srv.ChatRequests()); n != 6 {
		t.Fatalf("%d requests, want 6", n)
	}
	if p := h.srv.PeakInFlight(); p != 1 {
		t.Errorf("the server answered %d requests at once; models.chat_model.parallel is 1", p)
	}
}

// With models.background, a subagent's request goes to the background entry
// first; four at once spread over it and chat_model, each within its cap.
func TestSubagentsGoToBackground(t *testing.T) {
	bg := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{slowText("bg one"), slowText("bg two"), slowText("bg three"), slowText("bg four")}})
	rs := []llmtest.Response{{ToolCalls: []llmtest.ToolCall{{ID: "call_one", Name: "task", Arguments: `{"description":"look","prompt":"Look, then answer."}`}}}, {Text: "One done."}, fourTasks()}
	for range 5 {
		rs = append(rs, slowText("done"))
	}
	h := newHarness(t, llmtest.Script{Responses: rs}, ModeAsk, func(o *Options) {
		o.Subagents = []subagent.Def{subagent.General}
		named(o, "spare", bg.URL(), nil)
		o.Config.Models.Background = []string{"spare"}
	})
	if end := last(h.run(context.Background(), "look once", nil)); end.Err != nil {
		t.Fatal(end.Err)
	}
	if got := len(bg.ChatRequests()); got != 1 {
		t.Fatalf("the background server got %d requests, want the subagent's one", got)
	}
	if sys := systemOf(bg.ChatRequests()[0]); !strings.Contains(sys, "general subagent") {
		t.Errorf("the background server's request is not the subagent's: %q", sys)
	}
	if got := toolResultOf(h.srv.ChatRequests()[1], "call_one"); got != "bg one" {
		t.Errorf("the task's result is %q, want the background entry's answer", got)
	}

	if end := last(h.run(context.Background(), "look four times", nil)); end.Err != nil {
		t.Fatal(end.Err)
	}
	subOnMain := len(h.srv.ChatRequests()) - 4 // two turns of two main requests each
	subOnBg := len(bg.ChatRequests()) - 1
	if subOnMain+subOnBg != 4 || subOnBg == 0 {
		t.Errorf("four subagents: %d requests on chat_model, %d on the background entry", subOnMain, subOnBg)
	}
	if p, q := h.srv.PeakInFlight(), bg.PeakInFlight(); p > 1 || q > 1 {
		t.Errorf("peaks %d (chat_model) and %d (background) exceed parallel 1", p, q)
	}
}

// countingTool counts its runs and, on its first, runs first().
func countingTool(runs *int, mu *sync.Mutex, first func()) *testTool {
	return &testTool{
		name:   "count",
		params: map[string]*schema.ParameterInfo{},
		plan: func(map[string]any) (tools.Action, error) {
			return tools.Action{Kind: tools.KindRead, Summary: "count"}, nil
		},
		run: func(context.Context, map[string]any) (string, error) {
			mu.Lock()
			*runs++
			n := *runs
			mu.Unlock()
			if n == 1 && first != nil {
				first()
			}
			return fmt.Sprintf("counted %d", n), nil
		},
	}
}

// The primary dies in the middle of a turn (its server is closed while a
// tool runs): the same turn finishes on the fallback, from the same step,
// the tool run once, and the card says which entry took over.
func TestFailoverWhenPrimaryDies(t *testing.T) {
	spare := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "Finished on the spare."}}})
	var mu sync.Mutex
	runs := 0
	var h *harness
	h = newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_c", Name: "count", Arguments: `{}`}}},
		{Text: "never sent"},
	}}, ModeAsk, func(o *Options) {
		o.Tools = append(o.Tools, countingTool(&runs, &mu, func() { h.srv.Close() }))
		named(o, "spare", spare.URL(), nil)
		o.Config.Models.Chat.Fallbacks = []string{"spare"}
	})
	evs := h.run(context.Background(), "count once", nil)
	end := last(evs)
	if end.Err != nil {
		t.Fatal(end.Err)
	}
	if runs != 1 {
		t.Errorf("the tool ran %d times, want once", runs)
	}
	reqs := spare.ChatRequests()
	if len(reqs) != 1 || toolResultOf(reqs[0], "call_c") != "counted 1" {
		t.Fatalf("the spare's requests: %d, want one carrying the tool's result", len(reqs))
	}
	var notice *RetryInfo
	for _, ev := range evs {
		if ev.Type == EventRetry && ev.Retry.Failover != "" {
			notice = ev.Retry
		}
	}
	if notice == nil || notice.Failover != "spare" || !strings.HasPrefix(notice.Reason, "default down") {
		t.Errorf("failover notice %+v, want default down → spare", notice)
	}
	if got := h.s.ModelName(); got != "openai/llmtest-spare" {
		t.Errorf("model in use %q, want the spare", got)
	}
	hist := h.s.History()
	if msg := hist[len(hist)-1]; msg.Content != "Finished on the spare." {
		t.Errorf("the last message is %q", msg.Content)
	}
}

// An answer that breaks off mid-stream after a tool ran (no retry then) is
// dropped and the step asked again of the fallback: the history holds the
// fallback's answer only, and the tool ran once.
func TestFailoverDropsTheBrokenAnswer(t *testing.T) {
	spare := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "Whole answer."}}})
	var mu sync.Mutex
	runs := 0
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_c", Name: "count", Arguments: `{}`}}},
		{Text: "BROKEN-PARTIAL answer that stops", ChunkSize: 4, Fault: &llmtest.Fault{Kind: llmtest.Drop, After: 3}},
	}}, ModeAsk, func(o *Options) {
		o.Tools = append(o.Tools, countingTool(&runs, &mu, nil))
		named(o, "spare", spare.URL(), nil)
		o.Config.Models.Chat.Fallbacks = []string{"spare"}
	})
	if end := last(h.run(context.Background(), "count once", nil)); end.Err != nil {
		t.Fatal(end.Err)
	}
	if runs != 1 {
		t.Errorf("the tool ran %d times", runs)
	}
	for _, m := range h.s.History() {
		if strings.Contains(m.Content, "BROKEN-PARTIAL") {
			t.Errorf("the broken answer is in the history: %q", m.Content)
		}
	}
	if hist := h.s.History(); hist[len(hist)-1].Content != "Whole answer." {
		t.Errorf("the last message is %q", hist[len(hist)-1].Content)
	}
}

// A refused key never fails over: the turn stops with the error, the
// fallback never asked.
func TestAuthErrorDoesNotFailOver(t *testing.T) {
	spare := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "should not be asked"}}})
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Fault: &llmtest.Fault{Kind: llmtest.ServerError, Status: 401, Message: "bad key"}},
	}}, ModeAsk, func(o *Options) {
		named(o, "spare", spare.URL(), nil)
		o.Config.Models.Chat.Fallbacks = []string{"spare"}
	})
	end := last(h.run(context.Background(), "hello", nil))
	if end.Err == nil || !strings.Contains(end.Err.Error(), "401") {
		t.Errorf("turn error %v, want the 401", end.Err)
	}
	if n := len(spare.Requests()); n != 0 {
		t.Errorf("the fallback got %d requests after a 401", n)
	}
}

// After a failover the primary is skipped until models.failover_cooldown
// has passed, then tried again.
func TestFailoverCooldownReturnsToPrimary(t *testing.T) {
	const cooldown = time.Second
	spare := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "spare one"}, {Text: "spare two"}}})
	fail := &llmtest.Fault{Kind: llmtest.ServerError, Status: 503}
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Fault: fail}, {Fault: fail}, {Fault: fail}, {Fault: fail},
		{Text: "primary again"},
	}}, ModeAsk, func(o *Options) {
		named(o, "spare", spare.URL(), nil)
		o.Config.Models.Chat.Fallbacks = []string{"spare"}
		o.Config.Models.FailoverCooldown = cooldown
	})
	answer := func() string {
		t.Helper()
		end := last(h.run(context.Background(), "hi", nil))
		if end.Err != nil {
			t.Fatal(end.Err)
		}
		hist := h.s.History()
		return hist[len(hist)-1].Content
	}
	start := time.Now()
	if got := answer(); got != "spare one" {
		t.Fatalf("first turn %q, want the spare's", got)
	}
	if time.Since(start) < cooldown {
		// Within the cool-down the primary is skipped.
		if got := answer(); got != "spare two" {
			t.Errorf("second turn %q, want the spare's", got)
		}
		if n := len(h.srv.ChatRequests()); n != 4 {
			t.Errorf("the primary was asked %d times, want 4 (the retries only)", n)
		}
	} else {
		t.Log("the first turn outlasted the cool-down; the check within it is skipped")
	}
	time.Sleep(cooldown + 100*time.Millisecond)
	if got := answer(); got != "primary again" {
		t.Errorf("after the cool-down %q, want the primary's answer", got)
	}
	if got := h.s.ModelName(); got != "openai/llmtest" {
		t.Errorf("model in use %q after the cool-down", got)
	}
}

// Sessions that share their pools (the tasks of one project) hold the
// caps together: a second task's request waits for the first task's to
// end, and its turn says it waits.
func TestTasksShareTheModelsSlots(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: strings.Repeat("first task. ", 25), ChunkSize: 2, Delay: llmtest.Duration(20 * time.Millisecond)},
		{Text: "second task."},
	}}, ModeAsk)
	o := Options{Config: testConfig(t, h.srv.URL(), ModeAsk), Env: &tools.Env{Root: h.root}, Tools: testTools(h.root), Interactive: true, Pools: h.s.Pools()}
	second, err := NewSession(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if second.Pools() != h.s.Pools() {
		t.Fatal("the second session made pools of its own")
	}
	done := make(chan []Event)
	go func() { done <- collect(t, h.s.Run(context.Background(), "one"), nil) }()
	for deadline := time.Now().Add(20 * time.Second); len(h.srv.ChatRequests()) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first task's request never reached the server")
		}
	}
	evs := collect(t, second.Run(context.Background(), "two"), nil)
	if end := last(evs); end.Err != nil {
		t.Fatal(end.Err)
	}
	<-done
	if p := h.srv.PeakInFlight(); p != 1 {
		t.Errorf("the server answered %d requests at once; the tasks share parallel: 1", p)
	}
	waited := false
	for _, ev := range evs {
		waited = waited || ev.Type == EventInfo && strings.Contains(ev.Text, "waiting for the model")
	}
	if !waited {
		t.Errorf("the second task's turn did not say it waited: %s", render(evs))
	}
}

// What background work costs counts in the session's usage, at the price
// of the entry that answered: with a background entry and without one.
func TestBackgroundWorkCountsInTheSessionsCost(t *testing.T) {
	bg := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "MET", Usage: &llmtest.Usage{PromptTokens: 1_000_000, CompletionTokens: 0}},
	}})
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "NOT MET: more", Usage: &llmtest.Usage{PromptTokens: 2_000_000, CompletionTokens: 0}},
	}}, ModeAsk, func(o *Options) {
		o.Config.Models.Chat.PricePerMTok = map[string]float64{"input": 1, "output": 1}
		named(o, "spare", bg.URL(), func(m *config.Model) { m.PricePerMTok = map[string]float64{"input": 3, "output": 3} })
		o.Config.Models.Background = []string{"spare"}
	})
	ask := func() {
		m, err := h.s.Background().Model(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Chat.Generate(context.Background(), []*schema.Message{schema.UserMessage("judge")}); err != nil {
			t.Fatal(err)
		}
	}
	ask()
	if u := h.s.Usage(); u.InputTokens != 1_000_000 || u.Cost.USD < 2.99 || u.Cost.USD > 3.01 {
		t.Fatalf("after a background answer on spare: %d input tokens, $%.2f; want 1,000,000 and $3", u.InputTokens, u.Cost.USD)
	}
	// Without a background entry the work goes to chat_model, at its price.
	h2 := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "MET", Usage: &llmtest.Usage{PromptTokens: 2_000_000, CompletionTokens: 0}},
	}}, ModeAsk, func(o *Options) { o.Config.Models.Chat.PricePerMTok = map[string]float64{"input": 1, "output": 1} })
	m, err := h2.s.Background().Model(context.Background())
	if err != nil || !m.Shared {
		t.Fatalf("%+v %v", m, err)
	}
	if _, err := m.Chat.Generate(context.Background(), []*schema.Message{schema.UserMessage("judge")}); err != nil {
		t.Fatal(err)
	}
	if u := h2.s.Usage(); u.InputTokens != 2_000_000 || u.Cost.USD < 1.99 || u.Cost.USD > 2.01 {
		t.Fatalf("after a background answer on chat_model: %d input tokens, $%.2f; want 2,000,000 and $2", u.InputTokens, u.Cost.USD)
	}
}
