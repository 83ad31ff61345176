package session

import "time"

// Version is the transcript format this package writes and reads.
const Version = 1

// Record types (the "type" of a line).
const (
	TypeSession   = "session"
	TypeSystem    = "system"
	TypeModel     = "model"
	TypeMessage   = "message"
	TypeTodos     = "todos"
	TypeTurn      = "turn"
	TypeCompact   = "compact"
	TypeTrim      = "trim"
	TypeHistory   = "history"
	TypeTruncate  = "truncate"
	TypeWorkspace = "workspace"
	// TypeNote is a note of turns written in the background (Summary),
	// standing for Covers messages whose fingerprint is Hash.
	TypeNote = "note"
)

// Record is one line of a transcript. Type says which fields it uses (see
// the package comment); the others are left empty.
type Record struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`

	// session (the header)
	Version int       `json:"version,omitempty"`
	ID      string    `json:"id,omitempty"`
	Project string    `json:"project,omitempty"`
	Created time.Time `json:"created,omitzero"`
	Fawn    string    `json:"fawn,omitempty"`
	Parent  string    `json:"parent,omitempty"`
	// Title is a fork's title (a session's title is otherwise its first prompt).
	Title string `json:"title,omitempty"`

	// system
	Prompt string   `json:"prompt,omitempty"`
	Tools  []string `json:"tools,omitempty"`

	// model; also on turn records
	Model string `json:"model,omitempty"`

	// message: N is the message's index in the conversation
	N       *int     `json:"n,omitempty"`
	Message *Message `json:"message,omitempty"`

	// compact and history: the conversation from here on
	Messages []Message `json:"messages,omitempty"`

	// todos
	Todos []Todo `json:"todos,omitempty"`

	// turn
	Usage      *Usage `json:"usage,omitempty"`
	DurationMS int64  `json:"duration_ms,omitempty"`
	Error      string `json:"error,omitempty"`

	// compact
	Reason       string `json:"reason,omitempty"` // manual | auto | overflow
	Focus        string `json:"focus,omitempty"`
	Summary      string `json:"summary,omitempty"`
	TokensBefore int    `json:"tokens_before,omitempty"`
	TokensAfter  int    `json:"tokens_after,omitempty"`

	// note (its text is Summary)
	Covers int    `json:"covers,omitempty"`
	Hash   string `json:"hash,omitempty"`

	// trim
	Trims []Trim `json:"trims,omitempty"`

	// truncate: the conversation keeps its first Keep messages
	Keep *int `json:"keep,omitempty"`

	// workspace
	Tabs []Tab  `json:"tabs,omitempty"`
	Cwd  string `json:"cwd,omitempty"`
}

// Message is one message of the conversation as the model is sent it.
type Message struct {
	Role    string `json:"role"` // user | assistant | tool
	Content string `json:"content,omitempty"`
	// Parts, when set, is the message's content in parts (text and images);
	// Content is then empty.
	Parts     []Part `json:"parts,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
	// ToolCalls are an assistant message's calls.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID and ToolName say which call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	ToolName   string `json:"tool_name,omitempty"`
	Name       string `json:"name,omitempty"`
	// Extra is what a provider keeps with a message for its next request
	// (a reasoning signature); values must survive a JSON round trip.
	Extra map[string]any `json:"extra,omitempty"`
	// Typed, on a user message, is what the user typed when the model got
	// more (the files they attached, the context a hook added): titles,
	// exports and a resumed chat show it. Empty when they are the same.
	Typed string `json:"typed,omitempty"`
}

// Shown is the message as the user sees it: what they typed, for a user
// message the model got more of; else its text.
func (m Message) Shown() string {
	if m.Typed != "" {
		return m.Typed
	}
	return m.text()
}

// ToolCall is one call of an assistant message.
type ToolCall struct {
	ID        string         `json:"id"`
	Type      string         `json:"type,omitempty"`
	Name      string         `json:"name"`
	Arguments string         `json:"arguments"`
	Extra     map[string]any `json:"extra,omitempty"`
}

// Part is a piece of a message of several parts.
type Part struct {
	Type string `json:"type"` // text | image
	Text string `json:"text,omitempty"`
	MIME string `json:"mime,omitempty"`
	// Blob is the SHA-256 (hex) of the image in the session's blobs.
	Blob string `json:"blob,omitempty"`
	// URL is an image given by address rather than content.
	URL    string `json:"url,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Todo is one item of the agent's to-do list.
type Todo struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	Priority string `json:"priority,omitempty"`
}

// Usage counts a turn's tokens.
type Usage struct {
	Input   int `json:"input,omitempty"`
	Output  int `json:"output,omitempty"`
	Cached  int `json:"cached,omitempty"`
	Context int `json:"context,omitempty"` // prompt tokens of the turn's last request
	Steps   int `json:"steps,omitempty"`
	Tools   int `json:"tools,omitempty"`
	// CostUSD is what the turn's priced responses cost; Priced and
	// Unpriced count the responses with and without a price.
	CostUSD  float64 `json:"cost_usd,omitempty"`
	Priced   int     `json:"priced,omitempty"`
	Unpriced int     `json:"unpriced,omitempty"`
}

// Trim is one message whose content was shortened.
type Trim struct {
	N       int    `json:"n"`
	Content string `json:"content"`
}

// Tab is an open editor tab.
type Tab struct {
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"` // 1-based
	Col    int    `json:"col,omitempty"`  // 1-based
	Active bool   `json:"active,omitempty"`
}

// Workspace is what the IDE had open besides the chat.
type Workspace struct {
	Tabs []Tab
	Cwd  string
}

// Of returns a pointer to n, for Record.N and Record.Keep.
func Of(n int) *int { return &n }
