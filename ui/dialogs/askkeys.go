package dialogs

import (
	"strings"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// The actions of a plan's answers (exit_plan_mode), a question's (ask_user)
// and the note field's (deny with a note, the plan's note, a question's own
// words).
const (
	ActionPlanApproveEdits keymap.Action = "plan.approve_edits"
	ActionPlanApproveAsk   keymap.Action = "plan.approve_ask"
	ActionPlanKeepPlanning keymap.Action = "plan.keep_planning"
	ActionPlanBack         keymap.Action = "plan.back"
	ActionPlanScrollUp     keymap.Action = "plan.scroll_up"
	ActionPlanScrollDown   keymap.Action = "plan.scroll_down"
	ActionPlanPageUp       keymap.Action = "plan.page_up"
	ActionPlanPageDown     keymap.Action = "plan.page_down"
	ActionQuestionUp       keymap.Action = "question.up"
	ActionQuestionDown     keymap.Action = "question.down"
	ActionQuestionChoose   keymap.Action = "question.choose"
	ActionQuestionDismiss  keymap.Action = "question.dismiss"
	ActionNoteSend         keymap.Action = "note.send"
	ActionNoteBack         keymap.Action = "note.back"
)

// AskKeys are the tables of the permission dialog's other faces: a plan,
// a question, the note field. The App holds one set for every task's
// dialog, so the user's bindings, applied to it once, hold in all.
type AskKeys struct {
	Plan, Question, Note *keymap.Table
}

// DefaultAskKeys returns fresh default tables of a plan, a question and
// the note field.
func DefaultAskKeys() *AskKeys {
	return &AskKeys{
		Plan: keymap.New("Plan (the agent asks to leave plan mode)",
			keymap.Binding{Action: ActionPlanApproveEdits, Keys: []string{"1", "a"}, Help: "Approve; edits run without asking"},
			keymap.Binding{Action: ActionPlanApproveAsk, Keys: []string{"2", "y"}, Help: "Approve; ask before edits"},
			keymap.Binding{Action: ActionPlanKeepPlanning, Keys: []string{"3", "n"}, Help: "Keep planning, with a note on what to change"},
			keymap.Binding{Action: ActionPlanBack, Keys: []string{"esc"}, Help: "Keep planning, without a note"},
			keymap.Binding{Action: ActionPlanScrollUp, Keys: []string{"up"}, Help: "Scroll up"},
			keymap.Binding{Action: ActionPlanScrollDown, Keys: []string{"down"}, Help: "Scroll down"},
			keymap.Binding{Action: ActionPlanPageUp, Keys: []string{"pgup"}, Help: "Scroll up a page"},
			keymap.Binding{Action: ActionPlanPageDown, Keys: []string{"pgdn"}, Help: "Scroll down a page"},
		),
		Question: keymap.New("Question (the agent asks you; 1–9 pick an option)",
			keymap.Binding{Action: ActionQuestionUp, Keys: []string{"up"}, Help: "The option above"},
			keymap.Binding{Action: ActionQuestionDown, Keys: []string{"down", "tab"}, Help: "The option below"},
			keymap.Binding{Action: ActionQuestionChoose, Keys: []string{"enter"}, Help: "Choose the option"},
			keymap.Binding{Action: ActionQuestionDismiss, Keys: []string{"esc"}, Help: "Do not answer"},
		),
		Note: keymap.New("Note field (deny with a note, a plan's note, an answer in your words)",
			keymap.Binding{Action: ActionNoteSend, Keys: []string{"enter"}, Help: "Send the note"},
			keymap.Binding{Action: ActionNoteBack, Keys: []string{"esc"}, Help: "Back to the choices"},
		),
	}
}

// Tables lists the set's tables, for the help and the user's bindings.
func (k *AskKeys) Tables() []*keymap.Table { return []*keymap.Table{k.Plan, k.Question, k.Note} }

// SetAskKeys makes the dialog answer plans, questions and notes by k.
func (d *PermissionDialog) SetAskKeys(k *AskKeys) {
	d.ask = k
	d.reset()
}

// allKeys is every key of action as help shows them, joined by "/" ("1/a").
func allKeys(t *keymap.Table, action keymap.Action) string {
	var out []string
	for _, k := range t.Keys(action) {
		out = append(out, keymap.Display(k))
	}
	return strings.Join(out, "/")
}
