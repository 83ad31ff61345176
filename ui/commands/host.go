package commands

import (
	"context"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/lsp"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/ui/picker"
)

// Host is what a command may ask of the frame it runs in (ui.App is one).
// It is narrow on purpose: a command says things, asks the user to choose,
// and works through the agent and its services; the layout, the panes and
// the event loop stay the frame's own. Every method is called on the UI
// goroutine, except Post, which any goroutine may call.
type Host interface {
	// Info and Error add a notice to the chat.
	Info(text string)
	Error(text string)
	// Flash shows a short message in the status bar.
	Flash(msg string)
	// Pick opens a picker over the panes, replacing one already open;
	// onPick runs on the UI goroutine when the user chooses. The picker is
	// returned so that a command can fill it as results arrive.
	Pick(title string, items []picker.Item, onPick func(picker.Item)) *picker.Picker

	// Go runs f on its own goroutine; a panic in it is reported as a
	// crash, like one on the UI goroutine. Post runs f on the UI goroutine.
	Go(f func())
	Post(f func())
	// Context ends when fawn stops; background work a command starts
	// takes it.
	Context() context.Context

	// Agent is the agent the chat talks to; Services are what it offers
	// beyond turns (a nil service means the agent has no such thing).
	Agent() Agent
	Services() backend.Services
	// SetMode sets the permission mode and says so in the status bar.
	SetMode(m agent.Mode)
	// LSP and MCP are the language and MCP servers; nil when there are none.
	LSP() LSPView
	MCP() MCPView

	// TurnRunning reports whether a turn is running. RunTurn starts one
	// whose events start returns, shown as a prompt's are and cancelled by
	// Esc; it starts nothing and returns false while a turn runs.
	TurnRunning() bool
	RunTurn(start func(ctx context.Context) <-chan agent.Event) bool
	// Submit sends text as if the user had typed it in the chat.
	Submit(text string)
	// Prompt sends text to the agent as the user's message (queued while
	// a turn runs), shown in the chat and kept in the session as shown: a
	// command's own prompt (/init) instead of what the user typed.
	Prompt(shown, text string)
	// ClearConversation forgets the conversation and clears the chat, the
	// to-dos and the Changes tab.
	ClearConversation()
	// ResetChat clears the chat, the usage shown, the to-dos and the
	// Changes tab for a conversation that starts afresh.
	ResetChat()
	// Ask shows a small modal question; the choice the user takes runs.
	Ask(title, text string, choices ...Choice)
	// Edit shows text to edit in a box, aside beside it; Enter gives the
	// text as edited to done, Esc closes the box.
	Edit(title, text, aside string, done func(text string))
	// RecordWorkspace keeps the open tabs and the terminal's directory in
	// the session; Restore shows a resumed session as it was.
	RecordWorkspace()
	Restore(res *agent.Resumed)
	// PickRewind opens the /rewind picker of the prompts to go back
	// before, PickChange the /diff picker of the files changed, and
	// RevertFile puts a file of the project back as it was before the
	// session changed it; each says in the chat why it cannot.
	PickRewind()
	PickChange()
	RevertFile(path string)
	// ShowHelp opens the help overlay; Quit quits, first asking what to do
	// with unsaved files.
	ShowHelp()
	Quit()
	// Commands is the registry this command was found in.
	Commands() *Commands

	// Tasks lists the tasks open, in the task bar's order; ShowTask shows
	// the i-th. NewTask opens a task called name in a git worktree of its
	// own and shows it, prompt (when not "") as its first message; it says
	// in the chat why it cannot.
	Tasks() []TaskInfo
	ShowTask(i int)
	NewTask(name, prompt string)
	// MergeTask merges the branch of the task shown into its base branch
	// (asking to commit what is uncommitted first); DiscardTask closes it
	// and removes its worktree and branch, after a yes. Each says in the
	// chat why it cannot.
	MergeTask()
	DiscardTask()
	// ReviewTask turns on (or, again, off) the review of the shown task's
	// branch against its base in its Changes tab; it says in the chat why
	// it cannot.
	ReviewTask()

	// Root is the project's directory; Config is fawn's configuration
	// (never nil).
	Root() string
	Config() *config.Config
}

// TaskInfo is a task as /task lists it.
type TaskInfo struct {
	Name   string // "" for the project's own
	Root   string // its directory: the project, or its worktree
	Branch string // its own git branch, "" for the project's
	State  string // "working", "waiting for you", "done", "failed", "idle"
	Shown  bool
}

// Choice is one answer of a question (Host.Ask): a key, say "o" or "esc",
// and what it does.
type Choice struct {
	Key, Label string
	Do         func()
}

// Agent is what a command reads of the agent (backend.Agent has more).
type Agent interface {
	Mode() agent.Mode
	// Clear forgets the conversation.
	Clear()
	// ModelName is "provider/model".
	ModelName() string
	// ToolNames lists the tools the model can call.
	ToolNames() []string
}

// LSPView is what /lsp shows of the language servers (*lsp.Manager).
type LSPView interface {
	Statuses() []lsp.Status
	Restart(name string) error
}

// MCPView is what /mcp and /tools show of the MCP servers
// (*mcp.Manager), and what the chat offers of them: their prompts as
// commands, their resources as @-mentions.
type MCPView interface {
	Status() []mcp.Status
	Restart(name string) error
	Prompts() []mcp.Prompt
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error)
	Resources() []mcp.Resource
}
