package agent

import "github.com/fawn-ide/fawn/tools"

// Mode is the permission mode (permissions.mode, --permission-mode).
type Mode string

const (
	// ModeAsk: reads never ask; edits and commands ask.
	ModeAsk Mode = "ask"
	// ModeAcceptEdits: edits run; commands ask.
	ModeAcceptEdits Mode = "accept-edits"
	// ModePlan: edits and commands are refused with a message to the model.
	ModePlan Mode = "plan"
	// ModeYolo: nothing asks.
	ModeYolo Mode = "yolo"
)

// Modes lists the valid modes in the order help shows them.
var Modes = []Mode{ModeAsk, ModeAcceptEdits, ModePlan, ModeYolo}

// Decision is the user's answer to a permission request.
type Decision int

const (
	// Deny refuses this call.
	Deny Decision = iota
	// AllowOnce runs this call.
	AllowOnce
	// AllowSession runs this call and, for the rest of the session, the same
	// command (bash) or edits to the same file (text_editor).
	AllowSession
	// AllowAlways runs this call and adds the rule that allows calls like it
	// (rules.Suggest) to the project's rules kept in the user's data
	// directory (Options.SaveRule), so it holds in later sessions too.
	AllowAlways
)

func (d Decision) String() string {
	switch d {
	case AllowOnce:
		return "allow"
	case AllowSession:
		return "allow-session"
	case AllowAlways:
		return "allow-always"
	default:
		return "deny"
	}
}

// Answer is a Decision and, for a denial, an optional note passed to the model.
type Answer struct {
	Decision Decision
	Note     string
	// Auto is true when no person answered (a mode, a session grant, headless).
	Auto bool
}

// PermissionRequest is what a permission dialog shows.
type PermissionRequest struct {
	ID     string // tool-call ID
	Tool   string
	Action tools.Action
	// Reason says why it asks, e.g. "edits ask in ask mode".
	Reason string
	// Agent is the subagent that asks ("" for the main agent).
	Agent string
	// Question, when set, is not a permission request but the model's
	// question to the user (ask_user): the answer is AllowOnce with the
	// chosen option or the user's own words as Note, or Deny when the
	// user would not answer.
	Question *Question
	// Plan, when set, is not a permission request but the model's plan
	// (exit_plan, in Markdown) for the user to approve: PlanApproveAcceptEdits,
	// PlanApproveAsk or PlanKeepPlanning with a note.
	Plan string
}

// Question is what ask_user asks: a question and 2–6 options (the user
// may also answer in their own words).
type Question struct {
	Text    string
	Options []string
}
