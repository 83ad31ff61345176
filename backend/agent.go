package backend

import (
	"context"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
)

// Agent is a task's agent backend: whatever runs its turns. fawn's own eino
// agent (*agent.Session) is one; an agent hosted over ACP is another. The
// event stream is the contract: every event of a tool call carries the
// call's ID, which routes it to the widgets that show it, whoever emits it.
// What a backend offers beyond turns is in Services, each service optional.
type Agent interface {
	// Run starts a turn. Its events arrive in order on the returned channel,
	// the last one is EventTurnEnded, and then the channel is closed.
	// Cancelling ctx (Esc) ends the turn promptly.
	Run(ctx context.Context, prompt string) <-chan agent.Event
	// Approve answers the permission request of tool call id; the first answer wins.
	Approve(id string, a agent.Answer)
	Mode() agent.Mode
	SetMode(m agent.Mode)
	// ModelName is "provider/model" for the status bar.
	ModelName() string
	// Clear forgets the conversation (/clear).
	Clear()
	Todos() []tools.Todo
	Usage() agent.Usage
	// ToolNames lists the tools the model can call (/tools).
	ToolNames() []string
}

// *agent.Session is the Agent fawn runs; this says so to the compiler.
var _ Agent = (*agent.Session)(nil)
