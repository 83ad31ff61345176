package provider

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"

	"github.com/cloudwego/eino/schema"
)

// openaiStream reads one streamed chat completion: a line at a time, each
// `data:` line decoded once into the fields fawn uses (by fastDelta for the
// usual text chunk, into oaChunk by encoding/json for any other) and turned
// into a chunk for eino. It runs in the goroutine that calls Recv: no
// goroutine of its own and no channel between the socket and the agent, so
// a chunk is not handed from one goroutine to another on its way.
//
// Lines that are not data (SSE comments, event names, blank lines) are
// skipped, except that they are kept (up to a bound) in case the stream
// turns out to be an error object sent as a plain body.
type openaiStream struct {
	body io.ReadCloser
	br   *bufio.Reader
	long []byte // a line longer than br's buffer, pieced together
	norm *Normalizer
	// other holds the lines that were not data, for an error object sent
	// without "data:".
	other []byte
	// c is the chunk decoded last, kept so that the next one reuses its
	// choices.
	c oaChunk
	// joined holds the text of the chunks join puts together.
	joined []byte
	done   bool
	err    error // the error the stream ended with (io.EOF: cleanly)
}

// maxOtherLines bounds what is kept of lines that are not data.
const maxOtherLines = 64 << 10

func newOpenAIStream(body io.ReadCloser, n *Normalizer) *openaiStream {
	s := &openaiStream{body: body, br: bufio.NewReaderSize(body, 32<<10), norm: n}
	if n != nil {
		n.viaModifier.Store(true)
	}
	return s
}

// reader is the stream as eino's reader. eino's StreamReader has no way to
// wrap a pull function, only a channel (schema.Pipe, which needs a
// goroutine to fill it) or an array; so it wraps an array of nothing, as
// long as need be (zero-size elements take no memory), converting each
// element into the next chunk, and ends with the stream.
//
// Close on eino's reader does not reach this one: the body is closed when
// the stream ends or fails, when the request's context ends (net/http
// does), and, for a reader dropped half-read with its context alive, when
// it is collected.
func (s *openaiStream) reader() *schema.StreamReader[*schema.Message] {
	ticks := schema.StreamReaderFromArray(make([]struct{}, math.MaxInt))
	sr := schema.StreamReaderWithConvert(ticks, func(struct{}) (*schema.Message, error) { return s.next() })
	runtime.AddCleanup(sr, func(b io.ReadCloser) { _ = b.Close() }, s.body)
	return sr
}

// next returns the next chunk that carries something, or the error the
// stream ended with (io.EOF: "data: [DONE]", or the end of the body).
func (s *openaiStream) next() (*schema.Message, error) {
	for !s.done {
		line, err := s.line()
		if err != nil {
			s.finish(s.ended(err))
			break
		}
		line = bytes.TrimSpace(line)
		data, ok := dataOf(line)
		if !ok {
			if len(s.other)+len(line) <= maxOtherLines {
				s.other = append(s.other, line...)
			}
			continue
		}
		if string(data) == "[DONE]" {
			s.finish(io.EOF)
			break
		}
		if bytes.HasPrefix(data, []byte(`{"error":`)) {
			s.finish(streamErrorOf(data))
			break
		}
		msg, err := s.chunk(data)
		if err != nil {
			s.finish(err)
			break
		}
		if msg != nil {
			return msg, nil
		}
	}
	return nil, s.err
}

// finish ends the stream with err.
func (s *openaiStream) finish(err error) {
	s.done = true
	_ = s.body.Close()
	s.err = err
}

// ended is the error of a body that ended (cleanly or not) before
// "data: [DONE]": err, unless the lines that were not data make an error
// object (a server that answered 200 with an error body).
func (s *openaiStream) ended(err error) error {
	if len(s.other) > 0 {
		if e, ok := parseOpenAIError(0, s.other); ok {
			return fmt.Errorf("error, %w", e)
		}
	}
	return err
}

// streamErrorOf is the error an error object inside the stream carries.
func streamErrorOf(data []byte) error {
	if e, ok := parseOpenAIError(0, data); ok {
		return fmt.Errorf("error, %w", e)
	}
	return fmt.Errorf("error, %s", data)
}

// dataOf is the value of a `data:` line, without the blanks after the
// colon.
func dataOf(line []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return nil, false
	}
	return bytes.TrimLeft(rest, " \t\r\n\v\f"), true
}

// line reads one line, newline included; the slice is valid until the next
// call. A line is at most maxSSEEvent long; a last line without a newline
// is not returned (the stream was cut inside it).
func (s *openaiStream) line() ([]byte, error) {
	line, err := s.br.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	s.long = append(s.long[:0], line...)
	for {
		line, err = s.br.ReadSlice('\n')
		if len(s.long)+len(line) > maxSSEEvent {
			return nil, errEventTooLong
		}
		s.long = append(s.long, line...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return s.long, err
		}
	}
}

// oaChunk is the part of a chat completion chunk fawn reads.
type oaChunk struct {
	Choices []oaChoice `json:"choices"`
	Usage   *oaUsage   `json:"usage"`
}

type oaChoice struct {
	Index        int     `json:"index"`
	Delta        oaDelta `json:"delta"`
	FinishReason string  `json:"finish_reason"`
}

type oaDelta struct {
	Content string `json:"content"`
	// ReasoningContent is DeepSeek's and most servers' field; Reasoning is
	// OpenRouter's and vLLM's (read only when it is a string).
	ReasoningContent string        `json:"reasoning_content"`
	Reasoning        lenientString `json:"reasoning"`
	ToolCalls        []oaCallChunk `json:"tool_calls"`
}

type oaCallChunk struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type oaUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// lenientString is a string field that some servers fill with something
// else (an object, a list): anything but a string reads as "".
type lenientString string

func (l *lenientString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = lenientString(s)
	}
	return nil
}

// chunk turns one data line into eino's chunk: the first choice's delta,
// its finish reason and the usage. A chunk with none of these (a role, an
// empty delta) gives nil.
func (s *openaiStream) chunk(data []byte) (*schema.Message, error) {
	content, reasoning, finish, choice, ok := fastDelta(data)
	if !ok {
		return s.decode(data)
	}
	if !choice || content == "" && reasoning == "" && finish == "" {
		return nil, nil
	}
	if finish == "" && (content == "") != (reasoning == "") && s.br != nil {
		content, reasoning, finish = s.join(content, reasoning)
	}
	msg := &schema.Message{Role: schema.Assistant, Content: content, ReasoningContent: reasoning}
	if finish != "" {
		msg.ResponseMeta = &schema.ResponseMeta{FinishReason: finish}
	}
	return msg, nil
}

// join adds to a chunk of text only (or of reasoning only) the chunks of
// the same kind that follow it and have already arrived — whole lines in
// the read buffer — up to one with a finish reason, and returns the joined
// chunk: the agent then handles one chunk, one event, where the server
// sent several, and reads the socket no sooner. It stops, leaving the rest
// for next, at anything else (a chunk of the other kind or of both, tool
// calls, usage, an error, [DONE], a line that is not data), and at a line
// not yet whole. Text is neither dropped nor moved: chunk boundaries mean
// nothing to the agent.
func (s *openaiStream) join(content, reasoning string) (string, string, string) {
	isText := content != ""
	s.joined = s.joined[:0]
	finish := ""
	for finish == "" {
		buf, _ := s.br.Peek(s.br.Buffered())
		end := bytes.IndexByte(buf, '\n')
		if end < 0 {
			break
		}
		line := bytes.TrimSpace(buf[:end])
		if len(line) == 0 { // the blank line that ends an event
			_, _ = s.br.Discard(end + 1)
			continue
		}
		data, ok := dataOf(line)
		if !ok {
			break
		}
		c, r, f, choice, ok := fastDelta(data)
		if !ok || !choice || (c != "") != isText || (r != "") == isText {
			break
		}
		if len(s.joined) == 0 {
			s.joined = append(s.joined, content...)
			s.joined = append(s.joined, reasoning...)
		}
		s.joined = append(s.joined, c...)
		s.joined = append(s.joined, r...)
		finish = f
		_, _ = s.br.Discard(end + 1)
	}
	if len(s.joined) == 0 {
		return content, reasoning, ""
	}
	if isText {
		return string(s.joined), "", finish
	}
	return "", string(s.joined), finish
}

// decode is chunk through encoding/json: any chunk at all.
func (s *openaiStream) decode(data []byte) (*schema.Message, error) {
	// encoding/json reuses a slice's elements without zeroing them.
	choices := s.c.Choices[:cap(s.c.Choices)]
	clear(choices)
	s.c = oaChunk{Choices: choices[:0]}
	c := &s.c
	if err := json.Unmarshal(data, c); err != nil {
		return nil, err
	}
	var ch *oaChoice
	for i := range c.Choices {
		if c.Choices[i].Index == 0 {
			ch = &c.Choices[i]
			break
		}
	}
	if ch == nil && c.Usage == nil {
		return nil, nil
	}
	msg := &schema.Message{Role: schema.Assistant}
	if ch != nil {
		d := &ch.Delta
		msg.Content = d.Content
		msg.ReasoningContent = d.ReasoningContent
		if msg.ReasoningContent == "" {
			msg.ReasoningContent = string(d.Reasoning)
		}
		if len(d.ToolCalls) > 0 {
			msg.ToolCalls = make([]schema.ToolCall, len(d.ToolCalls))
			for i, tc := range d.ToolCalls {
				msg.ToolCalls[i] = schema.ToolCall{
					Index: tc.Index, ID: tc.ID, Type: tc.Type,
					Function: schema.FunctionCall{Name: tc.Function.Name, Arguments: tc.Function.Arguments},
				}
			}
		}
	}
	finish := ""
	if ch != nil {
		finish = ch.FinishReason
	}
	if finish != "" || c.Usage != nil {
		msg.ResponseMeta = &schema.ResponseMeta{FinishReason: finish, Usage: tokenUsage(c.Usage)}
	}
	if msg.Content == "" && msg.ReasoningContent == "" && len(msg.ToolCalls) == 0 && msg.ResponseMeta == nil {
		return nil, nil
	}
	if s.norm != nil {
		s.norm.apply(msg)
	}
	return msg, nil
}

func tokenUsage(u *oaUsage) *schema.TokenUsage {
	if u == nil {
		return nil
	}
	t := &schema.TokenUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if u.PromptTokensDetails != nil {
		t.PromptTokenDetails.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	if u.CompletionTokensDetails != nil {
		t.CompletionTokensDetails.ReasoningTokens = u.CompletionTokensDetails.ReasoningTokens
	}
	return t
}
