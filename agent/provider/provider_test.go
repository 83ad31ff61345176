package provider

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
)

// ask streams one answer from c to the end and returns its text.
func ask(t *testing.T, c Client, prompt string) string {
	t.Helper()
	sr, err := c.Chat.Stream(context.Background(), []*schema.Message{schema.UserMessage(prompt)}, StreamOptions()...)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	defer sr.Close()
	var b strings.Builder
	for {
		m, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return b.String()
		}
		if err != nil {
			t.Fatalf("Recv: %v", err)
		}
		b.WriteString(m.Content)
	}
}

// New reads a model entry alone: what it builds is named, a mistake in the
// entry is an error that says what to write, and nothing is asked of a
// server.
func TestNew(t *testing.T) {
	for _, c := range []struct {
		name                  string
		mc                    config.Model
		provider, model, base string
		errHas                string
	}{
		{name: "openai", mc: config.Model{Type: "openai", Model: "gpt-4o", BaseURL: "http://h/v1"},
			provider: "openai", model: "gpt-4o", base: "http://h/v1"},
		{name: "no type is openai", mc: config.Model{Model: "m", BaseURL: "http://h/v1?k=1"},
			provider: "openai", model: "m", base: "http://h/v1?k=1"},
		{name: "anthropic", mc: config.Model{Type: "anthropic", Model: "claude-x"},
			provider: "anthropic", model: "claude-x"},
		{name: "demo", mc: config.Model{Type: "demo", Model: "ignored", BaseURL: "http://h"},
			provider: "demo", model: "fawn-demo"},
		{name: "fallen back to the demo", mc: config.Model{Type: "openai", Demo: true},
			provider: "demo", model: "fawn-demo"},
		{name: "openai without a model", mc: config.Model{Type: "openai"}, errHas: "models.chat_model.model is empty"},
		{name: "anthropic without a model", mc: config.Model{Type: "anthropic"}, errHas: "e.g. claude-sonnet-4-5"},
		{name: "unknown type", mc: config.Model{Type: "gemini", Model: "x"}, errHas: `"gemini": want openai, anthropic or demo`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := New(context.Background(), c.mc, Options{})
			if c.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errHas) || got.Chat != nil {
					t.Fatalf("New = %+v, %v; want an error with %q", got, err, c.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Chat == nil || got.Provider != c.provider || got.Model != c.model || got.BaseURL != c.base || got.Note != "" {
				t.Errorf("New = %+v, want %s/%s at %q", got, c.provider, c.model, c.base)
			}
		})
	}
}

// A configuration that fell back to the demo says why, and where the
// configuration goes.
func TestNewDemoNote(t *testing.T) {
	dir := t.TempDir()
	c, err := New(context.Background(), config.Model{Demo: true, DemoReason: "no API key"}, Options{ConfigDir: dir, DemoChunkDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Note, "fawn is running on its offline demo model (no API key). ") || !strings.Contains(c.Note, dir) {
		t.Errorf("note %q", c.Note)
	}
}

// A base_url with a query (Azure's api-version, a gateway's key) keeps its
// query on every request, and the path goes where it belongs, not after
// the query string.
func TestBaseURLWithAQuery(t *testing.T) {
	for _, typ := range []string{"openai", "anthropic"} {
		t.Run(typ, func(t *testing.T) {
			srv := llmtest.NewServer(llmtest.Script{Responses: []llmtest.Response{{Text: "ok"}}})
			defer srv.Close()
			c, err := New(context.Background(), config.Model{Type: typ, Model: "llmtest", APIKey: "k",
				BaseURL: srv.URL() + "?api-version=2024-10-21&key=k1"}, Options{HTTPClient: HTTPClient(nil)})
			if err != nil {
				t.Fatal(err)
			}
			if got := ask(t, c, "hi"); got != "ok" {
				t.Errorf("answer %q", got)
			}
			reqs := srv.Requests()
			want := "/v1/chat/completions"
			if typ == "anthropic" {
				want = "/v1/messages"
			}
			if len(reqs) == 0 || reqs[0].Path != want || !strings.Contains(reqs[0].Query, "api-version=2024-10-21") || !strings.Contains(reqs[0].Query, "key=k1") {
				t.Errorf("requests: %+v", reqs)
			}
		})
	}
}

// TestAnthropicExtraBody: models.chat_model.extra_body reaches the request
// (how thinking is turned on), and temperature is sent.
func TestAnthropicExtraBody(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Script{Responses: []llmtest.Response{{Text: "ok"}}})
	defer srv.Close()
	temp := 0.25
	c, err := New(context.Background(), config.Model{Type: "anthropic", Model: "claude-test", APIKey: "k", BaseURL: srv.URL(),
		ExtraBody:   map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 2048}},
		Temperature: &temp}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ask(t, c, "hi")
	f := srv.MessagesRequests()[0].Fields
	if string(f["thinking"]) != `{"budget_tokens":2048,"type":"enabled"}` || string(f["temperature"]) != "0.25" {
		t.Errorf("thinking %s temperature %s", f["thinking"], f["temperature"])
	}
}
