package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
	orderedmap "github.com/wk8/go-ordered-map/v2"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
)

// streamed is one answer as the agent reads it: every chunk, merged, or
// the error the stream or the request ended with.
type streamed struct {
	chunks []*schema.Message
	msg    *schema.Message
	err    error // from Stream (status) or from Recv
}

// openaiClient is New's client of srv, its transport recording responses.
func openaiClient(t *testing.T, srv *llmtest.Server, key string, extra map[string]any) Client {
	t.Helper()
	c, err := New(context.Background(), config.Model{Type: "openai", Model: "scripted", BaseURL: srv.URL(), APIKey: key, ExtraBody: extra},
		Options{HTTPClient: HTTPClient(nil)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// streamOnce streams one answer as the agent does: with a normalizer and
// a capture in the context.
func streamOnce(ctx context.Context, c Client, in []*schema.Message) (streamed, *Capture) {
	capture := &Capture{}
	ctx = WithNormalizer(WithCapture(ctx, capture), NewNormalizer(NewIDSet()))
	sr, err := c.Chat.Stream(ctx, in, StreamOptions()...)
	if err != nil {
		return streamed{err: err}, capture
	}
	defer sr.Close()
	var s streamed
	for {
		m, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			s.err = err
			return s, capture
		}
		s.chunks = append(s.chunks, m)
	}
	if len(s.chunks) > 0 {
		s.msg, s.err = schema.ConcatMessages(s.chunks)
	}
	return s, capture
}

func finishOf(s streamed) string {
	for _, c := range s.chunks {
		if c.ResponseMeta != nil && c.ResponseMeta.FinishReason != "" {
			return c.ResponseMeta.FinishReason
		}
	}
	return ""
}

// Every dialect's tool-call fragments come out as whole calls with IDs of
// their own, after the text, over real HTTP and SSE.
func TestOpenAIStreamDialects(t *testing.T) {
	calls := []llmtest.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go","note":"say \"hi\"\n"}`},
		{ID: "call_b", Name: "bash", Arguments: `{"command":"ls -la"}`},
	}
	for _, d := range llmtest.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Script{Dialect: d, Responses: []llmtest.Response{
				{Text: "Looking.", ChunkSize: 3, ArgChunkSize: 5, ToolCalls: calls},
			}})
			s, _ := streamOnce(context.Background(), openaiClient(t, srv, "", nil), []*schema.Message{schema.UserMessage("go")})
			if s.err != nil {
				t.Fatal(s.err)
			}
			if s.msg.Content != "Looking." || finishOf(s) != "tool_calls" {
				t.Errorf("text %q, finish %q", s.msg.Content, finishOf(s))
			}
			if len(s.msg.ToolCalls) != 2 {
				t.Fatalf("%d calls, want 2: %+v", len(s.msg.ToolCalls), s.msg.ToolCalls)
			}
			ids := map[string]bool{}
			for i, tc := range s.msg.ToolCalls {
				if tc.Function.Name != calls[i].Name || tc.Function.Arguments != calls[i].Arguments || tc.Type != "function" {
					t.Errorf("call %d = %s(%s) %q, want %s(%s)", i, tc.Function.Name, tc.Function.Arguments, tc.Type, calls[i].Name, calls[i].Arguments)
				}
				if tc.ID == "" || ids[tc.ID] {
					t.Errorf("call %d has ID %q (IDs so far %v)", i, tc.ID, ids)
				}
				ids[tc.ID] = true
			}
		})
	}
}

// Reasoning arrives in either field servers use, before the text; the
// usage in a trailing chunk or in the last one, cached tokens included.
func TestOpenAIStreamReasoningAndUsage(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		for _, last := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/usage-in-last-chunk=%v", field, last), func(t *testing.T) {
				srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{
					Reasoning: "Think first.", ReasoningField: field, Text: "Answer.", ChunkSize: 4,
					Usage:            &llmtest.Usage{PromptTokens: 120, CompletionTokens: 7, CachedTokens: 100},
					UsageInLastChunk: last,
				}}})
				s, _ := streamOnce(context.Background(), openaiClient(t, srv, "", nil), []*schema.Message{schema.UserMessage("go")})
				if s.err != nil {
					t.Fatal(s.err)
				}
				if s.msg.ReasoningContent != "Think first." || s.msg.Content != "Answer." {
					t.Errorf("reasoning %q, text %q", s.msg.ReasoningContent, s.msg.Content)
				}
				if s.chunks[0].ReasoningContent == "" {
					t.Errorf("the first chunk is not reasoning: %+v", s.chunks[0])
				}
				u := s.msg.ResponseMeta.Usage
				if u == nil || u.PromptTokens != 120 || u.CompletionTokens != 7 || u.PromptTokenDetails.CachedTokens != 100 {
					t.Errorf("usage %+v", u)
				}
				if finishOf(s) != "stop" {
					t.Errorf("finish %q", finishOf(s))
				}
			})
		}
	}
}

// Each fault ends the way the agent's retry logic reads it: the status
// and the server's words of an HTTP error, the context window by its code,
// a transport error or a decode error mid-stream, a clean end without a
// finish reason.
func TestOpenAIStreamFaults(t *testing.T) {
	text := "abcdefghijklmnop"
	for _, c := range []struct {
		name  string
		fault llmtest.Fault
		check func(t *testing.T, s streamed, se ServerError, c *Capture)
	}{
		{"rate limit", llmtest.Fault{Kind: llmtest.RateLimit, RetryAfter: 7}, func(t *testing.T, s streamed, se ServerError, c *Capture) {
			_, after, has, _ := c.Get()
			if se.Status != 429 || !strings.Contains(se.Message, "Rate limit") || !has || after != 7*time.Second {
				t.Errorf("%+v, Retry-After %v %v", se, after, has)
			}
		}},
		{"server error", llmtest.Fault{Kind: llmtest.ServerError, Status: 503, Message: "busy"}, func(t *testing.T, s streamed, se ServerError, _ *Capture) {
			if se.Status != 503 || se.Message != "busy" {
				t.Errorf("%+v", se)
			}
		}},
		{"a proxy's page", llmtest.Fault{Kind: llmtest.ServerError, Status: 502, Body: "<html>Bad Gateway</html>"}, func(t *testing.T, s streamed, se ServerError, _ *Capture) {
			if se.Status != 502 || se.Message != "" || !strings.Contains(s.err.Error(), "Bad Gateway") {
				t.Errorf("%+v: %v", se, s.err)
			}
		}},
		{"context length", llmtest.Fault{Kind: llmtest.ContextLength}, func(t *testing.T, s streamed, se ServerError, _ *Capture) {
			if se.Status != 400 || !se.ContextLength || !strings.Contains(se.Message, "maximum context length") {
				t.Errorf("%+v", se)
			}
		}},
		{"drop", llmtest.Fault{Kind: llmtest.Drop, After: 2}, func(t *testing.T, s streamed, _ ServerError, _ *Capture) {
			if s.err == nil || len(s.chunks) == 0 {
				t.Errorf("%d chunks, err %v", len(s.chunks), s.err)
			}
		}},
		{"malformed", llmtest.Fault{Kind: llmtest.Malformed, After: 2}, func(t *testing.T, s streamed, _ ServerError, _ *Capture) {
			if s.err == nil || !strings.Contains(s.err.Error(), "JSON input") && !strings.Contains(s.err.Error(), "invalid character") {
				t.Errorf("err %v", s.err)
			}
		}},
		{"no [DONE]", llmtest.Fault{Kind: llmtest.NoDone}, func(t *testing.T, s streamed, _ ServerError, _ *Capture) {
			if s.err != nil || s.msg.Content != text || finishOf(s) != "stop" {
				t.Errorf("%q %q %v", s.msg.Content, finishOf(s), s.err)
			}
		}},
		{"cut", llmtest.Fault{Kind: llmtest.Cut, After: 2}, func(t *testing.T, s streamed, _ ServerError, _ *Capture) {
			if s.err != nil || len(s.chunks) == 0 || finishOf(s) != "" {
				t.Errorf("%d chunks, finish %q, err %v", len(s.chunks), finishOf(s), s.err)
			}
		}},
		{"stream error", llmtest.Fault{Kind: llmtest.StreamError, After: 2, Message: "overloaded"}, func(t *testing.T, s streamed, se ServerError, _ *Capture) {
			if s.err == nil || se.Message == "" || len(s.chunks) == 0 {
				t.Errorf("%d chunks, %+v, err %v", len(s.chunks), se, s.err)
			}
		}},
		{"empty body", llmtest.Fault{Kind: llmtest.Empty}, func(t *testing.T, s streamed, _ ServerError, c *Capture) {
			if s.err != nil || len(s.chunks) != 0 || c.NotAStream() {
				t.Errorf("%d chunks, err %v", len(s.chunks), s.err)
			}
		}},
		{"not SSE", llmtest.Fault{Kind: llmtest.NotSSE}, func(t *testing.T, s streamed, _ ServerError, c *Capture) {
			if len(s.chunks) != 0 || !c.NotAStream() {
				t.Errorf("%d chunks, not a stream %v", len(s.chunks), c.NotAStream())
			}
		}},
		{"a whole JSON body", llmtest.Fault{Kind: llmtest.JSONBody}, func(t *testing.T, s streamed, _ ServerError, c *Capture) {
			if len(s.chunks) != 0 || !c.NotAStream() {
				t.Errorf("%d chunks, not a stream %v", len(s.chunks), c.NotAStream())
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := c.fault
			srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: text, ChunkSize: 3, Fault: &f}}})
			s, capture := streamOnce(context.Background(), openaiClient(t, srv, "", nil), []*schema.Message{schema.UserMessage("go")})
			status, _, _, _ := capture.Get()
			se := ServerError{}
			if s.err != nil {
				se = ErrorOf(s.err, status)
			}
			c.check(t, s, se, capture)
		})
	}
}

// A stall holds the answer until the request's context ends, which ends
// the stream with the context's error.
func TestOpenAIStreamStallEndsWithTheContext(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "abcdefghi", ChunkSize: 3, Fault: &llmtest.Fault{Kind: llmtest.Stall, After: 1}}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := openaiClient(t, srv, "", nil)
	sr, err := c.Chat.Stream(ctx, []*schema.Message{schema.UserMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	first, err := sr.Recv()
	if err != nil || first.Content != "abc" {
		t.Fatalf("first chunk %+v, %v", first, err)
	}
	cancel()
	if _, err := sr.Recv(); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("after the cancel: %v, want the context's error", err)
	}
}

// The request carries what the configuration and the history say, in the
// shape OpenAI-compatible servers take: the key as a bearer token (none
// when there is no key), the tools with their required lists sorted and
// tool_choice auto, the usage asked for, images inline, a tool result's
// content even when empty, reasoning sent back, extra_body over fawn's own
// fields.
func TestOpenAIRequest(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "ok"}}})
	c := openaiClient(t, srv, "sk-test-1234", map[string]any{"temperature": 0.25, "top_k": 40})
	props := orderedmap.New[string, *jsonschema.Schema]()
	props.Set("b", &jsonschema.Schema{Type: "string"})
	props.Set("a", &jsonschema.Schema{Type: "string"})
	chat, err := c.Chat.WithTools([]*schema.ToolInfo{{Name: "pick", Desc: "Picks.",
		ParamsOneOf: schema.NewParamsOneOfByJSONSchema(&jsonschema.Schema{Type: "object", Properties: props, Required: []string{"b", "a"}})}})
	if err != nil {
		t.Fatal(err)
	}
	c.Chat = chat
	img := "aGk="
	idx := 0
	history := []*schema.Message{
		schema.SystemMessage("Be brief."),
		{Role: schema.User, UserInputMultiContent: []schema.MessageInputPart{
			{Type: schema.ChatMessagePartTypeText, Text: "what is this"},
			{Type: schema.ChatMessagePartTypeImageURL, Image: &schema.MessageInputImage{MessagePartCommon: schema.MessagePartCommon{Base64Data: &img, MIMEType: "image/png"}}},
		}},
		{Role: schema.Assistant, ReasoningContent: "hm", ToolCalls: []schema.ToolCall{{Index: &idx, ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "pick", Arguments: `{"a":"x","b":"y"}`}}}},
		{Role: schema.Tool, ToolCallID: "call_1", Content: ""},
	}
	if s, _ := streamOnce(context.Background(), c, history); s.err != nil || s.msg.Content != "ok" {
		t.Fatalf("%+v", s)
	}
	reqs := srv.Requests()
	req := reqs[len(reqs)-1]
	if got := req.Header.Get("Authorization"); got != "Bearer sk-test-1234" {
		t.Errorf("Authorization %q", got)
	}
	if req.Path != "/v1/chat/completions" || req.Header.Get("Accept") != "text/event-stream" {
		t.Errorf("path %q, Accept %q", req.Path, req.Header.Get("Accept"))
	}
	var body struct {
		Model         string            `json:"model"`
		Stream        bool              `json:"stream"`
		Temperature   float64           `json:"temperature"`
		TopK          int               `json:"top_k"`
		ToolChoice    string            `json:"tool_choice"`
		StreamOptions map[string]bool   `json:"stream_options"`
		Messages      []json.RawMessage `json:"messages"`
		Tools         []struct {
			Type     string `json:"type"`
			Function struct {
				Name       string `json:"name"`
				Parameters struct {
					Required []string `json:"required"`
				} `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "scripted" || !body.Stream || body.Temperature != 0.25 || body.TopK != 40 || body.ToolChoice != "auto" || !body.StreamOptions["include_usage"] {
		t.Errorf("request %s", req.Body)
	}
	if len(body.Tools) != 1 || body.Tools[0].Type != "function" || body.Tools[0].Function.Name != "pick" || strings.Join(body.Tools[0].Function.Parameters.Required, ",") != "a,b" {
		t.Errorf("tools %+v", body.Tools)
	}
	want := []string{
		`{"role":"system","content":"Be brief."}`,
		`{"role":"user","content":[{"type":"text","text":"what is this"},{"type":"image_url","image_url":{"url":"data:image/png;base64,aGk="}}]}`,
		`{"role":"assistant","reasoning_content":"hm","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"pick","arguments":"{\"a\":\"x\",\"b\":\"y\"}"}}]}`,
		`{"role":"tool","content":"","tool_call_id":"call_1"}`,
	}
	for i, w := range want {
		if i >= len(body.Messages) || string(body.Messages[i]) != w {
			t.Errorf("message %d:\n got %s\nwant %s", i, body.Messages[min(i, len(body.Messages)-1)], w)
		}
	}

	// Without a key there is no Authorization header at all.
	c = openaiClient(t, srv, "", nil)
	if s, _ := streamOnce(context.Background(), c, []*schema.Message{schema.UserMessage("hi")}); s.err != nil {
		t.Fatal(s.err)
	}
	reqs = srv.Requests()
	if h := reqs[len(reqs)-1].Header; h.Get("Authorization") != "" {
		t.Errorf("Authorization %q without a key", h.Get("Authorization"))
	}
}

// The key never appears in an error, whatever the server answers.
func TestOpenAIErrorsLeaveTheKeyOut(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Fault: &llmtest.Fault{Kind: llmtest.ServerError, Status: http.StatusUnauthorized, Message: "bad key"}}}})
	s, _ := streamOnce(context.Background(), openaiClient(t, srv, "sk-secret-9876", nil), []*schema.Message{schema.UserMessage("go")})
	if s.err == nil || strings.Contains(s.err.Error(), "sk-secret-9876") || ErrorOf(s.err, 0).Status != 401 {
		t.Errorf("err %v", s.err)
	}
}

// cannedBody answers every request with the same event stream.
type cannedBody string

func (b cannedBody) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(strings.NewReader(string(b))), Request: req}, nil
}

// A streamed text chunk costs a bounded number of allocations, from the
// body's bytes to the chunk the agent receives: the text and eino's message
// and little else; no reflection, no copy of the line, no map of extra
// fields, no channel.
func TestOpenAIStreamAllocationsPerChunk(t *testing.T) {
	const chunks = 2000
	var b strings.Builder
	b.WriteString("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n")
	for i := 0; i < chunks; i++ {
		b.WriteString("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"finish_reason\":null}]}\n\n")
	}
	b.WriteString("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	c, err := New(context.Background(), config.Model{Type: "openai", Model: "m", BaseURL: "http://llm.invalid/v1"},
		Options{HTTPClient: &http.Client{Transport: cannedBody(b.String())}})
	if err != nil {
		t.Fatal(err)
	}
	in := []*schema.Message{schema.UserMessage("go")}
	var got int
	allocs := testing.AllocsPerRun(3, func() {
		sr, err := c.Chat.Stream(context.Background(), in, StreamOptions()...)
		if err != nil {
			t.Fatal(err)
		}
		got = 0
		for {
			m, err := sr.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got += len(m.Content)
		}
		sr.Close()
	})
	if got != chunks*len("Hello") {
		t.Fatalf("%d bytes of text, want %d", got, chunks*len("Hello"))
	}
	if per := allocs / chunks; per > 7 {
		t.Errorf("%.1f allocations per chunk, want at most 7", per)
	}
}

// The answer is read in the goroutine that calls Recv: Stream starts no
// goroutine, so a chunk is not handed from one goroutine to another on its
// way to the agent.
func TestOpenAIStreamStartsNoGoroutine(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100; i++ {
		b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"}}]}\n\n")
	}
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	c, err := New(context.Background(), config.Model{Type: "openai", Model: "m", BaseURL: "http://llm.invalid/v1"},
		Options{HTTPClient: &http.Client{Transport: cannedBody(b.String())}})
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	sr, err := c.Chat.Stream(context.Background(), []*schema.Message{schema.UserMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	if _, err := sr.Recv(); err != nil {
		t.Fatal(err)
	}
	if after := runtime.NumGoroutine(); after != before {
		t.Errorf("%d goroutines while the answer streams, %d before", after, before)
	}
}

// The fast reading of a chunk agrees with encoding/json's wherever it
// answers at all, and leaves to encoding/json what it does not read.
func FuzzOpenAIChunk(f *testing.F) {
	for _, seed := range []string{
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}`,
		`{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}`,
		`{"choices":[{"index":0,"delta":{"content":"say \"hi\"\n\u00e9\ud83d\ude00"}}]}`,
		`{"choices":[{"index":0,"delta":{"reasoning_content":"think"}}]}`,
		`{"choices":[{"index":0,"delta":{"reasoning":"think","content":null}}]}`,
		`{"choices":[{"index":0,"delta":{"reasoning":{"text":"x"}}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		`{"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine"}}]}`,
		`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5,"prompt_tokens_details":{"cached_tokens":1}}}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"c"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"x"},"extra":{"a":[1,-2.5e3,true,false,null,"s\"]"]}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"bad \xff utf8"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"x"}}]} trailing`,
		`{"choices":[{"index":0,"delta":{"content":"x"}}`,
		`{"choices":[{"index":00,"delta":{"content":"x"}}]}`,
		`{"choices":[{"index":0,"finish_reason":7}]}`,
		`not json`,
		`{}`,
		` { "choices" : [ { "index" : 0 , "delta" : { "content" : "spaced" } } ] } `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		content, reasoning, finish, choice, ok := fastDelta(data)
		if !ok {
			return
		}
		s := &openaiStream{}
		want, err := s.decode(data)
		if err != nil {
			t.Fatalf("fast read %q (%q %q %q %v), encoding/json failed: %v", data, content, reasoning, finish, choice, err)
		}
		got, _ := s.chunk(data)
		if (got == nil) != (want == nil) || got != nil && (got.Content != want.Content || got.ReasoningContent != want.ReasoningContent ||
			len(want.ToolCalls) > 0 || want.ResponseMeta != nil && want.ResponseMeta.Usage != nil ||
			(got.ResponseMeta == nil) != (want.ResponseMeta == nil) || got.ResponseMeta != nil && got.ResponseMeta.FinishReason != want.ResponseMeta.FinishReason) {
			t.Fatalf("%q: fast %+v, encoding/json %+v", data, got, want)
		}
	})
}
