package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/internal/llmtest"
)

// anthropicCfg points a harness at the scripted server's Messages API.
func anthropicCfg(o *Options) {
	o.Config.Models.Chat.Type = "anthropic"
	o.Config.Models.Chat.Model = "claude-test"
	o.Config.Models.Chat.APIKey = "sk-ant-test"
}

func TestAnthropicProvider(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Fault: &llmtest.Fault{Kind: llmtest.RateLimit, RetryAfter: -1}},
		{Reasoning: "The user wants a.txt.", Signature: "sig-123", Text: "Reading it.",
			ToolCalls:    []llmtest.ToolCall{{ID: "toolu_1", Name: "read_file", Arguments: `{"path":"a.txt"}`}},
			ArgChunkSize: 5, Usage: &llmtest.Usage{PromptTokens: 50, CompletionTokens: 20, CacheWriteTokens: 40}},
		{Text: "It says A.", Usage: &llmtest.Usage{PromptTokens: 80, CompletionTokens: 5, CachedTokens: 40, CacheWriteTokens: 30}},
	}}, ModeAsk, anthropicCfg)
	if h.s.ModelName() != "anthropic/claude-test" {
		t.Errorf("ModelName %q", h.s.ModelName())
	}
	h.write("a.txt", "A")
	evs := runChecked(t, h, context.Background(), "what is in a.txt?", nil)
	got := render(evs)
	for _, want := range []string{
		`retry attempt 1/4 "rate limited (429)"`,
		`reasoning "The user wants a.txt."`,
		`text "Reading it."`,
		`tool_call_ready c1 read_file {"path":"a.txt"}`,
		`tool_run_ended c1 read_file error=false "A"`,
		`text "It says A."`,
		`in=130 out=25`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("events lack %s:\n%s", want, got)
		}
	}
	u := last(evs).Usage
	if u.CachedTokens != 40 || u.CacheWriteTokens != 70 || u.ContextTokens != 80 {
		t.Errorf("usage %+v: want 40 cached, 70 written, context 80", u)
	}
	reqs := h.srv.Requests()
	// One request per attempt: the client did not retry the 429 itself.
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (429, tool call, answer)", len(reqs))
	}
	if k := reqs[1].Header.Get("X-Api-Key"); k != "sk-ant-test" {
		t.Errorf("x-api-key %q", k)
	}
	if a := reqs[1].Header.Get("Authorization"); a != "" {
		t.Errorf("an Authorization header was sent too: %q", a)
	}
	mr := h.srv.MessagesRequests()
	third := mr[2]
	// The history went back with the tool result under the call's ID, and
	// the thinking block with its signature, first in its message.
	asst := third.Messages[1]
	if asst.Role != "assistant" || asst.Content[0].Type != "thinking" || asst.Content[0].Signature != "sig-123" ||
		asst.Content[0].Thinking != "The user wants a.txt." {
		t.Errorf("assistant message sent back: %+v", asst)
	}
	b, _ := json.Marshal(third.Messages)
	for _, want := range []string{`"tool_use_id":"toolu_1"`, `"id":"toolu_1"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("third request lacks %s: %s", want, b)
		}
	}
	// The stable prefix is marked for the cache: the tools, the system
	// prompt, the newest message and the one before it.
	if n := third.Breakpoints(); n != 4 {
		t.Errorf("%d cache breakpoints, want 4: %s", n, reqs[2].Body)
	}
	if len(third.Tools) == 0 || len(third.Tools[len(third.Tools)-1].CacheControl) == 0 {
		t.Error("the last tool carries no cache_control")
	}
	if len(third.System) == 0 || len(third.System[len(third.System)-1].CacheControl) == 0 {
		t.Error("the system prompt carries no cache_control")
	}
	for _, i := range []int{0, 2} {
		c := third.Messages[i].Content
		if len(c[len(c)-1].CacheControl) == 0 {
			t.Errorf("messages[%d] carries no cache_control: %+v", i, c)
		}
	}
	if mr[1].MaxTokens != provider.AnthropicDefaultMaxTokens || !mr[1].Stream {
		t.Errorf("max_tokens %d stream %v", mr[1].MaxTokens, mr[1].Stream)
	}
}

// TestAnthropicAcrossTurns: a second turn's request keeps the history in
// alternating turns (Anthropic's checks run in the server), drops the
// earlier turn's thinking, and still marks at most 4 breakpoints.
func TestAnthropicAcrossTurns(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Reasoning: "think", ToolCalls: []llmtest.ToolCall{
			{Name: "read_file", Arguments: `{"path":"a.txt"}`}, {Name: "read_file", Arguments: `{"path":"b.txt"}`}}},
		text("Both read."),
		text("Second answer."),
	}}, ModeAsk, anthropicCfg)
	h.write("a.txt", "A")
	h.write("b.txt", "B")
	runChecked(t, h, context.Background(), "read both", nil)
	evs := runChecked(t, h, context.Background(), "and now?", nil)
	if last(evs).Err != nil || answerText(evs) != "Second answer." {
		t.Fatalf("second turn:\n%s", render(evs))
	}
	mr := h.srv.MessagesRequests()
	second := mr[1]
	// Two results, in one user turn.
	if res := second.Messages[2].Content; len(res) != 2 || res[0].Type != "tool_result" || res[1].Type != "tool_result" {
		t.Errorf("tool results: %+v", res)
	}
	if second.Messages[1].Content[0].Type != "thinking" {
		t.Errorf("the thinking of the turn under way was not sent back: %+v", second.Messages[1].Content)
	}
	third := mr[2]
	if len(third.Messages) != 5 {
		t.Fatalf("%d messages in the second turn's request", len(third.Messages))
	}
	for _, b := range third.Messages[1].Content {
		if b.Type == "thinking" {
			t.Errorf("the earlier turn's thinking went back: %+v", third.Messages[1].Content)
		}
	}
	if n := third.Breakpoints(); n != 4 {
		t.Errorf("%d breakpoints", n)
	}
}

func TestAnthropicFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script []llmtest.Response
		reason string // of the one retry
		errHas string // in the turn's error; "" for none
		answer string
	}{
		{name: "overloaded 529", script: []llmtest.Response{{Fault: &llmtest.Fault{Kind: llmtest.ServerError, Status: 529}}, text("Back.")},
			reason: "server error (529)", answer: "Back."},
		{name: "error event before any output", script: []llmtest.Response{{Text: "x", Fault: &llmtest.Fault{Kind: llmtest.StreamError, After: 2}}, text("Back.")},
			reason: "server error (529)", answer: "Back."},
		{name: "dropped mid-answer", script: []llmtest.Response{{Text: "This breaks off.", ChunkSize: 3, Fault: &llmtest.Fault{Kind: llmtest.Drop, After: 5}}, text("Whole.")},
			reason: "connection dropped mid-answer", answer: "Whole."},
		{name: "no message_stop", script: []llmtest.Response{{Text: "Cut short.", ChunkSize: 3, Fault: &llmtest.Fault{Kind: llmtest.NoDone}}, text("Whole.")},
			reason: "connection dropped mid-answer", answer: "Whole."},
		{name: "malformed event", script: []llmtest.Response{{Text: "abcdefghi", ChunkSize: 3, Fault: &llmtest.Fault{Kind: llmtest.Malformed, After: 5}}, text("Fine.")},
			reason: "the server sent a malformed chunk", answer: "Fine."},
		{name: "prompt too long", script: []llmtest.Response{{Fault: &llmtest.Fault{Kind: llmtest.ContextLength}}},
			errHas: "no longer fits the model's context window"},
		{name: "overloaded mid-answer", script: []llmtest.Response{{Text: "Half an answer", ChunkSize: 4, Fault: &llmtest.Fault{Kind: llmtest.StreamError, After: 5}}},
			errHas: "failed (529)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Responses: tc.script}, ModeAsk, anthropicCfg)
			evs := runChecked(t, h, context.Background(), "hi", nil)
			err := last(evs).Err
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Errorf("turn error %v, want %q:\n%s", err, tc.errHas, render(evs))
				}
				return
			}
			r := ofType(evs, EventRetry)
			if len(r) != 1 || r[0].Retry.Reason != tc.reason || err != nil || !strings.HasSuffix(answerText(evs), tc.answer) {
				t.Errorf("want one retry (%s) then %q; got %v:\n%s", tc.reason, tc.answer, err, render(evs))
			}
			if hist := h.s.History(); hist[len(hist)-1].Content != tc.answer {
				t.Errorf("history ends %q", hist[len(hist)-1].Content)
			}
		})
	}
}

// TestAnthropicMaxTokens: an answer cut at max_tokens says so, as OpenAI's
// finish_reason "length" does.
func TestAnthropicMaxTokens(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "A long answer that", FinishReason: "length"},
	}}, ModeAsk, anthropicCfg, func(o *Options) { o.Config.Models.Chat.MaxTokens = 5 })
	evs := runChecked(t, h, context.Background(), "hi", nil)
	var said bool
	for _, e := range ofType(evs, EventInfo) {
		said = said || strings.Contains(e.Text, "cut off at the output limit (models.chat_model.max_tokens = 5)")
	}
	if !said {
		t.Errorf("no word of the cut:\n%s", render(evs))
	}
	if mr := h.srv.MessagesRequests(); mr[0].MaxTokens != 5 {
		t.Errorf("max_tokens %d", mr[0].MaxTokens)
	}
}
