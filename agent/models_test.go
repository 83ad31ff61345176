package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
)

// SetModel applies from the next model request, also in the middle of a
// turn, keeps the conversation, and ModelName says so at once. The switch
// happens while the turn waits for a permission, so the next request is
// certainly after it (events reach the handler while the turn goes on).
func TestSetModelAppliesFromTheNextRequest(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Writing.", ToolCalls: []llmtest.ToolCall{{Name: "write_file", Arguments: `{"path":"b.txt","content":"B"}`}}},
		{Text: "Written."},
		{Text: "Second turn."},
	}}, ModeAsk)
	other := h.s.ModelConfig()
	other.Model = "bigger"
	other.ContextWindow = 200000
	h.run(context.Background(), "read a.txt", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			if err := h.s.SetModel(context.Background(), other); err != nil {
				t.Errorf("SetModel: %v", err)
			}
			if got := h.s.ModelName(); got != "openai/bigger" {
				t.Errorf("ModelName right after SetModel = %q", got)
			}
			h.s.Approve(ev.ID, Answer{Decision: AllowOnce})
		}
	})
	h.run(context.Background(), "and again", nil)
	reqs := h.srv.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if reqs[0].Model != "llmtest" || reqs[1].Model != "bigger" || reqs[2].Model != "bigger" {
		t.Errorf("models requested: %q %q %q", reqs[0].Model, reqs[1].Model, reqs[2].Model)
	}
	if n := len(reqs[2].Tools); n == 0 {
		t.Error("the new model was not given the tools")
	}
	var sawFirst bool
	for _, m := range reqs[2].Messages {
		sawFirst = sawFirst || string(m.Content) == "read a.txt"
	}
	if !sawFirst {
		t.Error("the conversation was lost in the switch")
	}
	if got := h.s.ModelConfig(); got.Model != "bigger" || got.ContextWindow != 200000 {
		t.Errorf("ModelConfig = %+v", got)
	}
}

func TestSetModelRefusesAMistakeAndKeepsTheModel(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "ok"}}}, ModeYolo)
	if err := h.s.SetModel(context.Background(), config.Model{Type: "openai"}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("a model without a name: %v", err)
	}
	if err := h.s.SetModel(context.Background(), config.Model{Type: "gemini", Model: "x"}); err == nil {
		t.Error("an unknown provider type was accepted")
	}
	if got := h.s.ModelName(); got != "openai/llmtest" {
		t.Errorf("ModelName = %q after refused switches", got)
	}
	h.run(context.Background(), "hi", nil)
	if got := h.srv.ChatRequests()[0].Model; got != "llmtest" {
		t.Errorf("requested %q", got)
	}
	// The demo needs nothing: a switch to it works offline.
	if err := h.s.SetModel(context.Background(), config.Model{Type: "demo"}); err != nil || h.s.ModelName() != "demo/fawn-demo" {
		t.Errorf("switch to the demo: %v, %q", err, h.s.ModelName())
	}
}

// The configured models come first, then what their servers list; a server
// that cannot answer is reported, the others still listed.
func TestModelChoicesListTheConfigAndTheServers(t *testing.T) {
	h := newHarness(t, llmtest.Script{Models: []string{"llmtest", "coder-7b", "coder-32b"}}, ModeYolo)
	down := llmtest.NewServer(llmtest.Script{})
	downURL := down.URL()
	down.Close()
	h.s.cfg.Models.Named = map[string]config.Model{
		"mini":   {Model: "coder-7b", BaseURL: h.srv.URL(), MaxTokens: 1000},
		"gone":   {Model: "x", BaseURL: downURL},
		"sonnet": {Type: "anthropic", Model: "claude-sonnet-4-5", APIKey: "k", BaseURL: h.srv.URL()},
	}
	conf := h.s.ConfiguredModels()
	var names []string
	for _, c := range conf {
		names = append(names, c.Name)
	}
	if strings.Join(names, " ") != "default gone mini sonnet" {
		t.Errorf("configured: %q", names)
	}
	if mini := conf[2].Config; mini.Type != "openai" || mini.Timeout != h.s.cfg.Models.Chat.Timeout || mini.MaxTokens != 1000 {
		t.Errorf("mini is not filled in from chat_model: %+v", mini)
	}
	listed, errs := h.s.ListModels(context.Background())
	var ids []string
	for _, c := range listed {
		ids = append(ids, c.Name+"@"+c.Config.Type)
		if c.Config.BaseURL != h.srv.URL() || !strings.HasPrefix(c.Source, "listed by 127.0.0.1:") {
			t.Errorf("listed %q from %q (%s)", c.Name, c.Config.BaseURL, c.Source)
		}
	}
	// llmtest answers /v1/models for both; anthropic's path is /v1/models too.
	if got := strings.Join(ids, " "); got != "coder-32b@openai coder-32b@anthropic coder-7b@anthropic llmtest@anthropic" {
		t.Errorf("listed %q", got)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "does not answer") {
		t.Errorf("errors: %v", errs)
	}
	var auth []string
	for _, r := range h.srv.Requests() {
		if r.Path == "/v1/models" {
			auth = append(auth, r.Header.Get("x-api-key")+"|"+r.Header.Get("Authorization"))
		}
	}
	if len(auth) != 2 || !strings.Contains(strings.Join(auth, " "), "k|") {
		t.Errorf("model list requests carried %q", auth)
	}
}
