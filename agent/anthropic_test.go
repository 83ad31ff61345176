// The anthropic provider (eino-ext claude v0.1.24) assigns its Stream's
// named error result from the goroutine that reads the SSE stream
// (claude.go:439, after an empty chunk such as message_start), so the race
// detector reports every Anthropic stream. The write comes after Stream has
// returned and nothing reads it, so this test runs only without -race:
// go test -count=1 -run Anthropic ./agent
//go:build !race

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
)

// anthropicServer speaks just enough of the Anthropic Messages API (SSE) to
// drive the anthropic provider: one scripted stream per request, 429 first.
type anthropicServer struct {
	mu     sync.Mutex
	bodies []map[string]any
	heads  []http.Header
	n      int
}

func (a *anthropicServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/messages" {
		http.Error(w, "no route "+r.URL.Path, http.StatusNotFound)
		return
	}
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	a.mu.Lock()
	a.bodies = append(a.bodies, body)
	a.heads = append(a.heads, r.Header.Clone())
	n := a.n
	a.n++
	a.mu.Unlock()

	if n == 0 {
		w.Header().Set("Retry-After", "0")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(typ, data string) {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, data)
		w.(http.Flusher).Flush()
	}
	ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":50,"output_tokens":1}}}`)
	if n == 1 {
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants a.txt."}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig-123"}}`)
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Reading it."}}`)
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`)
		ev("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"path\":"}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\"a.txt\"}"}}`)
		ev("content_block_stop", `{"type":"content_block_stop","index":2}`)
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":20}}`)
	} else {
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It says A."}}`)
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`)
	}
	ev("message_stop", `{"type":"message_stop"}`)
}

func TestAnthropicProvider(t *testing.T) {
	fake := &anthropicServer{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	root := t.TempDir()
	cfg := &config.Config{
		Models: config.Models{Chat: config.Model{Type: "anthropic", Model: "claude-test", APIKey: "sk-ant-test",
			BaseURL: srv.URL + "/v1", StallTimeout: 15 * time.Second}},
		Permissions: config.Permissions{Mode: "ask"},
		ConfigDir:   t.TempDir(),
	}
	s, err := NewSession(context.Background(), Options{Config: cfg, Env: &tools.Env{Root: root}, Tools: testTools(root),
		Interactive: true, RetryBaseDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if s.ModelName() != "anthropic/claude-test" {
		t.Errorf("ModelName %q", s.ModelName())
	}
	h := &harness{t: t, root: root, s: s}
	h.write("a.txt", "A")
	evs := collect(t, s.Run(context.Background(), "what is in a.txt?"), nil)
	checkInvariants(t, evs)
	checkHistory(t, s)
	got := render(evs)
	for _, want := range []string{
		`retry attempt 1/4 "rate limited (429)"`,
		`reasoning "The user wants a.txt."`,
		`text "Reading it."`,
		`tool_call_ready c1 read_file {"path":"a.txt"}`,
		`tool_run_ended c1 read_file error=false "A"`,
		`text "It says A."`,
		`in=100 out=25`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("events lack %s:\n%s", want, got)
		}
	}
	// Exactly one request per attempt: the SDK did not retry the 429 itself.
	if fake.n != 3 {
		t.Errorf("%d requests, want 3 (429, tool call, answer)", fake.n)
	}
	if k := fake.heads[1].Get("X-Api-Key"); k != "sk-ant-test" {
		t.Errorf("x-api-key %q", k)
	}
	// The history went back with the tool result under the call's ID, and
	// the thinking block with its signature.
	b, _ := json.Marshal(fake.bodies[2]["messages"])
	for _, want := range []string{`"tool_use_id":"toolu_1"`, `"signature":"sig-123"`, `"id":"toolu_1"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("third request lacks %s: %s", want, b)
		}
	}
}
