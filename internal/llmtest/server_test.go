package llmtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/schema"
)

// post sends a chat completion request and returns the response.
func post(t *testing.T, s *Server, body string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

const streamBody = `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`

// sse reads a stream's data lines until the body ends; done reports a [DONE].
func sse(t *testing.T, r io.Reader) (data []map[string]any, done bool, err error) {
	t.Helper()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		payload, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("line %q is not an SSE data line", line)
		}
		if payload == "[DONE]" {
			done = true
			continue
		}
		var m map[string]any
		if jerr := json.Unmarshal([]byte(payload), &m); jerr != nil {
			return data, done, jerr
		}
		data = append(data, m)
	}
	return data, done, sc.Err()
}

// fragments returns the tool-call fragments of a stream, in order.
func fragments(chunks []map[string]any) []map[string]any {
	var out []map[string]any
	for _, c := range chunks {
		choices, _ := c["choices"].([]any)
		for _, ch := range choices {
			delta, _ := ch.(map[string]any)["delta"].(map[string]any)
			calls, _ := delta["tool_calls"].([]any)
			for _, tc := range calls {
				out = append(out, tc.(map[string]any))
			}
		}
	}
	return out
}

var twoCalls = []ToolCall{
	{ID: "call_a", Name: "tree", Arguments: `{"path":".","max_depth":2}`},
	{ID: "call_b", Name: "bash", Arguments: `{"command":"echo \"héllo\" && ls -la"}`},
}

func TestDialectsOnTheWire(t *testing.T) {
	for _, d := range Dialects() {
		t.Run(string(d), func(t *testing.T) {
			s := Start(t, Script{Dialect: d, Responses: []Response{{Text: "Let me look.", ToolCalls: twoCalls, ArgChunkSize: 5}}})
			resp := post(t, s, streamBody)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			chunks, done, err := sse(t, resp.Body)
			if err != nil || !done {
				t.Fatalf("stream: err %v, [DONE] %v", err, done)
			}
			frags := fragments(chunks)

			checkRebuiltCalls(t, d, frags)
			checkDialectShape(t, d, frags)
			checkTextThenCalls(t, chunks)
		})
	}
}

// checkRebuiltCalls rebuilds the calls the way only dialect d allows and
// checks they are the two scripted.
func checkRebuiltCalls(t *testing.T, d Dialect, frags []map[string]any) {
	t.Helper()
	// A fragment with a name starts a call, the others continue the
	// last one.
	type call struct{ id, name, args string }
	var calls []call
	for _, f := range frags {
		fn := f["function"].(map[string]any)
		if name, _ := fn["name"].(string); name != "" && (len(calls) == 0 || d != RepeatIDs || calls[len(calls)-1].id != f["id"]) {
			id, _ := f["id"].(string)
			calls = append(calls, call{id: id, name: name})
		}
		calls[len(calls)-1].args += fn["arguments"].(string)
	}
	if len(calls) != 2 {
		t.Fatalf("rebuilt %d calls from %d fragments, want 2", len(calls), len(frags))
	}
	for i, c := range calls {
		if c.name != twoCalls[i].Name || c.args != twoCalls[i].Arguments {
			t.Errorf("call %d = %s %s, want %s %s", i, c.name, c.args, twoCalls[i].Name, twoCalls[i].Arguments)
		}
	}
}

// checkDialectShape checks what makes dialect d what it is: which
// fragments carry an ID and an index.
func checkDialectShape(t *testing.T, d Dialect, frags []map[string]any) {
	t.Helper()
	withID, withIndex := 0, 0
	indexes := map[float64]bool{}
	for _, f := range frags {
		if _, ok := f["id"]; ok {
			withID++
		}
		if ix, ok := f["index"]; ok {
			withIndex++
			indexes[ix.(float64)] = true
		}
	}
	n := len(frags)
	switch d {
	case OpenAI:
		if withIndex != n || withID != 2 || len(indexes) != 2 {
			t.Errorf("openai: %d/%d fragments with index (%d distinct), %d with ID; want all, 2, 2", withIndex, n, len(indexes), withID)
		}
	case RepeatIDs:
		if withIndex != n || withID != n {
			t.Errorf("repeat-ids: %d/%d with index, %d/%d with ID; want all", withIndex, n, withID, n)
		}
	case NoIndex:
		if withIndex != 0 || withID != 2 {
			t.Errorf("no-index: %d fragments with index, %d with ID; want 0 and 2", withIndex, withID)
		}
	case WholeCalls:
		if n != 2 || withID != 2 {
			t.Errorf("whole-calls: %d fragments, %d with ID; want 2 and 2", n, withID)
		}
	case IndexZero:
		if withIndex != n || len(indexes) != 1 || !indexes[0] || withID != 2 {
			t.Errorf("index-zero: indexes %v on %d/%d fragments, %d IDs; want only 0 on all, 2 IDs", indexes, withIndex, n, withID)
		}
	case NoIDs:
		if withID != 0 || withIndex != n {
			t.Errorf("no-ids: %d fragments with an ID, %d/%d with index; want 0 and all", withID, withIndex, n)
		}
	}
	if d != WholeCalls && n < 6 {
		t.Errorf("%d fragments: the arguments were not split", n)
	}
}

// checkTextThenCalls checks that the text comes before the calls and the
// finish reason says tool_calls.
func checkTextThenCalls(t *testing.T, chunks []map[string]any) {
	t.Helper()
	var text strings.Builder
	for _, c := range chunks {
		for _, ch := range c["choices"].([]any) {
			if s, ok := ch.(map[string]any)["delta"].(map[string]any)["content"].(string); ok {
				text.WriteString(s)
			}
		}
	}
	if text.String() != "Let me look." {
		t.Errorf("text %q", text.String())
	}
	last := chunks[len(chunks)-1]["choices"].([]any)[0].(map[string]any)
	if last["finish_reason"] != "tool_calls" {
		t.Errorf("finish_reason %v, want tool_calls", last["finish_reason"])
	}
}

// TestOpenAIClientMergesOpenAIDialect checks the server against the client
// fawn uses: what it streams merges into the scripted message.
func TestOpenAIClientMergesOpenAIDialect(t *testing.T) {
	s := Start(t, Script{Responses: []Response{{
		Reasoning: "thinking it over", Text: "Let me look.", ToolCalls: twoCalls,
		Usage: &Usage{PromptTokens: 120, CompletionTokens: 30, CachedTokens: 100},
	}}})
	ctx := context.Background()
	cm, err := openai.NewChatModel(ctx, &openai.ChatModelConfig{BaseURL: s.URL(), Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	sr, err := cm.Stream(ctx, []*schema.Message{schema.UserMessage("hi")})
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	var msgs []*schema.Message
	for {
		m, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	if len(msgs) < 4 {
		t.Errorf("%d chunks: the response was not streamed", len(msgs))
	}
	m, err := schema.ConcatMessages(msgs)
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "Let me look." || m.ReasoningContent != "thinking it over" {
		t.Errorf("content %q, reasoning %q", m.Content, m.ReasoningContent)
	}
	if len(m.ToolCalls) != 2 || m.ToolCalls[0].ID != "call_a" || m.ToolCalls[1].Function.Arguments != twoCalls[1].Arguments {
		t.Errorf("tool calls %+v", m.ToolCalls)
	}
	u := m.ResponseMeta.Usage
	if u == nil || u.PromptTokens != 120 || u.CompletionTokens != 30 || u.PromptTokenDetails.CachedTokens != 100 {
		t.Errorf("usage %+v", u)
	}
	reqs := s.ChatRequests()
	if len(reqs) != 1 || !reqs[0].Stream || reqs[0].Messages[0].Content != "hi" {
		t.Fatalf("recorded %+v", reqs)
	}
	if h := s.Requests()[0].Header.Get("Authorization"); h != "" {
		t.Errorf("an empty key sent Authorization %q", h)
	}
}

func TestNonStreaming(t *testing.T) {
	s := Start(t, Script{Dialect: NoIDs, Responses: []Response{
		{Text: "done", Usage: &Usage{PromptTokens: 5, CompletionTokens: 1}},
		{ToolCalls: twoCalls},
	}})
	ctx := context.Background()
	cm, err := openai.NewChatModel(ctx, &openai.ChatModelConfig{BaseURL: s.URL(), Model: "m", APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := cm.Generate(ctx, []*schema.Message{schema.UserMessage("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "done" || m.ResponseMeta.Usage.PromptTokens != 5 {
		t.Errorf("got %q usage %+v", m.Content, m.ResponseMeta.Usage)
	}
	m, err = cm.Generate(ctx, []*schema.Message{schema.UserMessage("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ToolCalls) != 2 || m.ToolCalls[0].ID != "" || m.ToolCalls[1].Function.Name != "bash" {
		t.Errorf("no-ids calls %+v", m.ToolCalls)
	}
	if got := s.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization %q", got)
	}
}

func TestHTTPFaults(t *testing.T) {
	s := Start(t, Script{Responses: []Response{
		{Fault: &Fault{Kind: RateLimit, RetryAfter: 7}},
		{Fault: &Fault{Kind: ServerError}},
		{Fault: &Fault{Kind: ServerError, Status: 503, Message: "overloaded"}},
		{Fault: &Fault{Kind: ContextLength}},
		{Text: "finally"},
	}})
	type want struct {
		status     int
		retryAfter string
		code, msg  string
	}
	for i, w := range []want{
		{429, "7", "", "Rate limit"},
		{500, "", "", "server had an error"},
		{503, "", "", "overloaded"},
		{400, "", "context_length_exceeded", "maximum context length"},
	} {
		resp := post(t, s, streamBody)
		var body struct {
			Error struct {
				Message string `json:"message"`
				Code    any    `json:"code"`
			} `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		if resp.StatusCode != w.status || resp.Header.Get("Retry-After") != w.retryAfter || !strings.Contains(body.Error.Message, w.msg) {
			t.Errorf("response %d: status %d, Retry-After %q, message %q; want %d %q %q", i, resp.StatusCode, resp.Header.Get("Retry-After"), body.Error.Message, w.status, w.retryAfter, w.msg)
		}
		if w.code != "" && body.Error.Code != w.code {
			t.Errorf("response %d: code %v, want %s", i, body.Error.Code, w.code)
		}
	}
	resp := post(t, s, streamBody)
	if resp.StatusCode != 200 {
		t.Fatalf("after the faults: status %d", resp.StatusCode)
	}
	if _, done, err := sse(t, resp.Body); err != nil || !done {
		t.Errorf("after the faults: %v, done %v", err, done)
	}
	// The script is over now, and says so.
	resp = post(t, s, streamBody)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(b), "script is over") {
		t.Errorf("past the end: %d %s", resp.StatusCode, b)
	}
	if s.Served() != 5 || len(s.Requests()) != 6 {
		t.Errorf("served %d, recorded %d", s.Served(), len(s.Requests()))
	}
}

func TestStreamFaults(t *testing.T) {
	long := Response{Text: strings.Repeat("word ", 20), ChunkSize: 5} // 20 text chunks
	t.Run("drop", func(t *testing.T) {
		r := long
		r.Fault = &Fault{Kind: Drop, After: 3}
		s := Start(t, Script{Responses: []Response{r}})
		resp := post(t, s, streamBody)
		chunks, done, err := sse(t, resp.Body)
		if err == nil || done || len(chunks) != 3 {
			t.Errorf("got %d chunks, done %v, err %v; want 3 chunks then a broken connection", len(chunks), done, err)
		}
	})
	t.Run("malformed", func(t *testing.T) {
		r := long
		r.Fault = &Fault{Kind: Malformed, After: 2}
		s := Start(t, Script{Responses: []Response{r}})
		resp := post(t, s, streamBody)
		chunks, _, err := sse(t, resp.Body)
		var se *json.SyntaxError
		if !errors.As(err, &se) || len(chunks) != 2 {
			t.Errorf("got %d chunks and %v; want 2 chunks then a JSON syntax error", len(chunks), err)
		}
	})
	t.Run("no-done", func(t *testing.T) {
		r := long
		r.Fault = &Fault{Kind: NoDone}
		s := Start(t, Script{Responses: []Response{r}})
		resp := post(t, s, streamBody)
		chunks, done, err := sse(t, resp.Body)
		if err != nil || done || len(chunks) != 21 {
			t.Errorf("got %d chunks, done %v, err %v; want 21 and a clean end without [DONE]", len(chunks), done, err)
		}
	})
	t.Run("stall", func(t *testing.T) {
		r := long
		r.Fault = &Fault{Kind: Stall, After: 4}
		s := Start(t, Script{Responses: []Response{r}})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(streamBody))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		br := bufio.NewReader(resp.Body)
		got := 0
		for got < 4 {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("after %d chunks: %v", got, err)
			}
			if strings.HasPrefix(line, "data: ") {
				got++
			}
		}
		// Nothing more comes: a read in the background stays blocked until we leave.
		more := make(chan error, 1)
		go func() {
			for {
				line, err := br.ReadString('\n')
				if err != nil {
					more <- err
					return
				}
				if strings.HasPrefix(line, "data: ") {
					more <- errors.New("a chunk arrived during the stall: " + line)
					return
				}
			}
		}()
		cancel()
		if err := <-more; err == nil || strings.Contains(err.Error(), "during the stall") {
			t.Errorf("read after the stall: %v", err)
		}
	})
	t.Run("stall then resume", func(t *testing.T) {
		r := long
		r.Fault = &Fault{Kind: Stall, After: 4, Stall: Duration(50 * time.Millisecond)}
		s := Start(t, Script{Responses: []Response{r}})
		resp := post(t, s, streamBody)
		chunks, done, err := sse(t, resp.Body)
		if err != nil || !done || len(chunks) != 21 {
			t.Errorf("got %d chunks, done %v, err %v", len(chunks), done, err)
		}
	})
	t.Run("close ends a stall", func(t *testing.T) {
		r := long
		r.Fault = &Fault{Kind: Stall, After: 1}
		s := NewServer(Script{Responses: []Response{r}})
		resp := post(t, s, streamBody)
		br := bufio.NewReader(resp.Body)
		if _, err := br.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		s.Close() // must not wait for the stalled handler forever
		rest, _ := io.ReadAll(br)
		if strings.Contains(string(rest), "[DONE]") {
			t.Errorf("a stall without a duration finished the response: %q", rest)
		}
	})
}

func TestHistoryChecks(t *testing.T) {
	s := Start(t, Script{Loop: true, Responses: []Response{{Text: "ok"}}})
	cases := []struct {
		name, messages, want string
	}{
		{"answered", `[{"role":"user","content":"hi"},{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"x","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]`, ""},
		{"unanswered", `[{"role":"user","content":"hi"},{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"x","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"x","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]`, "did not have response messages: c2"},
		{"orphan tool message", `[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c9","content":"r"}]`, "must be a response"},
		{"content parts", `[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]`, ""},
	}
	for _, c := range cases {
		resp := post(t, s, `{"model":"m","stream":false,"messages":`+c.messages+`}`)
		b, _ := io.ReadAll(resp.Body)
		if c.want == "" && resp.StatusCode != 200 || c.want != "" && (resp.StatusCode != 400 || !strings.Contains(string(b), c.want)) {
			t.Errorf("%s: %d %s", c.name, resp.StatusCode, b)
		}
	}
	last := s.ChatRequests()[3]
	if last.Messages[0].Content != "ab" {
		t.Errorf("content parts joined to %q", last.Messages[0].Content)
	}
	// Loop served the one response four times.
	if s.Served() != 2 {
		t.Errorf("served %d, want 2 (two requests were refused before the script)", s.Served())
	}
}

func TestModelsAndRoutes(t *testing.T) {
	s := Start(t, Script{Models: []string{"a", "b"}})
	resp, err := http.Get(s.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Data) != 2 || list.Data[1].ID != "b" {
		t.Errorf("models: %+v %v", list, err)
	}
	resp2, err := http.Post(strings.TrimSuffix(s.URL(), "/v1")+"/chat/completions", "application/json", strings.NewReader(streamBody))
	if err != nil {
		t.Fatal(err)
	}
	defer resp2.Body.Close()
	b, _ := io.ReadAll(resp2.Body)
	if resp2.StatusCode != 404 || !strings.Contains(string(b), "must end in /v1") {
		t.Errorf("wrong base URL: %d %s", resp2.StatusCode, b)
	}
}

func TestRequestFieldsRecorded(t *testing.T) {
	s := Start(t, Script{Responses: []Response{{Text: "x"}}})
	resp := post(t, s, `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}],"top_k":40,"chat_template_kwargs":{"thinking":true}}`)
	_, _ = io.ReadAll(resp.Body)
	f := s.ChatRequests()[0].Fields
	if string(f["top_k"]) != "40" || !strings.Contains(string(f["chat_template_kwargs"]), `"thinking":true`) {
		t.Errorf("fields %v", f)
	}
}

func TestLoadScript(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	y := write("s.yaml", `
dialect: index-zero
responses:
  - text: "Looking."
    tool_calls:
      - {name: tree, arguments: '{"path":"."}'}
    delay: 20ms
  - fault: {kind: rate-limit, retry_after: 2}
  - fault: {kind: stall, after: 1, stall: 1500}
  - text: done
`)
	s, err := LoadScript(y)
	if err != nil {
		t.Fatal(err)
	}
	if s.Dialect != IndexZero || len(s.Responses) != 4 || s.Responses[0].Delay.D() != 20*time.Millisecond ||
		s.Responses[1].Fault.RetryAfter != 2 || s.Responses[2].Fault.Stall.D() != 1500*time.Millisecond {
		t.Errorf("loaded %+v", s)
	}
	j := write("s.json", `{"responses":[{"text":"hi","usage":{"prompt_tokens":3,"completion_tokens":1}}]}`)
	if s, err := LoadScript(j); err != nil || s.Responses[0].Usage.PromptTokens != 3 {
		t.Errorf("json: %+v %v", s, err)
	}
	for name, text := range map[string]string{
		"typo.json":    `{"responses":[{"txt":"hi"}]}`,
		"dialect.yaml": "dialect: klingon\n",
		"fault.yaml":   "responses:\n  - fault: {kind: meteor}\n",
		"status.yaml":  "responses:\n  - fault: {kind: server-error, status: 200}\n",
		"noname.yaml":  "responses:\n  - tool_calls: [{arguments: '{}'}]\n",
		"syntax.yaml":  "responses: [\n",
		"dur.yaml":     "responses:\n  - delay: soon\n",
		"s.txt":        "",
	} {
		if _, err := LoadScript(write(name, text)); err == nil {
			t.Errorf("%s: loaded without an error", name)
		} else if !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}

func TestExampleScriptLoads(t *testing.T) {
	s, err := LoadScript(filepath.Join("cmd", "llmserve", "example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Responses) < 3 {
		t.Errorf("example has %d responses", len(s.Responses))
	}
}

// TestAnthropicChecks: the Messages route rejects, as Anthropic does, the
// histories a client must not send.
func TestAnthropicChecks(t *testing.T) {
	s := Start(t, Script{Loop: true, Responses: []Response{{Text: "ok"}}})
	post := func(body string) (int, string) {
		req, _ := http.NewRequest("POST", s.URL()+"/messages", strings.NewReader(body))
		req.Header.Set("Anthropic-Version", "2023-06-01")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tc := range []struct{ body, want string }{
		{`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"},{"role":"user","content":"again"}]}`, "roles must alternate"},
		{`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"text","text":" "}]}]}`, "non-whitespace"},
		{`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":{}}]},{"role":"user","content":"no result"}]}`, "without `tool_result`"},
		{`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9"}]}]}`, "unexpected `tool_use_id`"},
		{`{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "max_tokens"},
	} {
		if code, body := post(tc.body); code != 400 || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s, want 400 saying %q", tc.body, code, body, tc.want)
		}
	}
	code, body := post(`{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	for _, want := range []string{"event: message_start", `"text":"ok"`, `"stop_reason":"end_turn"`, "event: message_stop"} {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("stream %d lacks %s:\n%s", code, want, body)
		}
	}
}

// A ServerError with a Body answers that body as it is, as a proxy's page.
func TestServerErrorBody(t *testing.T) {
	s := Start(t, Script{Responses: []Response{{Fault: &Fault{Kind: ServerError, Status: 401, Body: "<h1>401</h1> Authorization: Bearer sk-x"}}}})
	resp := post(t, s, streamBody)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 401 || string(b) != "<h1>401</h1> Authorization: Bearer sk-x" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("status %d, %s: %q", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
}

// Respond answers each request from what it holds, in place of a list;
// Forget keeps no request.
func TestRespondAnswersFromTheRequest(t *testing.T) {
	var seen []int
	s := Start(t, Script{Forget: true, Respond: func(req *ChatRequest, n int) Response {
		seen = append(seen, n)
		last := req.Messages[len(req.Messages)-1]
		return Response{Text: "you said " + string(last.Content) + " to " + req.Model}
	}})
	for _, say := range []string{"one", "two"} {
		resp := post(t, s, `{"model":"m1","stream":false,"messages":[{"role":"user","content":"`+say+`"}]}`)
		var out struct {
			Choices []struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) != 1 {
			t.Fatalf("answer: %v %+v", err, out)
		}
		if got, want := out.Choices[0].Message.Content, "you said "+say+" to m1"; got != want {
			t.Errorf("answer %q, want %q", got, want)
		}
	}
	data, done, err := sse(t, post(t, s, streamBody).Body)
	if err != nil || !done || len(data) == 0 {
		t.Fatalf("stream: %v done=%v %d chunks", err, done, len(data))
	}
	if len(seen) != 3 || seen[0] != 0 || seen[2] != 2 || s.Served() != 3 {
		t.Errorf("Respond saw n=%v, served %d; want [0 1 2], 3", seen, s.Served())
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests kept with Forget", n)
	}
}
