package provider

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The Messages API's request and event shapes, the part fawn sends and
// reads (https://docs.anthropic.com/en/api/messages and .../messages-streaming).

// aRequest is a Messages request.
type aRequest struct {
	Model         string     `json:"model"`
	MaxTokens     int64      `json:"max_tokens"`
	System        []aBlock   `json:"system,omitempty"`
	Messages      []aMessage `json:"messages"`
	Tools         []aTool    `json:"tools,omitempty"`
	Temperature   *float64   `json:"temperature,omitempty"`
	StopSequences []string   `json:"stop_sequences,omitempty"`
	Stream        bool       `json:"stream"`
}

// body is the request's JSON with the extra top-level fields set (they win
// over fawn's own, as models.chat_model.extra_body promises).
func (p *aRequest) body(extra map[string]any) ([]byte, error) {
	b, err := json.Marshal(p)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	for k, v := range extra {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fields[k] = raw
	}
	return json.Marshal(fields)
}

// aMessage is one turn of the conversation.
type aMessage struct {
	Role    string   `json:"role"` // user | assistant
	Content []aBlock `json:"content"`
}

// aBlock is one content block: text, image, tool_use, tool_result,
// thinking or redacted_thinking, with only its own fields set.
type aBlock struct {
	Type         string          `json:"type"`
	Text         string          `json:"text,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      []aBlock        `json:"content,omitempty"`
	Thinking     *string         `json:"thinking,omitempty"` // present, even empty, on a thinking block
	Signature    string          `json:"signature,omitempty"`
	Data         string          `json:"data,omitempty"`
	Source       *aSource        `json:"source,omitempty"`
	CacheControl *aCache         `json:"cache_control,omitempty"`
}

// aSource is an image's data or address.
type aSource struct {
	Type      string `json:"type"` // base64 | url
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// aCache is a prompt-cache breakpoint.
type aCache struct {
	Type string `json:"type"`
}

// ephemeral is the breakpoint fawn sets (shared; never modified).
var ephemeral = &aCache{Type: "ephemeral"}

// aTool is a tool offered to the model.
type aTool struct {
	Name         string         `json:"name"`
	Description  string         `json:"description,omitempty"`
	InputSchema  map[string]any `json:"input_schema"`
	CacheControl *aCache        `json:"cache_control,omitempty"`
}

// aEvent is one streamed event; which fields are set depends on Type.
type aEvent struct {
	Type    string `json:"type"`
	Index   int64  `json:"index"`
	Message struct {
		Usage *aUsage `json:"usage"`
	} `json:"message"`
	ContentBlock struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		Thinking  string          `json:"thinking"`
		Signature string          `json:"signature"`
		Data      string          `json:"data"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *aUsage `json:"usage"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// aUsage is a usage report; a field left out (or null) is nil.
type aUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
}

// merge takes the fields v reports; the others keep their values.
func (u *aUsage) merge(v *aUsage) {
	for _, f := range []struct{ dst, src **int64 }{
		{&u.InputTokens, &v.InputTokens},
		{&u.OutputTokens, &v.OutputTokens},
		{&u.CacheReadInputTokens, &v.CacheReadInputTokens},
		{&u.CacheCreationInputTokens, &v.CacheCreationInputTokens},
	} {
		if *f.src != nil {
			n := **f.src
			*f.dst = &n
		}
	}
}

type usageCounts struct{ input, output, cacheRead, cacheWrite int64 }

func (u *aUsage) values() usageCounts {
	get := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	return usageCounts{get(u.InputTokens), get(u.OutputTokens), get(u.CacheReadInputTokens), get(u.CacheCreationInputTokens)}
}

// sseReader reads server-sent events (the WHATWG event-stream format).
type sseReader struct {
	r *bufio.Reader
}

// maxSSEEvent bounds one event (its lines and its data): a server that
// never ends a line cannot make fawn hold more than this.
const maxSSEEvent = 16 << 20

// errEventTooLong ends an answer whose event went past maxSSEEvent.
var errEventTooLong = fmt.Errorf("agent: an event of the answer is longer than %d MB", maxSSEEvent>>20)

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 32<<10)}
}

// next returns the data of the next event that has some, its data lines
// joined by newlines. At the end of the stream it returns io.EOF (an event
// cut off by the end is dropped, as the format says); a broken connection
// gives the transport's error.
func (s *sseReader) next() ([]byte, error) {
	var data []byte
	has := false
	for {
		line, err := s.line(maxSSEEvent - len(data))
		if err != nil {
			return nil, err
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) == 0 {
			if has {
				return data, nil
			}
			continue
		}
		if line[0] == ':' {
			continue // a comment (keep-alive)
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		if string(field) == "data" {
			if has {
				data = append(data, '\n')
			}
			data = append(data, value...)
			has = true
		}
	}
}

// line reads one line, newline included, of at most limit bytes.
func (s *sseReader) line(limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(line)+len(chunk) > limit {
			return nil, errEventTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}
