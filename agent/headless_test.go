package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

func headlessScript() llmtest.Script {
	return llmtest.Script{Responses: []llmtest.Response{
		{Reasoning: "Check the file.", Text: "Reading it.", ToolCalls: []llmtest.ToolCall{
			{ID: "r1", Name: "read_file", Arguments: `{"path":"a.txt"}`},
			{ID: "x1", Name: "bash", Arguments: `{"command":"rm -rf /tmp/nothing"}`},
		}, Usage: &llmtest.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{Fault: &llmtest.Fault{Kind: llmtest.RateLimit, RetryAfter: -1}},
		{Text: "The file says A.", Usage: &llmtest.Usage{PromptTokens: 150, CompletionTokens: 5, CachedTokens: 90}},
	}}
}

func headless(t *testing.T, format string, script llmtest.Script) (code int, stdout, stderr string, h *harness) {
	t.Helper()
	h = newHarness(t, script, ModeAsk, func(o *Options) { o.Interactive = false })
	h.write("a.txt", "A")
	var out, errb bytes.Buffer
	code = RunHeadless(context.Background(), h.s, "what does a.txt say?", format, &out, &errb)
	return code, out.String(), errb.String(), h
}

func TestHeadlessText(t *testing.T) {
	code, out, errs, _ := headless(t, "text", headlessScript())
	if code != 0 || out != "The file says A.\n" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{"fawn: denied bash (x1)", "--permission-mode", "fawn: rate limited (429), retrying in"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

func TestHeadlessJSON(t *testing.T) {
	code, out, _, h := headless(t, "json", headlessScript())
	var got struct {
		Result    string `json:"result"`
		SessionID string `json:"session_id"`
		Usage     struct {
			InputTokens     int     `json:"input_tokens"`
			OutputTokens    int     `json:"output_tokens"`
			CachedTokens    int     `json:"cached_tokens"`
			CacheWrite      int     `json:"cache_write_tokens"`
			ContextTokens   int     `json:"context_tokens"`
			TokensPerSecond float64 `json:"tokens_per_second"`
		} `json:"usage"`
		NumTurns   int   `json:"num_turns"`
		ToolCalls  int   `json:"tool_calls"`
		IsError    bool  `json:"is_error"`
		DurationMS int64 `json:"duration_ms"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON object of the documented fields (%v):\n%s", err, out)
	}
	if code != 0 || got.Result != "The file says A." || got.SessionID != h.s.ID() || got.Usage.InputTokens != 250 ||
		got.Usage.OutputTokens != 15 || got.Usage.CachedTokens != 90 || got.Usage.ContextTokens != 150 || got.NumTurns != 2 || got.ToolCalls != 2 || got.IsError || got.DurationMS < 0 {
		t.Errorf("exit %d, %+v", code, got)
	}
}

func TestHeadlessStreamJSON(t *testing.T) {
	code, out, _, _ := headless(t, "stream-json", headlessScript())
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	var types []string
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		lines = append(lines, m)
		if typ := m["type"].(string); len(types) == 0 || types[len(types)-1] != typ {
			types = append(types, typ)
		}
	}
	want := "init reasoning text tool_call tool_result permission tool_result retry text turn_end"
	if strings.Join(types, " ") != want {
		t.Errorf("types %v, want %s", types, want)
	}
	for _, m := range lines {
		switch m["type"] {
		case "tool_call":
			if m["id"] == "r1" && m["args"].(map[string]any)["path"] != "a.txt" {
				t.Errorf("tool_call args: %v", m)
			}
		case "tool_result":
			if m["id"] == "r1" && (m["name"] != "read_file" || m["output"] != "A" || m["is_error"] != false) {
				t.Errorf("tool_result: %v", m)
			}
		case "permission":
			if m["id"] != "x1" || m["name"] != "bash" || m["decision"] != "deny" {
				t.Errorf("permission: %v", m)
			}
		case "retry":
			if m["attempt"] != 1.0 || m["reason"] != "rate limited (429)" {
				t.Errorf("retry: %v", m)
			}
		case "turn_end":
			u := m["usage"].(map[string]any)
			if u["input_tokens"] != 250.0 || m["is_error"] != false {
				t.Errorf("turn_end: %v", m)
			}
		}
	}
}

func TestHeadlessFailureAndBadFormat(t *testing.T) {
	code, out, errs, _ := headless(t, "text", llmtest.Script{Responses: []llmtest.Response{{Fault: &llmtest.Fault{Kind: llmtest.ContextLength}}}})
	if code != 1 || out != "" || !strings.Contains(errs, "context window") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs, _ = headless(t, "stream-json", llmtest.Script{Responses: []llmtest.Response{{Fault: &llmtest.Fault{Kind: llmtest.ContextLength}}}})
	if code != 1 || !strings.Contains(out, `{"type":"error","message":"the conversation no longer fits`) || !strings.Contains(out, `"is_error":true`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs, _ = headless(t, "yaml", llmtest.Script{})
	if code != 2 || out != "" || !strings.Contains(errs, "want text, json or stream-json") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestHeadlessInterrupted(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "never", Fault: &llmtest.Fault{Kind: llmtest.Stall}}}}, ModeAsk)
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() { done <- RunHeadless(ctx, h.s, "hi", "json", &out, &errb) }()
	waitFor(t, func() bool { return h.srv.Served() == 1 })
	cancel()
	if code := <-done; code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	if !strings.Contains(out.String(), `"is_error":true`) {
		t.Errorf("stdout %q", out.String())
	}
}

// Finding 7: an answer cut at the output limit says so in the json result
// and the stream-json turn_end; a call the limit cut is not run and the
// turn fails, saying why.
func TestHeadlessCutOffAtTheOutputLimit(t *testing.T) {
	code, out, errs, _ := headless(t, "json", llmtest.Script{Responses: []llmtest.Response{{Text: "A long answer that", FinishReason: "length"}}})
	var got struct {
		IsError bool   `json:"is_error"`
		CutOff  string `json:"cut_off"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.CutOff != "max_tokens" || code != 0 {
		t.Errorf("exit %d, %+v (%v):\n%s", code, got, err, out)
	}
	if !strings.Contains(errs, "cut off at the output limit") {
		t.Errorf("stderr %q", errs)
	}
	code, out, _, h := headless(t, "stream-json", llmtest.Script{Responses: []llmtest.Response{
		{Text: "Writing.", ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Arguments: `{"path":"b.txt","con`}}, FinishReason: "length"},
	}})
	if code != ExitFailure || !strings.Contains(out, `"cut_off":"max_tokens"`) || !strings.Contains(out, `"is_error":true`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if strings.Contains(out, `"type":"tool_call"`) || h.srv.Served() != 1 {
		t.Errorf("the cut call was issued or retried:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(h.root, "b.txt")); err == nil {
		t.Error("b.txt was written by a call the output limit cut")
	}
}
