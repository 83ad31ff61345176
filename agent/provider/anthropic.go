package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// anthropicModel is fawn's eino chat model for Anthropic's Messages API,
// spoken directly over HTTP and server-sent events (anthropic_wire.go has
// the request and event shapes). No SDK: the parts fawn uses are one POST
// and one event stream, and the SDK with what it brought cost 5.6 MB of
// fawn's binary. No Bedrock or Vertex either.
//
// Each streamed chunk carries one event's worth: a text, thinking or
// argument delta, a call's start (index, ID, name), or at the end the stop
// reason and the usage. Cache-control breakpoints mark the prefix that stays
// the same from request to request (tools, system prompt, the history up to
// the newest message), so Anthropic's prompt cache serves it.
type anthropicModel struct {
	client      *http.Client
	url         string // …/v1/messages
	apiKey      string
	model       string
	maxTokens   int64
	temperature *float64
	extra       map[string]any
	tools       []aTool
}

// anthropicConfig is what newAnthropicModel needs from models.chat_model.
type anthropicConfig struct {
	APIKey      string
	BaseURL     string // empty: Anthropic's own
	Model       string
	MaxTokens   int
	Temperature *float64
	ExtraBody   map[string]any // top-level request fields (e.g. thinking)
	HTTPClient  *http.Client
}

const (
	anthropicDefaultBase = "https://api.anthropic.com"
	anthropicVersion     = "2023-06-01"
	// AnthropicDefaultMaxTokens is the output limit when
	// models.chat_model.max_tokens is not set: Anthropic requires one.
	AnthropicDefaultMaxTokens = 8192
	// anthropicErrorBodyLimit bounds how much of an error response is read.
	anthropicErrorBodyLimit = 1 << 20
)

// Keys of schema.Message.Extra that this provider reads and writes.
const (
	// extraThinking holds an answer's thinking blocks, one JSON object a
	// line, as they must be sent back (with their signatures) while the
	// turn goes on with tool calls.
	extraThinking = "fawn_anthropic_thinking"
	// ExtraCacheWrite is the prompt tokens written to the cache; it rides on
	// the streamed answer to the usage accounting, which removes it.
	ExtraCacheWrite = "fawn_cache_write_tokens"
)

func newAnthropicModel(c anthropicConfig) *anthropicModel {
	base := strings.TrimSuffix(c.BaseURL, "/")
	if base == "" {
		base = anthropicDefaultBase
	}
	// Accept a base URL given with /v1.
	base = strings.TrimSuffix(base, "/v1")
	maxTokens := int64(c.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = AnthropicDefaultMaxTokens
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = newHTTPClient()
	}
	return &anthropicModel{
		client:      hc,
		url:         base + "/v1/messages",
		apiKey:      c.APIKey,
		model:       c.Model,
		maxTokens:   maxTokens,
		temperature: c.Temperature,
		extra:       c.ExtraBody,
	}
}

// WithTools returns a copy of the model that offers these tools.
func (m *anthropicModel) WithTools(infos []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	tools := make([]aTool, 0, len(infos))
	for _, info := range infos {
		t, err := anthropicTool(info)
		if err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	cp := *m
	cp.tools = tools
	return &cp, nil
}

// anthropicTool is a tool in Anthropic's shape: its JSON Schema, always an
// object with properties, as input_schema.
func anthropicTool(info *schema.ToolInfo) (aTool, error) {
	in := map[string]any{}
	if info.ParamsOneOf != nil {
		js, err := info.ParamsOneOf.ToJSONSchema()
		if err != nil {
			return aTool{}, fmt.Errorf("agent: the parameters of tool %s: %w", info.Name, err)
		}
		if js != nil {
			b, err := json.Marshal(js)
			if err != nil {
				return aTool{}, fmt.Errorf("agent: the parameters of tool %s: %w", info.Name, err)
			}
			if err := json.Unmarshal(b, &in); err != nil {
				return aTool{}, fmt.Errorf("agent: the parameters of tool %s: %w", info.Name, err)
			}
		}
	}
	in["type"] = "object"
	if in["properties"] == nil {
		in["properties"] = map[string]any{}
	}
	return aTool{Name: info.Name, Description: info.Desc, InputSchema: in}, nil
}

// Generate is Stream read to the end.
func (m *anthropicModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	return collect(m.Stream(ctx, in, opts...))
}

// Stream sends the request and returns the answer as it arrives. An HTTP
// error comes back from Stream itself (as *anthropicError, with the
// status); a failure mid-answer comes from the reader.
func (m *anthropicModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	p, err := m.params(in, opts)
	if err != nil {
		return nil, err
	}
	body, err := p.body(m.extra)
	if err != nil {
		return nil, fmt.Errorf("agent: the Anthropic request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("agent: the Anthropic request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Anthropic-Version", anthropicVersion)
	if m.apiKey != "" {
		req.Header.Set("X-Api-Key", m.apiKey)
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		defer resp.Body.Close()
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, anthropicErrorBodyLimit))
		return nil, &anthropicError{StatusCode: resp.StatusCode, raw: string(raw)}
	}
	sr, sw := schema.Pipe[*schema.Message](16)
	go func() {
		defer sw.Close()
		defer resp.Body.Close()
		readAnthropic(resp.Body, sw)
	}()
	return sr, nil
}

// anthropicError is an HTTP error response from the Messages API.
type anthropicError struct {
	StatusCode int
	raw        string // the body as sent
}

func (e *anthropicError) Error() string {
	if msg := anthropicMessage(e); msg != "" {
		return fmt.Sprintf("anthropic: %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), msg)
	}
	return fmt.Sprintf("anthropic: %d %s", e.StatusCode, http.StatusText(e.StatusCode))
}

// anthropicMessage is the server's own words in an error body, if any.
func anthropicMessage(ae *anthropicError) string {
	var body struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if ae.raw != "" && json.Unmarshal([]byte(ae.raw), &body) == nil {
		return body.Error.Message
	}
	return ""
}

// params builds the request: the system prompt, the tools and the history
// in Anthropic's shape, with the cache breakpoints.
func (m *anthropicModel) params(in []*schema.Message, opts []model.Option) (*aRequest, error) {
	common := model.GetCommonOptions(&model.Options{}, opts...)
	p := &aRequest{
		Model:     m.model,
		MaxTokens: m.maxTokens,
		Tools:     append([]aTool(nil), m.tools...),
		Stream:    true,
	}
	if common.MaxTokens != nil {
		p.MaxTokens = int64(*common.MaxTokens)
	}
	if m.temperature != nil {
		t := *m.temperature
		p.Temperature = &t
	}
	if common.Temperature != nil {
		t := float64(*common.Temperature)
		p.Temperature = &t
	}
	if len(common.Stop) > 0 {
		p.StopSequences = common.Stop
	}
	var history []*schema.Message
	for _, msg := range in {
		if msg.Role == schema.System {
			if strings.TrimSpace(msg.Content) != "" {
				p.System = append(p.System, aBlock{Type: "text", Text: msg.Content})
			}
			continue
		}
		history = append(history, msg)
	}
	msgs, err := anthropicMessages(history)
	if err != nil {
		return nil, err
	}
	p.Messages = msgs
	markCachePrefix(p)
	return p, nil
}

// markCachePrefix sets Anthropic's cache breakpoints (at most 4 are
// allowed): the last tool, the system prompt, the newest message (so the
// next request reads all of this one from the cache) and the user message
// before it, where the previous request ended and wrote its cache: that one
// still hits when many blocks came since, or the newest message differs.
func markCachePrefix(p *aRequest) {
	if n := len(p.Tools); n > 0 {
		p.Tools[n-1].CacheControl = ephemeral
	}
	if n := len(p.System); n > 0 {
		p.System[n-1].CacheControl = ephemeral
	}
	marks := 0
	for i := len(p.Messages) - 1; i >= 0 && marks < 2; i-- {
		if p.Messages[i].Role == "user" && markBlock(p.Messages[i].Content) {
			marks++
		}
	}
}

// markBlock puts the breakpoint on the last block that can carry one
// (thinking blocks cannot).
func markBlock(blocks []aBlock) bool {
	for j := len(blocks) - 1; j >= 0; j-- {
		if t := blocks[j].Type; t != "thinking" && t != "redacted_thinking" {
			blocks[j].CacheControl = ephemeral
			return true
		}
	}
	return false
}

// anthropicMessages converts the history. Anthropic wants user and
// assistant turns to alternate, every tool result in the user turn right
// after its call, and no empty text: consecutive messages of one role
// become one turn, tool results first, and empty messages are left out.
func anthropicMessages(history []*schema.Message) ([]aMessage, error) {
	var out []aMessage
	for _, msg := range history {
		blocks, err := anthropicBlocks(msg)
		if err != nil {
			return nil, err
		}
		if len(blocks) == 0 {
			continue
		}
		role := "user"
		if msg.Role == schema.Assistant {
			role = "assistant"
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			prev := &out[n-1]
			if msg.Role == schema.Tool {
				// Results go before anything else of the turn.
				k := 0
				for k < len(prev.Content) && prev.Content[k].Type == "tool_result" {
					k++
				}
				prev.Content = append(prev.Content[:k], append(blocks, prev.Content[k:]...)...)
			} else {
				prev.Content = append(prev.Content, blocks...)
			}
			continue
		}
		out = append(out, aMessage{Role: role, Content: blocks})
	}
	return out, nil
}

func anthropicBlocks(msg *schema.Message) ([]aBlock, error) {
	var blocks []aBlock
	switch msg.Role {
	case schema.Tool:
		res := aBlock{Type: "tool_result", ToolUseID: msg.ToolCallID}
		if strings.TrimSpace(msg.Content) != "" {
			res.Content = append(res.Content, aBlock{Type: "text", Text: msg.Content})
		}
		for _, part := range msg.UserInputMultiContent {
			b, err := anthropicPart(part)
			if err != nil {
				return nil, err
			}
			if b.Type == "text" || b.Type == "image" {
				res.Content = append(res.Content, b)
			}
		}
		return []aBlock{res}, nil

	case schema.Assistant:
		// Thinking is sent back only while the history still holds its text:
		// earlier turns' reasoning is dropped before the request is built.
		if msg.ReasoningContent != "" {
			blocks = append(blocks, thinkingBlocks(msg)...)
		}
		if strings.TrimSpace(msg.Content) != "" {
			blocks = append(blocks, aBlock{Type: "text", Text: msg.Content})
		}
		for _, tc := range msg.ToolCalls {
			args := json.RawMessage(tc.Function.Arguments)
			if !json.Valid(args) {
				args = json.RawMessage("{}")
			}
			blocks = append(blocks, aBlock{Type: "tool_use", ID: tc.ID, Name: tc.Function.Name, Input: args})
		}
		return blocks, nil
	}

	if strings.TrimSpace(msg.Content) != "" {
		blocks = append(blocks, aBlock{Type: "text", Text: msg.Content})
	}
	for _, part := range msg.UserInputMultiContent {
		b, err := anthropicPart(part)
		if err != nil {
			return nil, err
		}
		if b.Type == "text" || b.Type == "image" {
			blocks = append(blocks, b)
		}
	}
	return blocks, nil
}

// anthropicPart converts one part of a message; an empty text gives the
// zero block, which the caller leaves out.
func anthropicPart(part schema.MessageInputPart) (aBlock, error) {
	switch part.Type {
	case schema.ChatMessagePartTypeText:
		if strings.TrimSpace(part.Text) == "" {
			return aBlock{}, nil
		}
		return aBlock{Type: "text", Text: part.Text}, nil
	case schema.ChatMessagePartTypeImageURL:
		img := part.Image
		switch {
		case img == nil:
		case img.Base64Data != nil && *img.Base64Data != "":
			return aBlock{Type: "image", Source: &aSource{Type: "base64", MediaType: img.MIMEType, Data: *img.Base64Data}}, nil
		case img.URL != nil && *img.URL != "":
			return aBlock{Type: "image", Source: &aSource{Type: "url", URL: *img.URL}}, nil
		}
		return aBlock{}, errors.New("agent: an image part without data or URL")
	}
	return aBlock{}, fmt.Errorf("agent: Anthropic takes no %s parts", part.Type)
}

// thinkingBlock is one thinking block of an answer, as kept in Extra.
type thinkingBlock struct {
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"`
}

func thinkingBlocks(msg *schema.Message) []aBlock {
	raw, _ := msg.Extra[extraThinking].(string)
	var out []aBlock
	for _, line := range strings.Split(raw, "\n") {
		var b thinkingBlock
		if line == "" || json.Unmarshal([]byte(line), &b) != nil {
			continue
		}
		switch {
		case b.Redacted != "":
			out = append(out, aBlock{Type: "redacted_thinking", Data: b.Redacted})
		case b.Signature != "":
			text := b.Thinking
			out = append(out, aBlock{Type: "thinking", Thinking: &text, Signature: b.Signature})
		}
	}
	return out
}

// streamError is an error event inside an answer's stream (Anthropic sends
// overloaded_error this way once the response has begun); status is the
// HTTP status the same error has outside a stream.
type streamError struct {
	status  int
	typ     string
	message string
}

func (e *streamError) Error() string {
	return fmt.Sprintf("%s (%d): %s", e.typ, e.status, e.message)
}

// streamErrorStatus maps Anthropic's error types to their HTTP statuses.
var streamErrorStatus = map[string]int{
	"invalid_request_error": http.StatusBadRequest,
	"authentication_error":  http.StatusUnauthorized,
	"permission_error":      http.StatusForbidden,
	"not_found_error":       http.StatusNotFound,
	"request_too_large":     http.StatusRequestEntityTooLarge,
	"rate_limit_error":      http.StatusTooManyRequests,
	"api_error":             http.StatusInternalServerError,
	"overloaded_error":      529,
}

// newStreamError is the error an error event carries, with its status.
func newStreamError(typ, message string) *streamError {
	st, ok := streamErrorStatus[typ]
	if !ok {
		st = http.StatusInternalServerError
	}
	if typ == "" {
		typ = "error"
	}
	return &streamError{status: st, typ: typ, message: message}
}

// errNoMessageStop: the stream ended cleanly but before message_stop, as
// when a proxy cuts it between two events.
var errNoMessageStop = fmt.Errorf("the answer ended before message_stop: %w", io.ErrUnexpectedEOF)

// readAnthropic turns the event stream in body into eino chunks on sw.
func readAnthropic(body io.Reader, sw *schema.StreamWriter[*schema.Message]) {
	r := anthropicReader{calls: map[int64]*anthropicCall{}}
	events := newSSEReader(body)
	for {
		data, err := events.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errNoMessageStop
			}
			sw.Send(nil, err)
			return
		}
		var ev aEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			sw.Send(nil, fmt.Errorf("agent: an Anthropic event: %w", err))
			return
		}
		if ev.Type == "error" {
			sw.Send(nil, newStreamError(ev.Error.Type, ev.Error.Message))
			return
		}
		chunk, done := r.event(&ev)
		if chunk != nil && sw.Send(chunk, nil) {
			return // the reader went away
		}
		if done {
			return
		}
	}
}

// anthropicReader is the state of one streamed answer.
type anthropicReader struct {
	calls    map[int64]*anthropicCall // content index → call
	ncalls   int
	thinking *thinkingBlock // the thinking block being streamed
	usage    aUsage
	stop     string
}

type anthropicCall struct {
	index int
	id    string
	whole bool // its input came whole in the start event
}

func (r *anthropicReader) event(ev *aEvent) (*schema.Message, bool) {
	switch ev.Type {
	case "message_start":
		if u := ev.Message.Usage; u != nil {
			r.usage.merge(u)
		}

	case "content_block_start":
		cb := ev.ContentBlock
		switch cb.Type {
		case "text":
			if cb.Text != "" {
				return &schema.Message{Role: schema.Assistant, Content: cb.Text}, false
			}
		case "thinking":
			r.thinking = &thinkingBlock{Thinking: cb.Thinking, Signature: cb.Signature}
			if cb.Thinking != "" {
				return &schema.Message{Role: schema.Assistant, ReasoningContent: cb.Thinking}, false
			}
		case "redacted_thinking":
			r.thinking = &thinkingBlock{Redacted: cb.Data}
		case "tool_use":
			c := &anthropicCall{index: r.ncalls, id: cb.ID}
			r.ncalls++
			r.calls[ev.Index] = c
			args := ""
			var in map[string]any
			if len(cb.Input) > 0 && json.Unmarshal(cb.Input, &in) == nil && len(in) > 0 {
				b, _ := json.Marshal(in)
				args, c.whole = string(b), true
			}
			ix := c.index
			return &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{
				Index: &ix, ID: c.id, Type: "function",
				Function: schema.FunctionCall{Name: cb.Name, Arguments: args},
			}}}, false
		}

	case "content_block_delta":
		d := ev.Delta
		switch d.Type {
		case "text_delta":
			if d.Text != "" {
				return &schema.Message{Role: schema.Assistant, Content: d.Text}, false
			}
		case "thinking_delta":
			if r.thinking != nil {
				r.thinking.Thinking += d.Thinking
			}
			if d.Thinking != "" {
				return &schema.Message{Role: schema.Assistant, ReasoningContent: d.Thinking}, false
			}
		case "signature_delta":
			if r.thinking != nil {
				r.thinking.Signature += d.Signature
			}
		case "input_json_delta":
			c := r.calls[ev.Index]
			if c == nil || c.whole || d.PartialJSON == "" {
				return nil, false
			}
			ix := c.index
			return &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{
				Index: &ix, ID: c.id, Function: schema.FunctionCall{Arguments: d.PartialJSON},
			}}}, false
		}

	case "content_block_stop":
		if t := r.thinking; t != nil {
			r.thinking = nil
			b, _ := json.Marshal(t)
			return &schema.Message{Role: schema.Assistant, Extra: map[string]any{extraThinking: string(b) + "\n"}}, false
		}

	case "message_delta":
		if ev.Delta.StopReason != "" {
			r.stop = ev.Delta.StopReason
		}
		// The counts are cumulative; a field left out keeps its value.
		if ev.Usage != nil {
			r.usage.merge(ev.Usage)
		}

	case "message_stop":
		return r.end(), true
	}
	return nil, false
}

// end is the last chunk: why the answer stopped, and the usage. Anthropic
// counts the cached prompt apart from input_tokens; fawn's prompt tokens
// are all of it, as the context window sees them.
func (r *anthropicReader) end() *schema.Message {
	u := r.usage.values()
	prompt := int(u.input + u.cacheRead + u.cacheWrite)
	msg := &schema.Message{Role: schema.Assistant, ResponseMeta: &schema.ResponseMeta{
		FinishReason: finishReason(r.stop),
		Usage: &schema.TokenUsage{
			PromptTokens:       prompt,
			PromptTokenDetails: schema.PromptTokenDetails{CachedTokens: int(u.cacheRead)},
			CompletionTokens:   int(u.output),
			TotalTokens:        prompt + int(u.output),
		},
	}}
	if u.cacheWrite > 0 {
		msg.Extra = map[string]any{ExtraCacheWrite: int(u.cacheWrite)}
	}
	return msg
}

// finishReason gives Anthropic's stop reasons the names the rest of fawn
// knows from OpenAI's finish_reason.
func finishReason(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence":
		return "stop"
	case "max_tokens", "model_context_window_exceeded":
		return "length"
	case "tool_use":
		return "tool_calls"
	case "refusal":
		return "content_filter"
	}
	return stop
}

// collect reads a stream to its end into one message (Generate of the
// clients that only stream).
func collect(sr *schema.StreamReader[*schema.Message], err error) (*schema.Message, error) {
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		c, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, c)
	}
	if len(chunks) == 0 {
		return &schema.Message{Role: schema.Assistant}, nil
	}
	return schema.ConcatMessages(chunks)
}
