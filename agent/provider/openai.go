package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
)

// openaiModel is fawn's eino chat model for OpenAI-compatible chat
// completions, spoken directly over HTTP and server-sent events
// (openai_stream.go reads the answer). The request is the one the client
// library fawn used before sent, field for field; the answer is decoded
// once per chunk into the few fields fawn reads, in the goroutine that
// reads the stream, which is where a streamed answer's CPU went.
type openaiModel struct {
	client      *http.Client
	url         string // …/chat/completions
	apiKey      string
	model       string
	maxTokens   int
	temperature *float32
	extra       map[string]any
	tools       []oaTool
	// toolChoice is "auto" once tools are bound ("" without tools).
	toolChoice string
}

// openaiConfig is what newOpenAIModel needs from models.chat_model.
type openaiConfig struct {
	APIKey      string // empty: no Authorization header (Ollama, llama.cpp)
	BaseURL     string // empty: OpenAI's own
	Model       string
	MaxTokens   int
	Temperature *float32
	ExtraBody   map[string]any // top-level request fields, over fawn's own
	HTTPClient  *http.Client
}

const (
	openaiDefaultBase = "https://api.openai.com/v1"
	// openaiErrorBodyLimit bounds how much of an error response is read.
	openaiErrorBodyLimit = 1 << 20
)

func newOpenAIModel(c openaiConfig) *openaiModel {
	base := c.BaseURL
	if base == "" {
		base = openaiDefaultBase
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = newHTTPClient()
	}
	if c.MaxTokens < 0 {
		c.MaxTokens = 0
	}
	return &openaiModel{
		client:      hc,
		url:         strings.TrimRight(base, "/") + "/chat/completions",
		apiKey:      c.APIKey,
		model:       c.Model,
		maxTokens:   c.MaxTokens,
		temperature: c.Temperature,
		extra:       c.ExtraBody,
	}
}

// WithTools returns a copy of the model that offers these tools, the model
// choosing whether to call them.
func (m *openaiModel) WithTools(infos []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	if len(infos) == 0 {
		return nil, errors.New("agent: no tools to bind")
	}
	tools, err := openaiTools(infos)
	if err != nil {
		return nil, err
	}
	cp := *m
	cp.tools, cp.toolChoice = tools, "auto"
	return &cp, nil
}

// Generate is Stream read to the end.
func (m *openaiModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	return collect(m.Stream(ctx, in, opts...))
}

// Stream sends the request and returns the answer as it arrives. An HTTP
// error comes back from Stream itself (as *OpenAIError, with the status); a
// failure mid-answer comes from the reader.
func (m *openaiModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	body, err := m.body(in, opts)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("agent: the model request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Cache-Control", "no-cache")
	req.Header.Set("Connection", "keep-alive")
	if m.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.apiKey)
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < http.StatusOK || resp.StatusCode >= http.StatusBadRequest {
		defer resp.Body.Close()
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, openaiErrorBodyLimit))
		return nil, openaiErrorOf(resp.StatusCode, raw)
	}
	n, _ := ctx.Value(normalizerKey{}).(*Normalizer)
	return newOpenAIStream(newPacedBody(resp.Body), n).reader(), nil
}

// OpenAIError is an error answer of an OpenAI-compatible server: an HTTP
// error, or an error object inside a stream (Status 0).
type OpenAIError struct {
	Status int
	// Message is the server's own words; Code and Type its names for the
	// error ("context_length_exceeded", "invalid_request_error").
	Message, Code, Type string
	// body is what the server sent, when it was not an error object.
	body string
}

func (e *OpenAIError) Error() string {
	switch {
	case e.Status == 0:
		return e.Message
	case e.Message == "" && e.body != "":
		return fmt.Sprintf("error, status code: %d, status: %s, body: %s", e.Status, statusText(e.Status), e.body)
	}
	return fmt.Sprintf("error, status code: %d, status: %s, message: %s", e.Status, statusText(e.Status), e.Message)
}

func statusText(code int) string {
	return fmt.Sprintf("%d %s", code, http.StatusText(code))
}

// oaErrorBody is an OpenAI error object: {"error": {...}}.
type oaErrorBody struct {
	Error *struct {
		Message json.RawMessage `json:"message"`
		Code    json.RawMessage `json:"code"`
		Type    string          `json:"type"`
	} `json:"error"`
}

// parseOpenAIError reads an error object ({"error": {...}}); ok is false
// when raw holds none.
func parseOpenAIError(status int, raw []byte) (*OpenAIError, bool) {
	var b oaErrorBody
	if json.Unmarshal(raw, &b) != nil || b.Error == nil {
		return nil, false
	}
	e := &OpenAIError{Status: status, Type: b.Error.Type}
	// message is a string, or (some servers) a list of strings.
	var list []string
	if json.Unmarshal(b.Error.Message, &e.Message) != nil && json.Unmarshal(b.Error.Message, &list) == nil {
		e.Message = strings.Join(list, ", ")
	}
	// code is a string or a number.
	if json.Unmarshal(b.Error.Code, &e.Code) != nil && len(b.Error.Code) > 0 && string(b.Error.Code) != "null" {
		e.Code = string(b.Error.Code)
	}
	return e, true
}

// openaiErrorOf is the error of an HTTP error answer: its error object, or
// the body as sent (a proxy's page).
func openaiErrorOf(status int, raw []byte) *OpenAIError {
	if e, ok := parseOpenAIError(status, raw); ok {
		return e
	}
	return &OpenAIError{Status: status, body: string(raw)}
}

// The request, in the shape of OpenAI's chat completions.

type oaRequest struct {
	Model         string          `json:"model"`
	Messages      []oaMessage     `json:"messages"`
	MaxTokens     int             `json:"max_tokens,omitempty"`
	Temperature   *float32        `json:"temperature,omitempty"`
	TopP          float32         `json:"top_p,omitempty"`
	Stream        bool            `json:"stream,omitempty"`
	Stop          []string        `json:"stop,omitempty"`
	Tools         []oaTool        `json:"tools,omitempty"`
	ToolChoice    any             `json:"tool_choice,omitempty"`
	StreamOptions *oaStreamOption `json:"stream_options,omitempty"`
}

type oaStreamOption struct {
	IncludeUsage bool `json:"include_usage,omitempty"`
}

type oaTool struct {
	Type     string         `json:"type"`
	Function oaToolFunction `json:"function"`
}

type oaToolFunction struct {
	Name        string             `json:"name"`
	Description string             `json:"description,omitempty"`
	Parameters  *jsonschema.Schema `json:"parameters"`
}

type oaMessage struct {
	Role string `json:"role"`
	// Content is a string, or a list of parts (oaPart) for a message with
	// images; a tool result always has one.
	Content          any          `json:"content,omitempty"`
	Name             string       `json:"name,omitempty"`
	ReasoningContent string       `json:"reasoning_content,omitempty"`
	ToolCalls        []oaCallSent `json:"tool_calls,omitempty"`
	ToolCallID       string       `json:"tool_call_id,omitempty"`
}

type oaCallSent struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments,omitempty"`
	} `json:"function"`
}

type oaPart struct {
	Type     string      `json:"type,omitempty"`
	Text     string      `json:"text,omitempty"`
	ImageURL *oaImageURL `json:"image_url,omitempty"`
}

type oaImageURL struct {
	URL    string `json:"url,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// body is the request's JSON: the configuration, the options of this call,
// the history and the tools, with models.chat_model.extra_body over them.
func (m *openaiModel) body(in []*schema.Message, opts []model.Option) ([]byte, error) {
	o := model.GetCommonOptions(&model.Options{}, opts...)
	r := oaRequest{
		Model: m.model, MaxTokens: m.maxTokens, Temperature: m.temperature,
		Stream: true, StreamOptions: &oaStreamOption{IncludeUsage: true},
		Tools: m.tools,
	}
	if o.Model != nil && *o.Model != "" {
		r.Model = *o.Model
	}
	if o.MaxTokens != nil {
		r.MaxTokens = *o.MaxTokens
	}
	if o.Temperature != nil {
		r.Temperature = o.Temperature
	}
	if o.TopP != nil {
		r.TopP = *o.TopP
	}
	r.Stop = o.Stop
	if o.Tools != nil {
		tools, err := openaiTools(o.Tools)
		if err != nil {
			return nil, err
		}
		r.Tools = tools
	}
	choice, err := toolChoice(m.toolChoice, o.ToolChoice, r.Tools)
	if err != nil {
		return nil, err
	}
	if choice != "" {
		r.ToolChoice = choice
	}
	r.Messages = make([]oaMessage, 0, len(in))
	for _, msg := range in {
		om, err := openaiMessage(msg)
		if err != nil {
			return nil, err
		}
		r.Messages = append(r.Messages, om)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("agent: the model request: %w", err)
	}
	if len(m.extra) == 0 {
		return b, nil
	}
	// extra_body's fields win over fawn's own.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("agent: the model request: %w", err)
	}
	for k, v := range m.extra {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("agent: models.chat_model.extra_body.%s: %w", k, err)
		}
		fields[k] = raw
	}
	if b, err = json.Marshal(fields); err != nil {
		return nil, fmt.Errorf("agent: models.chat_model.extra_body: %w", err)
	}
	return b, nil
}

// toolChoice is the request's tool_choice: what the bound tools set
// ("auto"), or what a call's option asks.
func toolChoice(bound string, opt *schema.ToolChoice, tools []oaTool) (any, error) {
	if opt == nil {
		return bound, nil
	}
	switch *opt {
	case schema.ToolChoiceForbidden:
		return "none", nil
	case schema.ToolChoiceAllowed:
		return "auto", nil
	case schema.ToolChoiceForced:
		switch len(tools) {
		case 0:
			return nil, errors.New("agent: a tool call is forced but no tools are offered")
		case 1:
			return map[string]any{"type": "function", "function": map[string]string{"name": tools[0].Function.Name}}, nil
		}
		return "required", nil
	}
	return nil, fmt.Errorf("agent: unknown tool choice %q", *opt)
}

// openaiTools converts the tools' parameters to JSON Schema, the lists of
// required properties sorted so that the request (and a server's prompt
// cache) does not change from one request to the next.
func openaiTools(infos []*schema.ToolInfo) ([]oaTool, error) {
	tools := make([]oaTool, len(infos))
	for i, info := range infos {
		if info == nil {
			return nil, errors.New("agent: a nil tool")
		}
		js, err := info.ParamsOneOf.ToJSONSchema()
		if err != nil {
			return nil, fmt.Errorf("agent: the parameters of tool %s: %w", info.Name, err)
		}
		sortRequired(js)
		tools[i] = oaTool{Type: "function", Function: oaToolFunction{Name: info.Name, Description: info.Desc, Parameters: js}}
	}
	return tools, nil
}

func sortRequired(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	switch s.Type {
	case string(schema.Object):
		if len(s.Required) == 0 {
			return
		}
		sort.Strings(s.Required)
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			sortRequired(p.Value)
		}
	case string(schema.Array):
		sortRequired(s.Items)
	}
}

// openaiMessage is one message of the history in OpenAI's shape.
func openaiMessage(msg *schema.Message) (oaMessage, error) {
	om := oaMessage{Role: string(msg.Role), Name: msg.Name, ToolCallID: msg.ToolCallID}
	if msg.Role == schema.Assistant {
		om.ReasoningContent = msg.ReasoningContent
	}
	for _, tc := range msg.ToolCalls {
		c := oaCallSent{Index: tc.Index, ID: tc.ID, Type: "function"}
		c.Function.Name, c.Function.Arguments = tc.Function.Name, tc.Function.Arguments
		om.ToolCalls = append(om.ToolCalls, c)
	}
	switch {
	case len(msg.UserInputMultiContent) > 0:
		if msg.Role != schema.User && msg.Role != schema.Tool {
			return oaMessage{}, fmt.Errorf("agent: a %s message with input parts", msg.Role)
		}
		if msg.Content != "" {
			return oaMessage{}, errors.New("agent: a message with both text and parts")
		}
		parts := make([]oaPart, 0, len(msg.UserInputMultiContent))
		for _, p := range msg.UserInputMultiContent {
			part, err := openaiPart(p)
			if err != nil {
				return oaMessage{}, err
			}
			parts = append(parts, part)
		}
		om.Content = parts
	case len(msg.AssistantGenMultiContent) > 0 || len(msg.MultiContent) > 0:
		return oaMessage{}, errors.New("agent: fawn sends no output parts or legacy parts to an OpenAI-compatible server")
	case msg.Role == schema.Tool:
		om.Content = msg.Content // a tool result's content is always sent, empty or not
	case msg.Content != "":
		om.Content = msg.Content
	}
	return om, nil
}

func openaiPart(p schema.MessageInputPart) (oaPart, error) {
	switch p.Type {
	case schema.ChatMessagePartTypeText:
		return oaPart{Type: "text", Text: p.Text}, nil
	case schema.ChatMessagePartTypeImageURL:
		img := p.Image
		switch {
		case img == nil:
		case img.URL != nil:
			return oaPart{Type: "image_url", ImageURL: &oaImageURL{URL: *img.URL, Detail: string(img.Detail)}}, nil
		case img.Base64Data != nil:
			if img.MIMEType == "" {
				return oaPart{}, errors.New("agent: an inline image without its MIME type")
			}
			return oaPart{Type: "image_url", ImageURL: &oaImageURL{URL: "data:" + img.MIMEType + ";base64," + *img.Base64Data, Detail: string(img.Detail)}}, nil
		}
		return oaPart{}, errors.New("agent: an image part without data or URL")
	}
	return oaPart{}, fmt.Errorf("agent: fawn sends no %s parts to an OpenAI-compatible server", p.Type)
}
