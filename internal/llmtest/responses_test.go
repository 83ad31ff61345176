package llmtest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A streamed Responses request gets the API's typed events: the text as
// deltas of a message item, each call as a function_call item with its
// arguments, then response.completed carrying every item and the usage;
// a WebSocket upgrade is refused with 426, which sends clients to HTTP.
func TestResponsesStream(t *testing.T) {
	s := Start(t, Script{Responses: []Response{{
		Text:      "héllo there",
		ToolCalls: []ToolCall{{ID: "call_1", Name: "shell", Arguments: `{"command":["ls","-la"]}`}},
		Usage:     &Usage{PromptTokens: 50, CompletionTokens: 7},
		ChunkSize: 3,
	}}})
	ws, err := http.Get(s.URL() + "/responses")
	if err != nil {
		t.Fatal(err)
	}
	ws.Body.Close()
	if ws.StatusCode != http.StatusUpgradeRequired {
		t.Errorf("GET /responses: %d, want 426", ws.StatusCode)
	}
	resp, err := http.Post(s.URL()+"/responses", "application/json", strings.NewReader(`{"model":"m","stream":true,"input":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var names []string
	var text, args string
	var done map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		name := ev["type"].(string)
		names = append(names, name)
		switch name {
		case "response.output_text.delta":
			text += ev["delta"].(string)
		case "response.function_call_arguments.delta":
			args += ev["delta"].(string)
		case "response.completed":
			done = ev["response"].(map[string]any)
		}
	}
	if text != "héllo there" || args != `{"command":["ls","-la"]}` {
		t.Errorf("text %q, arguments %q", text, args)
	}
	if names[0] != "response.created" || names[len(names)-1] != "response.completed" {
		t.Errorf("events %v", names)
	}
	out, _ := done["output"].([]any)
	if len(out) != 2 || out[1].(map[string]any)["call_id"] != "call_1" || out[1].(map[string]any)["name"] != "shell" {
		t.Errorf("completed output %v", out)
	}
	if u := done["usage"].(map[string]any); u["input_tokens"] != float64(50) || u["output_tokens"] != float64(7) {
		t.Errorf("usage %v", u)
	}
	if rs := s.Requests(); len(rs) != 2 || rs[1].Method != "POST" || !strings.Contains(string(rs[1].Body), `"content":"hi"`) {
		t.Errorf("requests %+v", rs)
	}
}
