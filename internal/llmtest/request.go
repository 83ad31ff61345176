package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Request is one HTTP request the server received, as it came.
type Request struct {
	Method string
	Path   string
	Query  string // the raw query string
	Header http.Header
	Body   []byte
	// Chat is the decoded body of a chat completion request (nil otherwise,
	// or when the body was not JSON).
	Chat *ChatRequest
	// Messages is the decoded body of an Anthropic Messages request.
	Messages *MessagesRequest
}

// ChatRequest is the part of a chat completion request tests look at.
type ChatRequest struct {
	Model    string    `json:"model"`
	Stream   bool      `json:"stream"`
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools,omitempty"`
	// Fields holds every top-level field as sent (extra_body checks).
	Fields map[string]json.RawMessage `json:"-"`
}

// Tool is a function the client offered the model.
type Tool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// Message is one message of a request's history.
type Message struct {
	Role string `json:"role"`
	// Content is the text; a content array is joined from its text parts.
	Content          Content       `json:"content"`
	ReasoningContent string        `json:"reasoning_content,omitempty"`
	ToolCalls        []CallMessage `json:"tool_calls,omitempty"`
	ToolCallID       string        `json:"tool_call_id,omitempty"`
	Name             string        `json:"name,omitempty"`
	// Images are the URLs of the content's image parts (data: URLs for
	// images sent inline).
	Images []string `json:"-"`
}

// CallMessage is a tool call inside an assistant message of the history.
type CallMessage struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Content is a message's text, whether sent as a string or as parts.
type Content string

// UnmarshalJSON accepts a string, null, or an array of {type, text} parts.
func (c *Content) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = Content(s)
		return nil
	}
	if strings.TrimSpace(string(b)) == "null" {
		*c = ""
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("content: want a string or an array of parts: %w", err)
	}
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p.Text)
	}
	*c = Content(sb.String())
	return nil
}

func parseChat(body []byte) (*ChatRequest, error) {
	var cr ChatRequest
	if err := json.Unmarshal(body, &cr); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(body, &cr.Fields); err != nil {
		return nil, err
	}
	var parts struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &parts) == nil {
		for i, m := range parts.Messages {
			var ps []struct {
				Type     string `json:"type"`
				ImageURL struct {
					URL string `json:"url"`
				} `json:"image_url"`
			}
			if i < len(cr.Messages) && json.Unmarshal(m.Content, &ps) == nil {
				for _, p := range ps {
					if p.Type == "image_url" {
						cr.Messages[i].Images = append(cr.Messages[i].Images, p.ImageURL.URL)
					}
				}
			}
		}
	}
	return &cr, nil
}

// checkHistory makes the checks OpenAI makes of a conversation: an assistant
// message with tool calls must be followed by one tool message per call, and
// a tool message must answer a call of the assistant message before it.
func checkHistory(msgs []Message) error {
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case "assistant":
			if len(m.ToolCalls) == 0 {
				continue
			}
			want := map[string]bool{}
			for _, c := range m.ToolCalls {
				if c.ID == "" {
					return fmt.Errorf("messages[%d]: a tool call has no id", i)
				}
				if want[c.ID] {
					return fmt.Errorf("messages[%d]: tool call id %q appears twice", i, c.ID)
				}
				want[c.ID] = true
			}
			j := i + 1
			for ; j < len(msgs) && msgs[j].Role == "tool"; j++ {
				if !want[msgs[j].ToolCallID] {
					return fmt.Errorf("messages[%d]: tool message answers %q, which is not a pending call of messages[%d]", j, msgs[j].ToolCallID, i)
				}
				delete(want, msgs[j].ToolCallID)
			}
			if len(want) > 0 {
				var ids []string
				for _, c := range m.ToolCalls {
					if want[c.ID] {
						ids = append(ids, c.ID)
					}
				}
				return fmt.Errorf("an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(ids, ", "))
			}
			i = j - 1
		case "tool":
			return fmt.Errorf("messages[%d]: messages with role 'tool' must be a response to a preceding message with 'tool_calls'", i)
		}
	}
	return nil
}
