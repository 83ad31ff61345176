package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// The server also speaks Anthropic's Messages API (POST /v1/messages): the
// same script, streamed as Anthropic's named SSE events (message_start, a
// content block per thinking, text and tool_use, message_delta with the stop
// reason and usage, message_stop), with Anthropic's error bodies, and the
// checks Anthropic makes of a request.

// MessagesRequest is the part of an Anthropic Messages request tests look at.
type MessagesRequest struct {
	Model     string       `json:"model"`
	Stream    bool         `json:"stream"`
	MaxTokens int          `json:"max_tokens"`
	System    Blocks       `json:"system"`
	Messages  []AMessage   `json:"messages"`
	Tools     []AnthropicT `json:"tools,omitempty"`
	// Fields holds every top-level field as sent (extra_body checks).
	Fields map[string]json.RawMessage `json:"-"`
}

// AMessage is one message of an Anthropic request.
type AMessage struct {
	Role    string `json:"role"`
	Content Blocks `json:"content"`
}

// AnthropicT is a tool the client offered the model.
type AnthropicT struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl json.RawMessage `json:"cache_control,omitempty"`
}

// Block is one content block of a message (or of the system prompt).
type Block struct {
	Type         string          `json:"type"`
	Text         string          `json:"text,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      json.RawMessage `json:"content,omitempty"`
	IsError      bool            `json:"is_error,omitempty"`
	Thinking     string          `json:"thinking,omitempty"`
	Signature    string          `json:"signature,omitempty"`
	Data         string          `json:"data,omitempty"`
	Source       json.RawMessage `json:"source,omitempty"`
	CacheControl json.RawMessage `json:"cache_control,omitempty"`
}

// Blocks is content given either as a string or as an array of blocks.
type Blocks []Block

// UnmarshalJSON accepts a string (one text block) or an array of blocks.
func (b *Blocks) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*b = Blocks{{Type: "text", Text: s}}
		return nil
	}
	var bs []Block
	if err := json.Unmarshal(data, &bs); err != nil {
		return fmt.Errorf("content: want a string or an array of blocks: %w", err)
	}
	*b = bs
	return nil
}

// Text joins the text of the blocks (and of tool results' text content).
func (b Blocks) Text() string {
	var sb strings.Builder
	for _, x := range b {
		sb.WriteString(x.Text)
		if x.Type == "tool_result" {
			var inner Blocks
			if json.Unmarshal(x.Content, &inner) == nil {
				sb.WriteString(inner.Text())
			}
		}
	}
	return sb.String()
}

// Breakpoints counts the cache_control marks of the request.
func (r *MessagesRequest) Breakpoints() int {
	n := 0
	for _, t := range r.Tools {
		if len(t.CacheControl) > 0 {
			n++
		}
	}
	count := func(bs Blocks) {
		for _, b := range bs {
			if len(b.CacheControl) > 0 {
				n++
			}
		}
	}
	count(r.System)
	for _, m := range r.Messages {
		count(m.Content)
	}
	return n
}

func parseMessages(body []byte) (*MessagesRequest, error) {
	var mr MessagesRequest
	if err := json.Unmarshal(body, &mr); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(body, &mr.Fields); err != nil {
		return nil, err
	}
	return &mr, nil
}

// checkMessages makes the checks Anthropic makes of a request: a limit on
// the output, turns that alternate from the user's, no empty text, every
// tool_use answered by a tool_result at the start of the next turn and no
// result without its call, at most 4 cache breakpoints.
func checkMessages(r *MessagesRequest) error {
	if r.MaxTokens <= 0 {
		return fmt.Errorf("max_tokens: Field required")
	}
	if len(r.Messages) == 0 {
		return fmt.Errorf("messages: at least one message is required")
	}
	if n := r.Breakpoints(); n > 4 {
		return fmt.Errorf("A maximum of 4 blocks with cache_control may be provided. Found %d.", n)
	}
	var pending []string // the calls of the assistant turn before
	for i, m := range r.Messages {
		want := "user"
		if i%2 == 1 {
			want = "assistant"
		}
		if m.Role != want {
			return fmt.Errorf("messages: roles must alternate between \"user\" and \"assistant\", but found multiple %q roles in a row (messages.%d)", m.Role, i)
		}
		if len(m.Content) == 0 {
			return fmt.Errorf("messages.%d: all messages must have non-empty content except for the optional final assistant message", i)
		}
		answered := map[string]bool{}
		results := true
		var calls []string
		for j, b := range m.Content {
			switch b.Type {
			case "text":
				if strings.TrimSpace(b.Text) == "" {
					return fmt.Errorf("messages.%d.content.%d: text content blocks must contain non-whitespace text", i, j)
				}
			case "tool_use":
				if m.Role != "assistant" {
					return fmt.Errorf("messages.%d.content.%d: tool_use blocks are only allowed in assistant messages", i, j)
				}
				calls = append(calls, b.ID)
			case "tool_result":
				if !results {
					return fmt.Errorf("messages.%d: tool_result blocks must come first in the user message", i)
				}
				if !contains(pending, b.ToolUseID) {
					return fmt.Errorf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
				}
				answered[b.ToolUseID] = true
			case "thinking", "redacted_thinking":
				if m.Role != "assistant" {
					return fmt.Errorf("messages.%d.content.%d: thinking blocks are only allowed in assistant messages", i, j)
				}
			}
			if b.Type != "tool_result" {
				results = false
			}
		}
		if m.Role == "user" {
			for _, id := range pending {
				if !answered[id] {
					return fmt.Errorf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, id)
				}
			}
		}
		pending = calls
	}
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	rec := s.record(r, body)
	if r.Method != http.MethodPost {
		writeAnthropicError(w, http.StatusMethodNotAllowed, "invalid_request_error", "llmtest: messages want POST")
		return
	}
	if err != nil || rec.Messages == nil {
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: the request body is not a JSON Messages request")
		return
	}
	if r.Header.Get("Anthropic-Version") == "" {
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", "anthropic-version: header is required")
		return
	}
	if !s.script.Lenient {
		if err := checkMessages(rec.Messages); err != nil {
			writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
			return
		}
	}
	resp, n, ok := s.take()
	if !ok {
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("llmtest: the script is over: request %d has no response left", s.Served()+1))
		return
	}
	if f := resp.Fault; f != nil {
		switch f.Kind {
		case RateLimit:
			if ra := f.RetryAfter; ra >= 0 {
				if ra == 0 {
					ra = 1
				}
				w.Header().Set("Retry-After", strconv.Itoa(ra))
			}
			writeAnthropicError(w, http.StatusTooManyRequests, "rate_limit_error", orDefault(f.Message, "Number of request tokens has exceeded your per-minute rate limit"))
			return
		case ServerError:
			st := f.Status
			if st == 0 {
				st = http.StatusInternalServerError
			}
			if f.Body != "" {
				writeBody(w, st, f.Body)
				return
			}
			typ := "api_error"
			if st == 529 {
				typ = "overloaded_error"
			}
			writeAnthropicError(w, st, typ, orDefault(f.Message, "Internal server error"))
			return
		case ContextLength:
			writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", orDefault(f.Message, "prompt is too long: 210463 tokens > 200000 maximum"))
			return
		}
	}
	if !rec.Messages.Stream {
		s.wholeAnthropic(w, r, resp, n, rec.Messages.Model)
		return
	}
	s.streamAnthropic(w, r, resp, n, rec.Messages.Model)
}

// sseEvent is one named server-sent event.
type sseEvent struct {
	name string
	data string
}

func (s *Server) streamAnthropic(w http.ResponseWriter, r *http.Request, resp Response, n int, model string) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if flusher != nil {
			flusher.Flush()
		}
	}
	flush()
	events := renderAnthropic(resp, n, model)
	f := resp.Fault
	fault := func() bool { // reports whether the response ends here
		switch f.Kind {
		case Drop:
			hijackClose(w)
			return true
		case Malformed:
			_, _ = io.WriteString(w, "event: content_block_delta\ndata: {\"type\": \"content_block_delta\", \"delta\": {\"text\": \"unterminated\n\n")
			flush()
			return true
		case StreamError:
			_, _ = io.WriteString(w, "event: error\ndata: "+anthropicErrorBody("overloaded_error", orDefault(f.Message, "Overloaded"))+"\n\n")
			flush()
			return true
		case Stall:
			return !s.wait(r, f.Stall.D())
		}
		return false
	}
	for i, ev := range events {
		if f != nil && i == f.After && fault() {
			return
		}
		if i > 0 && resp.Delay > 0 && !s.wait(r, resp.Delay.D()) {
			return
		}
		if f != nil && f.Kind == NoDone && ev.name == "message_stop" {
			return
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, ev.data); err != nil {
			return
		}
		flush()
	}
	if f != nil && f.After >= len(events) {
		fault()
	}
}

// renderAnthropic turns a response into its SSE events.
func renderAnthropic(resp Response, n int, model string) []sseEvent {
	var out []sseEvent
	add := func(name string, v map[string]any) {
		v["type"] = name
		b, err := json.Marshal(v)
		if err != nil {
			panic("llmtest: " + err.Error()) // only maps of plain values
		}
		out = append(out, sseEvent{name, string(b)})
	}
	in, read, write, outTok := anthropicUsage(resp.Usage)
	add("message_start", map[string]any{"message": map[string]any{
		"id": fmt.Sprintf("msg_llmtest_%d", n), "type": "message", "role": "assistant", "content": []any{},
		"model": model, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in, "cache_read_input_tokens": read, "cache_creation_input_tokens": write, "output_tokens": 1},
	}})
	add("ping", map[string]any{})

	size := resp.ChunkSize
	if size <= 0 {
		size = 8
	}
	ix := 0
	block := func(start map[string]any, deltas []map[string]any) {
		add("content_block_start", map[string]any{"index": ix, "content_block": start})
		for _, d := range deltas {
			add("content_block_delta", map[string]any{"index": ix, "delta": d})
		}
		add("content_block_stop", map[string]any{"index": ix})
		ix++
	}
	if resp.Reasoning != "" {
		var ds []map[string]any
		for _, p := range splitRunes(resp.Reasoning, size) {
			ds = append(ds, map[string]any{"type": "thinking_delta", "thinking": p})
		}
		sig := resp.Signature
		if sig == "" {
			sig = fmt.Sprintf("sig-llmtest-%d", n)
		}
		ds = append(ds, map[string]any{"type": "signature_delta", "signature": sig})
		block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, ds)
	}
	if resp.Text != "" {
		var ds []map[string]any
		for _, p := range splitRunes(resp.Text, size) {
			ds = append(ds, map[string]any{"type": "text_delta", "text": p})
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	argSize := resp.ArgChunkSize
	if argSize <= 0 {
		argSize = 12
	}
	for i, c := range resp.ToolCalls {
		// As Anthropic sends them: an empty fragment first, then the input.
		ds := []map[string]any{{"type": "input_json_delta", "partial_json": ""}}
		for _, p := range splitRunes(c.Arguments, argSize) {
			ds = append(ds, map[string]any{"type": "input_json_delta", "partial_json": p})
		}
		block(map[string]any{"type": "tool_use", "id": anthropicCallID(c, n, i), "name": c.Name, "input": map[string]any{}}, ds)
	}
	add("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": stopReason(resp), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outTok},
	})
	add("message_stop", map[string]any{})
	return out
}

// wholeAnthropic answers a request that did not ask for a stream.
func (s *Server) wholeAnthropic(w http.ResponseWriter, r *http.Request, resp Response, n int, model string) {
	if f := resp.Fault; f != nil {
		switch f.Kind {
		case Drop:
			hijackClose(w)
			return
		case Stall:
			if !s.wait(r, f.Stall.D()) {
				return
			}
		case Malformed:
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id": "msg_broken", "content": [{"type": "text", "text": "unterminated`)
			return
		}
	}
	var content []any
	if resp.Reasoning != "" {
		content = append(content, map[string]any{"type": "thinking", "thinking": resp.Reasoning, "signature": orDefault(resp.Signature, fmt.Sprintf("sig-llmtest-%d", n))})
	}
	if resp.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": resp.Text})
	}
	for i, c := range resp.ToolCalls {
		var input any = map[string]any{}
		_ = json.Unmarshal([]byte(c.Arguments), &input)
		content = append(content, map[string]any{"type": "tool_use", "id": anthropicCallID(c, n, i), "name": c.Name, "input": input})
	}
	in, read, write, outTok := anthropicUsage(resp.Usage)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": fmt.Sprintf("msg_llmtest_%d", n), "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stopReason(resp), "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in, "cache_read_input_tokens": read, "cache_creation_input_tokens": write, "output_tokens": outTok},
	})
}

// anthropicUsage splits a script's usage as Anthropic counts it: the
// prompt's uncached tokens, those read from the cache, those written to it,
// and the output.
func anthropicUsage(u *Usage) (in, read, write, out int) {
	if u == nil {
		return 0, 0, 0, 0
	}
	return max(0, u.PromptTokens-u.CachedTokens-u.CacheWriteTokens), u.CachedTokens, u.CacheWriteTokens, u.CompletionTokens
}

func anthropicCallID(c ToolCall, n, i int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("toolu_llmtest_%d_%d", n, i)
}

// stopReason is the script's finish reason in Anthropic's words.
func stopReason(r Response) string {
	switch f := finishReason(r); f {
	case "stop":
		return "end_turn"
	case "length":
		return "max_tokens"
	case "tool_calls":
		return "tool_use"
	default:
		return f
	}
}

func anthropicErrorBody(typ, msg string) string {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
	return string(b)
}

func writeAnthropicError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, anthropicErrorBody(typ, msg)+"\n")
}
