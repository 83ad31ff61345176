package llmtest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A streamed Gemini request gets the text in chunks and the call as a
// functionCall part in the last chunk, with the finish reason and usage;
// generateContent gets it whole; countTokens an estimate.
func TestGeminiStream(t *testing.T) {
	s := Start(t, Script{Responses: []Response{
		{Text: "héllo there", ToolCalls: []ToolCall{{Name: "read_file", Arguments: `{"path":"a.go"}`}}, Usage: &Usage{PromptTokens: 9, CompletionTokens: 3}, ChunkSize: 4},
		{Text: "whole"},
	}})
	base := strings.TrimSuffix(s.URL(), "/v1") + "/v1beta/models/g:"
	resp, err := http.Post(base+"streamGenerateContent?alt=sse", "application/json", strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var text string
	var last map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "data: ")
		if !ok {
			continue
		}
		if err := json.Unmarshal([]byte(data), &last); err != nil {
			t.Fatal(err)
		}
		cand := last["candidates"].([]any)[0].(map[string]any)
		for _, p := range cand["content"].(map[string]any)["parts"].([]any) {
			if tx, ok := p.(map[string]any)["text"].(string); ok {
				text += tx
			}
		}
	}
	cand := last["candidates"].([]any)[0].(map[string]any)
	call, _ := cand["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)["functionCall"].(map[string]any)
	if text != "héllo there" || cand["finishReason"] != "STOP" || call["name"] != "read_file" || call["args"].(map[string]any)["path"] != "a.go" {
		t.Errorf("text %q, last chunk %v", text, last)
	}
	if u := last["usageMetadata"].(map[string]any); u["totalTokenCount"] != float64(12) {
		t.Errorf("usage %v", u)
	}
	whole, err := http.Post(base+"generateContent", "application/json", strings.NewReader(`{"contents":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Body.Close()
	var w map[string]any
	if err := json.NewDecoder(whole.Body).Decode(&w); err != nil || !strings.Contains(mustJSON(t, w), `"text":"whole"`) {
		t.Errorf("generateContent: %v %v", w, err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
