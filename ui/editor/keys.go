package editor

import (
	"strconv"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// The editor's actions: the names ui.keys overrides, and what the tabs and
// the code view switch on.
const (
	actSave        keymap.Action = "editor.save"
	actFinder      keymap.Action = "editor.finder"
	actFind        keymap.Action = "editor.find"
	actFindNext    keymap.Action = "editor.findNext"
	actFindPrev    keymap.Action = "editor.findPrev"
	actGotoLine    keymap.Action = "editor.gotoLine"
	actClearFind   keymap.Action = "editor.clearFind"
	actNextProblem keymap.Action = "editor.nextProblem"
	actPrevProblem keymap.Action = "editor.prevProblem"
	actDefinition  keymap.Action = "editor.definition"
	actHover       keymap.Action = "editor.hover"
	actUndo        keymap.Action = "editor.undo"
	actRedo        keymap.Action = "editor.redo"
	actCopy        keymap.Action = "editor.copy"
	actCut         keymap.Action = "editor.cut"
	actPaste       keymap.Action = "editor.paste"
	actSelectAll   keymap.Action = "editor.selectAll"
	actDeleteLine  keymap.Action = "editor.deleteLine"
	actIndent      keymap.Action = "editor.indent"
	actOutdent     keymap.Action = "editor.outdent"
	actDiff        keymap.Action = "editor.diff"
	actWrap        keymap.Action = "editor.wrap"
	actClose       keymap.Action = "editor.close"
	actNextTab     keymap.Action = "editor.nextTab"
	actPrevTab     keymap.Action = "editor.prevTab"
	// actTab and a digit: go to that tab (Alt-1…Alt-9).
	actTab keymap.Action = "editor.tab"

	// Cursor motion and plain editing, left out of the help.
	actLeft            keymap.Action = "editor.left"
	actRight           keymap.Action = "editor.right"
	actUp              keymap.Action = "editor.up"
	actDown            keymap.Action = "editor.down"
	actHome            keymap.Action = "editor.home"
	actEnd             keymap.Action = "editor.end"
	actPageUp          keymap.Action = "editor.pageUp"
	actPageDown        keymap.Action = "editor.pageDown"
	actWordLeft        keymap.Action = "editor.wordLeft"
	actWordRight       keymap.Action = "editor.wordRight"
	actDocStart        keymap.Action = "editor.docStart"
	actDocEnd          keymap.Action = "editor.docEnd"
	actSelectLeft      keymap.Action = "editor.selectLeft"
	actSelectRight     keymap.Action = "editor.selectRight"
	actSelectUp        keymap.Action = "editor.selectUp"
	actSelectDown      keymap.Action = "editor.selectDown"
	actSelectHome      keymap.Action = "editor.selectHome"
	actSelectEnd       keymap.Action = "editor.selectEnd"
	actSelectPageUp    keymap.Action = "editor.selectPageUp"
	actSelectPageDown  keymap.Action = "editor.selectPageDown"
	actSelectWordLeft  keymap.Action = "editor.selectWordLeft"
	actSelectWordRight keymap.Action = "editor.selectWordRight"
	actSelectDocStart  keymap.Action = "editor.selectDocStart"
	actSelectDocEnd    keymap.Action = "editor.selectDocEnd"
	actNewline         keymap.Action = "editor.newline"
	actBackspace       keymap.Action = "editor.backspace"
	actDelete          keymap.Action = "editor.delete"
	actDeleteWordLeft  keymap.Action = "editor.deleteWordLeft"
	actDeleteWordRight keymap.Action = "editor.deleteWordRight"
)

// DefaultKeys returns the editor's key bindings, a fresh table each call so
// the app can apply the user's overrides to its own copy. The keys avoid the
// tmux and screen prefixes (Ctrl-B, Ctrl-A) and the app's global keys (F1,
// F6, Ctrl-Q, Alt-C/E/T/D/Z/M…). Plain cursor motion is hidden from the
// help overlay but can still be rebound.
func DefaultKeys() *keymap.Table {
	b := []keymap.Binding{
		{Action: actSave, Keys: []string{"ctrl+s"}, Help: "Save the file"},
		{Action: actFinder, Keys: []string{"ctrl+p"}, Help: "Open a project file (fuzzy finder)"},
		{Action: actFind, Keys: []string{"ctrl+f"}, Help: "Find in the file"},
		{Action: actFindNext, Keys: []string{"f3"}, Help: "Next match"},
		{Action: actFindPrev, Keys: []string{"shift+f3"}, Help: "Previous match"},
		{Action: actGotoLine, Keys: []string{"ctrl+g"}, Help: "Go to line"},
		{Action: actClearFind, Keys: []string{"esc"}, Help: "Clear the find highlight (while one shows)"},
		{Action: actNextProblem, Keys: []string{"f8"}, Help: "Next problem a language server reports"},
		{Action: actPrevProblem, Keys: []string{"shift+f8"}, Help: "Previous problem"},
		{Action: actDefinition, Keys: []string{"f12"}, Help: "Go to the definition (language server)"},
		{Action: actHover, Keys: []string{"alt+i"}, Help: "What is under the cursor: type and documentation (language server)"},
		{Action: actUndo, Keys: []string{"ctrl+z"}, Help: "Undo"},
		{Action: actRedo, Keys: []string{"ctrl+y"}, Help: "Redo"},
		{Action: actCopy, Keys: []string{"ctrl+c"}, Help: "Copy (the line without a selection)"},
		{Action: actCut, Keys: []string{"ctrl+x"}, Help: "Cut (the line without a selection)"},
		{Action: actPaste, Keys: []string{"ctrl+v"}, Help: "Paste"},
		{Action: actSelectAll, Keys: []string{"alt+a"}, Help: "Select all"},
		{Action: actDeleteLine, Keys: []string{"ctrl+k"}, Help: "Delete the line"},
		{Action: actIndent, Keys: []string{"tab"}, Help: "Indent (the selected lines)"},
		{Action: actOutdent, Keys: []string{"backtab"}, Help: "Outdent the line or selected lines"},
		{Action: actDiff, Keys: []string{"alt+v", "f7"}, Help: "Show or hide the agent's last edit to this file as a diff"},
		{Action: actWrap, Keys: []string{"alt+w"}, Help: "Toggle soft wrap"},
		{Action: actClose, Keys: []string{"ctrl+w"}, Help: "Close the tab"},
		{Action: actNextTab, Keys: []string{"ctrl+pgdn"}, Help: "Next tab"},
		{Action: actPrevTab, Keys: []string{"ctrl+pgup"}, Help: "Previous tab"},
	}
	for i := 1; i <= 9; i++ {
		n := strconv.Itoa(i)
		b = append(b, keymap.Binding{Action: actTab + keymap.Action(n), Keys: []string{"alt+" + n}, Help: "Go to tab " + n, Hidden: i > 1})
	}
	b[len(b)-9].Help = "Go to tab 1…9 (Alt-1…Alt-9)"
	hidden := []keymap.Binding{
		{Action: actLeft, Keys: []string{"left"}},
		{Action: actRight, Keys: []string{"right"}},
		{Action: actUp, Keys: []string{"up"}},
		{Action: actDown, Keys: []string{"down"}},
		{Action: actHome, Keys: []string{"home"}},
		{Action: actEnd, Keys: []string{"end"}},
		{Action: actPageUp, Keys: []string{"pgup"}},
		{Action: actPageDown, Keys: []string{"pgdn"}},
		{Action: actWordLeft, Keys: []string{"ctrl+left", "alt+left"}},
		{Action: actWordRight, Keys: []string{"ctrl+right", "alt+right"}},
		{Action: actDocStart, Keys: []string{"ctrl+home"}},
		{Action: actDocEnd, Keys: []string{"ctrl+end"}},
		{Action: actSelectLeft, Keys: []string{"shift+left"}},
		{Action: actSelectRight, Keys: []string{"shift+right"}},
		{Action: actSelectUp, Keys: []string{"shift+up"}},
		{Action: actSelectDown, Keys: []string{"shift+down"}},
		{Action: actSelectHome, Keys: []string{"shift+home"}},
		{Action: actSelectEnd, Keys: []string{"shift+end"}},
		{Action: actSelectPageUp, Keys: []string{"shift+pgup"}},
		{Action: actSelectPageDown, Keys: []string{"shift+pgdn"}},
		{Action: actSelectWordLeft, Keys: []string{"ctrl+shift+left", "alt+shift+left"}},
		{Action: actSelectWordRight, Keys: []string{"ctrl+shift+right", "alt+shift+right"}},
		{Action: actSelectDocStart, Keys: []string{"ctrl+shift+home"}},
		{Action: actSelectDocEnd, Keys: []string{"ctrl+shift+end"}},
		{Action: actNewline, Keys: []string{"enter"}},
		{Action: actBackspace, Keys: []string{"backspace", "ctrl+h"}},
		{Action: actDelete, Keys: []string{"delete"}},
		{Action: actDeleteWordLeft, Keys: []string{"alt+backspace", "ctrl+backspace"}},
		{Action: actDeleteWordRight, Keys: []string{"alt+delete", "ctrl+delete"}},
	}
	for i := range hidden {
		hidden[i].Hidden = true
	}
	return keymap.New("Editor", append(b, hidden...)...)
}
