package tools

import (
	"context"

	"github.com/cloudwego/eino/components/tool"
)

// Tool is what every fawn tool implements: an eino InvokableTool that can also
// say, before it runs and without side effects, what a call would do.
type Tool interface {
	tool.InvokableTool
	// Name is the tool's name as the model calls it ("text_editor").
	Name() string
	// Plan decodes argsJSON and describes the call for the permission check.
	// It must not change anything. A decoding or validation error is returned
	// as is; the agent turns it into a tool result for the model.
	Plan(ctx context.Context, argsJSON string) (Action, error)
}

// Kind classifies what a call does, which decides whether it needs permission.
type Kind int

const (
	// KindRead reads inside the project; it never asks.
	KindRead Kind = iota
	// KindEdit changes files (asks in "ask" mode, runs in "accept-edits").
	KindEdit
	// KindExec runs a command (asks in "ask" and "accept-edits" modes).
	KindExec
	// KindOther is anything else with side effects (MCP tools); treated like KindExec.
	KindOther
	// KindFetch reaches the web (web_fetch, web_search): it asks in every
	// mode but yolo, plan mode included (it changes nothing here), and a
	// session grant holds for its Domain.
	KindFetch
)

func (k Kind) String() string {
	switch k {
	case KindRead:
		return "read"
	case KindEdit:
		return "edit"
	case KindExec:
		return "exec"
	case KindFetch:
		return "fetch"
	default:
		return "other"
	}
}

// Action describes one planned call, for the permission dialog and the tool card.
type Action struct {
	Kind Kind
	// Summary is one line a user can read: "Edit ui/chat.go +12 −3", "$ go test ./...".
	Summary string
	// Path is the absolute file an edit targets (session grants for edits are per file).
	Path string
	// Diff is a unified diff of a planned edit, when it can be computed in advance.
	Diff string
	// Protected, for an edit, says why its path always asks (see [Protected]).
	Protected string
	// Command and Cwd describe a planned shell command (grants for bash are per exact command).
	Command string
	Cwd     string
	// Domain is the host a web call reaches (grants and rules for
	// web_fetch are per domain).
	Domain string
	// Outside: the command is to run once outside the shared shell's
	// sandbox, which always asks.
	Outside bool
	// ReadOnlyHint: the call is KindRead on its MCP server's word (the
	// tool's readOnlyHint annotation), not on fawn's own reading of it. A
	// deny rule still refuses it and an ask rule naming it still asks.
	ReadOnlyHint bool
}
