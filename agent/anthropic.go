package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/ssestream"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// anthropicModel is fawn's eino chat model for Anthropic's Messages API,
// over the core client of anthropic-sdk-go (no Bedrock or Vertex: their
// cloud SDKs would more than double the binary and its start-up).
//
// Each streamed chunk carries one event's worth: a text, thinking or
// argument delta, a call's start (index, ID, name), or at the end the stop
// reason and the usage. Cache-control breakpoints mark the prefix that stays
// the same from request to request (tools, system prompt, the history up to
// the newest message), so Anthropic's prompt cache serves it.
type anthropicModel struct {
	msgs        anthropic.MessageService
	model       string
	maxTokens   int64
	temperature *float64
	extra       map[string]any
	tools       []anthropic.ToolUnionParam
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
	// anthropicDefaultMaxTokens is the output limit when
	// models.chat_model.max_tokens is not set: Anthropic requires one.
	anthropicDefaultMaxTokens = 8192
)

// Keys of schema.Message.Extra that this provider reads and writes.
const (
	// extraThinking holds an answer's thinking blocks, one JSON object a
	// line, as they must be sent back (with their signatures) while the
	// turn goes on with tool calls.
	extraThinking = "fawn_anthropic_thinking"
	// extraCacheWrite is the prompt tokens written to the cache; it rides on
	// the streamed answer to the usage accounting, which removes it.
	extraCacheWrite = "fawn_cache_write_tokens"
)

func newAnthropicModel(c anthropicConfig) *anthropicModel {
	base := strings.TrimSuffix(c.BaseURL, "/")
	if base == "" {
		base = anthropicDefaultBase
	}
	// The SDK appends v1/messages itself; accept a base URL given with /v1.
	base = strings.TrimSuffix(base, "/v1") + "/"
	// Only these options: the SDK's defaults would also read the
	// environment (other keys, tokens, base URLs, headers), and retry on
	// their own; fawn's retries are the ones the user sees.
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(c.HTTPClient),
		option.WithMaxRetries(0),
	}
	if c.APIKey != "" {
		opts = append(opts, option.WithAPIKey(c.APIKey))
	}
	maxTokens := int64(c.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = anthropicDefaultMaxTokens
	}
	return &anthropicModel{
		msgs:        anthropic.NewMessageService(opts...),
		model:       c.Model,
		maxTokens:   maxTokens,
		temperature: c.Temperature,
		extra:       c.ExtraBody,
	}
}

// WithTools returns a copy of the model that offers these tools.
func (m *anthropicModel) WithTools(infos []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	tools := make([]anthropic.ToolUnionParam, 0, len(infos))
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

func anthropicTool(info *schema.ToolInfo) (anthropic.ToolUnionParam, error) {
	in := anthropic.ToolInputSchemaParam{}
	if info.ParamsOneOf != nil {
		js, err := info.ParamsOneOf.ToJSONSchema()
		if err != nil {
			return anthropic.ToolUnionParam{}, fmt.Errorf("agent: the parameters of tool %s: %w", info.Name, err)
		}
		if js != nil {
			b, err := json.Marshal(js)
			if err != nil {
				return anthropic.ToolUnionParam{}, fmt.Errorf("agent: the parameters of tool %s: %w", info.Name, err)
			}
			var fields map[string]any
			if err := json.Unmarshal(b, &fields); err != nil {
				return anthropic.ToolUnionParam{}, fmt.Errorf("agent: the parameters of tool %s: %w", info.Name, err)
			}
			in.Properties = fields["properties"]
			if req, ok := fields["required"].([]any); ok {
				for _, r := range req {
					if s, ok := r.(string); ok {
						in.Required = append(in.Required, s)
					}
				}
			}
			delete(fields, "properties")
			delete(fields, "required")
			delete(fields, "type")
			if len(fields) > 0 {
				in.ExtraFields = fields
			}
		}
	}
	if in.Properties == nil {
		in.Properties = map[string]any{}
	}
	t := anthropic.ToolParam{Name: info.Name, InputSchema: in}
	if info.Desc != "" {
		t.Description = anthropic.String(info.Desc)
	}
	return anthropic.ToolUnionParam{OfTool: &t}, nil
}

// Generate is Stream read to the end.
func (m *anthropicModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	sr, err := m.Stream(ctx, in, opts...)
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

// Stream sends the request and returns the answer as it arrives. An HTTP
// error comes back from Stream itself (as *anthropic.Error, with the
// status); a failure mid-answer comes from the reader.
func (m *anthropicModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	params, err := m.params(in, opts)
	if err != nil {
		return nil, err
	}
	var reqOpts []option.RequestOption
	for k, v := range m.extra {
		reqOpts = append(reqOpts, option.WithJSONSet(k, v))
	}
	stream := m.msgs.NewStreaming(ctx, params, reqOpts...)
	if err := stream.Err(); err != nil {
		stream.Close()
		return nil, err
	}
	sr, sw := schema.Pipe[*schema.Message](16)
	go func() {
		defer sw.Close()
		defer stream.Close()
		readAnthropic(stream, sw)
	}()
	return sr, nil
}

// params builds the request: the system prompt, the tools and the history
// in Anthropic's shape, with the cache breakpoints.
func (m *anthropicModel) params(in []*schema.Message, opts []model.Option) (anthropic.MessageNewParams, error) {
	common := model.GetCommonOptions(&model.Options{}, opts...)
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(m.model),
		MaxTokens: m.maxTokens,
		Tools:     m.tools,
	}
	if common.MaxTokens != nil {
		p.MaxTokens = int64(*common.MaxTokens)
	}
	if m.temperature != nil {
		p.Temperature = anthropic.Float(*m.temperature)
	}
	if common.Temperature != nil {
		p.Temperature = anthropic.Float(float64(*common.Temperature))
	}
	if len(common.Stop) > 0 {
		p.StopSequences = common.Stop
	}
	var history []*schema.Message
	for _, msg := range in {
		if msg.Role == schema.System {
			if strings.TrimSpace(msg.Content) != "" {
				p.System = append(p.System, anthropic.TextBlockParam{Text: msg.Content})
			}
			continue
		}
		history = append(history, msg)
	}
	msgs, err := anthropicMessages(history)
	if err != nil {
		return p, err
	}
	p.Messages = msgs
	markCachePrefix(&p)
	return p, nil
}

// markCachePrefix sets Anthropic's cache breakpoints (at most 4 are
// allowed): the last tool, the system prompt, the newest message (so the
// next request reads all of this one from the cache) and the user message
// before it, where the previous request ended and wrote its cache: that one
// still hits when many blocks came since, or the newest message differs.
func markCachePrefix(p *anthropic.MessageNewParams) {
	cache := anthropic.NewCacheControlEphemeralParam()
	if n := len(p.Tools); n > 0 && p.Tools[n-1].OfTool != nil {
		p.Tools[n-1].OfTool.CacheControl = cache
	}
	if n := len(p.System); n > 0 {
		p.System[n-1].CacheControl = cache
	}
	marks := 0
	for i := len(p.Messages) - 1; i >= 0 && marks < 2; i-- {
		if p.Messages[i].Role == anthropic.MessageParamRoleUser && markBlock(p.Messages[i].Content, cache) {
			marks++
		}
	}
}

// markBlock puts the breakpoint on the last block that can carry one.
func markBlock(blocks []anthropic.ContentBlockParamUnion, cache anthropic.CacheControlEphemeralParam) bool {
	for j := len(blocks) - 1; j >= 0; j-- {
		if cc := blocks[j].GetCacheControl(); cc != nil {
			*cc = cache
			return true
		}
	}
	return false
}

// anthropicMessages converts the history. Anthropic wants user and
// assistant turns to alternate, every tool result in the user turn right
// after its call, and no empty text: consecutive messages of one role
// become one turn, tool results first, and empty messages are left out.
func anthropicMessages(history []*schema.Message) ([]anthropic.MessageParam, error) {
	var out []anthropic.MessageParam
	for _, msg := range history {
		blocks, err := anthropicBlocks(msg)
		if err != nil {
			return nil, err
		}
		if len(blocks) == 0 {
			continue
		}
		role := anthropic.MessageParamRoleUser
		if msg.Role == schema.Assistant {
			role = anthropic.MessageParamRoleAssistant
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			prev := &out[n-1]
			if msg.Role == schema.Tool {
				// Results go before anything else of the turn.
				k := 0
				for k < len(prev.Content) && prev.Content[k].OfToolResult != nil {
					k++
				}
				prev.Content = append(prev.Content[:k], append(blocks, prev.Content[k:]...)...)
			} else {
				prev.Content = append(prev.Content, blocks...)
			}
			continue
		}
		out = append(out, anthropic.MessageParam{Role: role, Content: blocks})
	}
	return out, nil
}

func anthropicBlocks(msg *schema.Message) ([]anthropic.ContentBlockParamUnion, error) {
	var blocks []anthropic.ContentBlockParamUnion
	switch msg.Role {
	case schema.Tool:
		res := anthropic.ToolResultBlockParam{ToolUseID: msg.ToolCallID}
		if strings.TrimSpace(msg.Content) != "" {
			res.Content = append(res.Content, anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: msg.Content}})
		}
		for _, part := range msg.UserInputMultiContent {
			b, err := anthropicPart(part)
			if err != nil {
				return nil, err
			}
			switch {
			case b.OfText != nil:
				res.Content = append(res.Content, anthropic.ToolResultBlockParamContentUnion{OfText: b.OfText})
			case b.OfImage != nil:
				res.Content = append(res.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: b.OfImage})
			}
		}
		return []anthropic.ContentBlockParamUnion{{OfToolResult: &res}}, nil

	case schema.Assistant:
		// Thinking is sent back only while the history still holds its text:
		// earlier turns' reasoning is dropped before the request is built.
		if msg.ReasoningContent != "" {
			blocks = append(blocks, thinkingBlocks(msg)...)
		}
		if strings.TrimSpace(msg.Content) != "" {
			blocks = append(blocks, anthropic.NewTextBlock(msg.Content))
		}
		for _, tc := range msg.ToolCalls {
			args := json.RawMessage(tc.Function.Arguments)
			if !json.Valid(args) {
				args = json.RawMessage("{}")
			}
			blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, args, tc.Function.Name))
		}
		return blocks, nil
	}

	if strings.TrimSpace(msg.Content) != "" {
		blocks = append(blocks, anthropic.NewTextBlock(msg.Content))
	}
	for _, part := range msg.UserInputMultiContent {
		b, err := anthropicPart(part)
		if err != nil {
			return nil, err
		}
		if b.OfText != nil || b.OfImage != nil {
			blocks = append(blocks, b)
		}
	}
	return blocks, nil
}

func anthropicPart(part schema.MessageInputPart) (anthropic.ContentBlockParamUnion, error) {
	switch part.Type {
	case schema.ChatMessagePartTypeText:
		if strings.TrimSpace(part.Text) == "" {
			return anthropic.ContentBlockParamUnion{}, nil
		}
		return anthropic.NewTextBlock(part.Text), nil
	case schema.ChatMessagePartTypeImageURL:
		img := part.Image
		switch {
		case img == nil:
		case img.Base64Data != nil && *img.Base64Data != "":
			return anthropic.NewImageBlockBase64(img.MIMEType, *img.Base64Data), nil
		case img.URL != nil && *img.URL != "":
			return anthropic.NewImageBlock(anthropic.URLImageSourceParam{URL: *img.URL}), nil
		}
		return anthropic.ContentBlockParamUnion{}, errors.New("agent: an image part without data or URL")
	}
	return anthropic.ContentBlockParamUnion{}, fmt.Errorf("agent: Anthropic takes no %s parts", part.Type)
}

// thinkingBlock is one thinking block of an answer, as kept in Extra.
type thinkingBlock struct {
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"`
}

func thinkingBlocks(msg *schema.Message) []anthropic.ContentBlockParamUnion {
	raw, _ := msg.Extra[extraThinking].(string)
	var out []anthropic.ContentBlockParamUnion
	for _, line := range strings.Split(raw, "\n") {
		var b thinkingBlock
		if line == "" || json.Unmarshal([]byte(line), &b) != nil {
			continue
		}
		switch {
		case b.Redacted != "":
			out = append(out, anthropic.NewRedactedThinkingBlock(b.Redacted))
		case b.Signature != "":
			out = append(out, anthropic.NewThinkingBlock(b.Signature, b.Thinking))
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

// asStreamError turns the SDK's error for an error event into a
// streamError, so the status decides the retry as for an HTTP error.
func asStreamError(err error) error {
	var raw string
	var ae *anthropic.Error
	if errors.As(err, &ae) {
		if ae.StatusCode >= 400 {
			return err // an HTTP error: classify reads it as it is
		}
		// An error event: the SDK gives it the stream's own status, 200.
		raw = ae.RawJSON()
	} else if s := err.Error(); strings.Contains(s, "error while streaming") {
		if i := strings.Index(s, "{"); i >= 0 {
			raw = s[i:]
		}
	}
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if raw == "" || json.Unmarshal([]byte(raw), &body) != nil || body.Error.Type == "" {
		return err
	}
	st, ok := streamErrorStatus[body.Error.Type]
	if !ok {
		st = http.StatusInternalServerError
	}
	return &streamError{status: st, typ: body.Error.Type, message: body.Error.Message}
}

// errNoMessageStop: the stream ended cleanly but before message_stop, as
// when a proxy cuts it between two events.
var errNoMessageStop = fmt.Errorf("the answer ended before message_stop: %w", io.ErrUnexpectedEOF)

// readAnthropic turns the SDK's events into eino chunks on sw.
func readAnthropic(stream *ssestream.Stream[anthropic.MessageStreamEventUnion], sw *schema.StreamWriter[*schema.Message]) {
	r := anthropicReader{calls: map[int64]*anthropicCall{}}
	for stream.Next() {
		ev := stream.Current()
		chunk, done := r.event(&ev)
		if chunk != nil && sw.Send(chunk, nil) {
			return // the reader went away
		}
		if done {
			return
		}
	}
	err := stream.Err()
	if err == nil {
		err = errNoMessageStop
	}
	sw.Send(nil, asStreamError(err))
}

// anthropicReader is the state of one streamed answer.
type anthropicReader struct {
	calls    map[int64]*anthropicCall // content index → call
	ncalls   int
	thinking *thinkingBlock // the thinking block being streamed
	usage    anthropic.MessageDeltaUsage
	stop     string
}

type anthropicCall struct {
	index int
	id    string
	whole bool // its input came whole in the start event
}

func (r *anthropicReader) event(ev *anthropic.MessageStreamEventUnion) (*schema.Message, bool) {
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		r.usage.InputTokens = u.InputTokens
		r.usage.OutputTokens = u.OutputTokens
		r.usage.CacheReadInputTokens = u.CacheReadInputTokens
		r.usage.CacheCreationInputTokens = u.CacheCreationInputTokens

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
			if in, ok := cb.Input.(map[string]any); ok && len(in) > 0 {
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
			r.stop = string(ev.Delta.StopReason)
		}
		// The counts are cumulative; a field left out keeps its value.
		u := ev.Usage
		if u.JSON.InputTokens.Valid() {
			r.usage.InputTokens = u.InputTokens
		}
		if u.JSON.OutputTokens.Valid() {
			r.usage.OutputTokens = u.OutputTokens
		}
		if u.JSON.CacheReadInputTokens.Valid() {
			r.usage.CacheReadInputTokens = u.CacheReadInputTokens
		}
		if u.JSON.CacheCreationInputTokens.Valid() {
			r.usage.CacheCreationInputTokens = u.CacheCreationInputTokens
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
	u := r.usage
	prompt := int(u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens)
	msg := &schema.Message{Role: schema.Assistant, ResponseMeta: &schema.ResponseMeta{
		FinishReason: finishReason(r.stop),
		Usage: &schema.TokenUsage{
			PromptTokens:       prompt,
			PromptTokenDetails: schema.PromptTokenDetails{CachedTokens: int(u.CacheReadInputTokens)},
			CompletionTokens:   int(u.OutputTokens),
			TotalTokens:        prompt + int(u.OutputTokens),
		},
	}}
	if u.CacheCreationInputTokens > 0 {
		msg.Extra = map[string]any{extraCacheWrite: int(u.CacheCreationInputTokens)}
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
