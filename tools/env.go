package tools

import "time"

// Env is what the tools of one session share. Build it with NewEnv; the
// fields that are nil are optional.
type Env struct {
	// Root is the project root, absolute and with symlinks resolved.
	Root string
	// Files remembers what the agent has read, so edits can insist on a fresh view.
	Files *FileTracker
	// Todos holds the session's to-do list.
	Todos *TodoStore
	// Guard, when set, may refuse an edit (the user has unsaved changes in that file).
	Guard EditGuard
	// BashTimeout is the default timeout of a bash call (tools.bash.timeout).
	BashTimeout time.Duration
}

// EditGuard lets the UI veto an agent edit to a file the user is editing.
type EditGuard interface {
	// CheckEdit returns an error meant for the model when path must not be changed now.
	CheckEdit(path string) error
}

// Todo is one item of the agent's to-do list.
type Todo struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Status   string `json:"status"`             // pending | in_progress | completed | cancelled
	Priority string `json:"priority,omitempty"` // low | medium | high
}
