package editor

import (
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// The actions of the editor's smaller contexts: the find bar and go to
// line, the questions a tab asks on its status line, the diff view, the
// versions view and the one key vim mode takes from a table. Each context
// is a table of its own, so a key is checked for conflicts only against
// the keys in force beside it.
const (
	// The find bar and go to line (any prompt on the status line).
	actPromptSubmit    keymap.Action = "editor.promptSubmit"
	actPromptCancel    keymap.Action = "editor.promptCancel"
	actPromptBackspace keymap.Action = "editor.promptBackspace"
	actPromptClear     keymap.Action = "editor.promptClear"

	// Closing a tab with unsaved changes.
	actCloseSave    keymap.Action = "editor.closeSave"
	actCloseDiscard keymap.Action = "editor.closeDiscard"

	// Saving over a file that changed on disk.
	actSaveOverwrite keymap.Action = "editor.saveOverwrite"
	actSaveReload    keymap.Action = "editor.saveReload"
	actSaveDiff      keymap.Action = "editor.saveDiff"

	// A file with unsaved changes changed on disk.
	actChangedReload keymap.Action = "editor.changedReload"
	actChangedKeep   keymap.Action = "editor.changedKeep"
	actChangedDiff   keymap.Action = "editor.changedDiff"

	// The diff view.
	actDiffClose      keymap.Action = "editor.diffClose"
	actDiffLayout     keymap.Action = "editor.diffLayout"
	actDiffOpen       keymap.Action = "editor.diffOpen"
	actDiffRevertHunk keymap.Action = "editor.diffRevertHunk"
	actDiffRevertFile keymap.Action = "editor.diffRevertFile"

	// ActionVersionsOverwrite and ActionVersionsKeep answer the versions
	// view (ShowVersions): a VersionChoice names one of them.
	ActionVersionsOverwrite keymap.Action = "editor.versionsOverwrite"
	ActionVersionsKeep      keymap.Action = "editor.versionsKeep"

	// Vim keys: the key that is vim's <Esc> (leave insert, visual or
	// the command line; drop a pending command).
	actVimEscape keymap.Action = "editor.vimEscape"
)

// KeySet is the editor's tables besides its main one (DefaultKeys): one
// per context that takes the keys while it shows. One set serves every
// editor (each task's), so the user's bindings, applied to it once, hold
// in all of them.
type KeySet struct {
	Finder   *keymap.Table // the file finder: the picker's actions
	Prompt   *keymap.Table // the find bar, go to line, and Esc of a question
	Close    *keymap.Table // closing a tab with unsaved changes
	Save     *keymap.Table // saving over a file changed on disk
	Changed  *keymap.Table // a file with unsaved changes changed on disk
	Diff     *keymap.Table // the diff view
	Versions *keymap.Table // three versions side by side (/rewind)
	Vim      *keymap.Table // editor.keys: vim
}

// DefaultKeySet returns fresh default tables of the editor's smaller
// contexts.
func DefaultKeySet() *KeySet {
	return &KeySet{
		Finder: hiddenPickerKeys(),
		Prompt: keymap.New("Editor: find bar and go to line",
			keymap.Binding{Action: actPromptSubmit, Keys: []string{"enter"}, Help: "Stay at the match and close the find bar; go to the line"},
			keymap.Binding{Action: actPromptCancel, Keys: []string{"esc"}, Help: "Close the find bar (back where it started) or go to line; cancel a question"},
			keymap.Binding{Action: actPromptBackspace, Keys: []string{"backspace", "ctrl+backspace"}, Help: "Delete the last character typed"},
			keymap.Binding{Action: actPromptClear, Keys: []string{"ctrl+u"}, Help: "Clear what was typed"},
		),
		Close: keymap.New("Editor: closing a tab with unsaved changes",
			keymap.Binding{Action: actCloseSave, Keys: []string{"s"}, Help: "Save and close"},
			keymap.Binding{Action: actCloseDiscard, Keys: []string{"d"}, Help: "Discard the changes and close"},
		),
		Save: keymap.New("Editor: saving over a file that changed on disk",
			keymap.Binding{Action: actSaveOverwrite, Keys: []string{"o"}, Help: "Overwrite it with yours"},
			keymap.Binding{Action: actSaveReload, Keys: []string{"r"}, Help: "Reload it (yours are lost)"},
			keymap.Binding{Action: actSaveDiff, Keys: []string{"d"}, Help: "Show the diff from the disk to yours"},
		),
		Changed: keymap.New("Editor: a file you changed changed on disk",
			keymap.Binding{Action: actChangedReload, Keys: []string{"r"}, Help: "Reload it (yours are lost)"},
			keymap.Binding{Action: actChangedKeep, Keys: []string{"k"}, Help: "Keep yours (Esc too); saving overwrites the disk's"},
			keymap.Binding{Action: actChangedDiff, Keys: []string{"d"}, Help: "Show the diff from the disk to yours"},
		),
		Diff: keymap.New("Editor: diff view",
			keymap.Binding{Action: actDiffClose, Keys: []string{"esc"}, Help: "Back to the file"},
			keymap.Binding{Action: actDiffLayout, Keys: []string{"s"}, Help: "Side by side or unified"},
			keymap.Binding{Action: actDiffOpen, Keys: []string{"o", "enter"}, Help: "Open the file at the hunk"},
			keymap.Binding{Action: actDiffRevertHunk, Keys: []string{"r"}, Help: "Revert the hunk at the cursor"},
			keymap.Binding{Action: actDiffRevertFile, Keys: []string{"R"}, Help: "Revert the whole file"},
		),
		Versions: keymap.New("Editor: versions side by side (/rewind over a file changed by hand)",
			keymap.Binding{Action: ActionVersionsOverwrite, Keys: []string{"o"}, Help: "Overwrite the file with what /rewind puts back"},
			keymap.Binding{Action: ActionVersionsKeep, Keys: []string{"esc"}, Help: "Keep the file as it is"},
		),
		Vim: keymap.New("Editor: vim keys (vim's own keys are vim's; this one is the <Esc> they read)",
			keymap.Binding{Action: actVimEscape, Keys: []string{"esc"}, Help: "Vim's <Esc>: normal mode, drop a pending command"},
		),
	}
}

// Tables lists the set's tables, for the help and the user's bindings.
func (k *KeySet) Tables() []*keymap.Table {
	return []*keymap.Table{k.Finder, k.Prompt, k.Close, k.Save, k.Changed, k.Diff, k.Versions, k.Vim}
}

// WithKeySet makes the editor use ks for its smaller contexts (one set
// for every editor of the app); without it the editor has its own
// defaults.
func WithKeySet(ks *KeySet) Option { return func(t *Tabs) { t.keyset = ks } }

// isTyping says whether ev types its rune (no Ctrl, no Alt).
func isTyping(ev *tcell.EventKey) bool {
	return ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0
}

// Scopes are the keys in force together though kept in several tables,
// for a conflict check: the find bar's with the find keys of main (the
// editor's table, which act while it is open), each question's answers
// with the key that cancels it.
func (k *KeySet) Scopes(main *keymap.Table) []*keymap.Table {
	cancel := k.Prompt.Only(actPromptCancel)
	return []*keymap.Table{
		keymap.Scope(k.Prompt.Context, k.Prompt.Bindings, main.Only(actFindNext, actFindPrev)),
		keymap.Scope(k.Close.Context, k.Close.Bindings, cancel),
		keymap.Scope(k.Save.Context, k.Save.Bindings, cancel),
		keymap.Scope(k.Changed.Context, k.Changed.Bindings, cancel),
	}
}
