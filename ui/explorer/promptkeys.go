package explorer

import "github.com/fawn-ide/fawn/ui/keymap"

// Actions of the explorer's questions: the foot line's yes or no (delete,
// replace) and the name being typed (new file, rename).
const (
	ActionAnswerYes    keymap.Action = "explorer.answer_yes"
	ActionAnswerNo     keymap.Action = "explorer.answer_no"
	ActionNameDone     keymap.Action = "explorer.name_done"
	ActionNameCancel   keymap.Action = "explorer.name_cancel"
	ActionNameBackward keymap.Action = "explorer.name_backspace"
	ActionNameClear    keymap.Action = "explorer.name_clear"
)

// PromptKeys are the tables of the explorer's questions; the App holds one
// set for every explorer, so the user's bindings hold in all.
type PromptKeys struct {
	Answer *keymap.Table // delete? replace? (y/n)
	Name   *keymap.Table // typing a new name
}

// DefaultPromptKeys returns fresh default tables of the explorer's
// questions.
func DefaultPromptKeys() *PromptKeys {
	return &PromptKeys{
		Answer: keymap.New("Explorer: delete or replace? (y/n)",
			keymap.Binding{Action: ActionAnswerYes, Keys: []string{"y"}, Help: "Yes: delete, or replace the file there"},
			keymap.Binding{Action: ActionAnswerNo, Keys: []string{"n", "esc"}, Help: "No: nothing changes"},
		),
		Name: keymap.New("Explorer: typing a name (new file, rename)",
			keymap.Binding{Action: ActionNameDone, Keys: []string{"enter"}, Help: "Create or rename"},
			keymap.Binding{Action: ActionNameCancel, Keys: []string{"esc"}, Help: "Cancel"},
			keymap.Binding{Action: ActionNameBackward, Keys: []string{"backspace", "ctrl+backspace"}, Help: "Delete the last character"},
			keymap.Binding{Action: ActionNameClear, Keys: []string{"ctrl+u"}, Help: "Clear the name"},
		),
	}
}

// Tables lists the set's tables, for the help and the user's bindings.
func (k *PromptKeys) Tables() []*keymap.Table { return []*keymap.Table{k.Answer, k.Name} }

// WithPromptKeys makes the explorer answer its questions by k (one set
// for every explorer of the app); without it the explorer has its own.
func WithPromptKeys(k *PromptKeys) Option { return func(o *options) { o.prompt = k } }
