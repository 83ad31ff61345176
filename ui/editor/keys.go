package editor

import (
	"strconv"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// DefaultKeys returns the editor's key bindings, a fresh table each call so
// the app can apply the user's overrides to its own copy. The keys avoid the
// tmux and screen prefixes (Ctrl-B, Ctrl-A) and the app's global keys (F1,
// F6, Ctrl-Q, Alt-C/E/T/D/Z/M…). Plain cursor motion is hidden from the
// help overlay but can still be rebound.
func DefaultKeys() *keymap.Table {
	b := []keymap.Binding{
		{Action: "editor.save", Keys: []string{"ctrl+s"}, Help: "Save the file"},
		{Action: "editor.finder", Keys: []string{"ctrl+p"}, Help: "Open a project file (fuzzy finder)"},
		{Action: "editor.find", Keys: []string{"ctrl+f"}, Help: "Find in the file"},
		{Action: "editor.findNext", Keys: []string{"f3"}, Help: "Next match"},
		{Action: "editor.findPrev", Keys: []string{"shift+f3"}, Help: "Previous match"},
		{Action: "editor.gotoLine", Keys: []string{"ctrl+g"}, Help: "Go to line"},
		{Action: "editor.nextProblem", Keys: []string{"f8"}, Help: "Next problem a language server reports"},
		{Action: "editor.prevProblem", Keys: []string{"shift+f8"}, Help: "Previous problem"},
		{Action: "editor.definition", Keys: []string{"f12"}, Help: "Go to the definition (language server)"},
		{Action: "editor.hover", Keys: []string{"alt+i"}, Help: "What is under the cursor: type and documentation (language server)"},
		{Action: "editor.undo", Keys: []string{"ctrl+z"}, Help: "Undo"},
		{Action: "editor.redo", Keys: []string{"ctrl+y"}, Help: "Redo"},
		{Action: "editor.copy", Keys: []string{"ctrl+c"}, Help: "Copy (the line without a selection)"},
		{Action: "editor.cut", Keys: []string{"ctrl+x"}, Help: "Cut (the line without a selection)"},
		{Action: "editor.paste", Keys: []string{"ctrl+v"}, Help: "Paste"},
		{Action: "editor.selectAll", Keys: []string{"alt+a"}, Help: "Select all"},
		{Action: "editor.deleteLine", Keys: []string{"ctrl+k"}, Help: "Delete the line"},
		{Action: "editor.indent", Keys: []string{"tab"}, Help: "Indent (the selected lines)"},
		{Action: "editor.outdent", Keys: []string{"backtab"}, Help: "Outdent the line or selected lines"},
		{Action: "editor.diff", Keys: []string{"alt+v", "f7"}, Help: "Show or hide the agent's last edit to this file as a diff"},
		{Action: "editor.wrap", Keys: []string{"alt+w"}, Help: "Toggle soft wrap"},
		{Action: "editor.close", Keys: []string{"ctrl+w"}, Help: "Close the tab"},
		{Action: "editor.nextTab", Keys: []string{"ctrl+pgdn", "alt+."}, Help: "Next tab"},
		{Action: "editor.prevTab", Keys: []string{"ctrl+pgup", "alt+,"}, Help: "Previous tab"},
	}
	for i := 1; i <= 9; i++ {
		n := strconv.Itoa(i)
		b = append(b, keymap.Binding{Action: keymap.Action("editor.tab" + n), Keys: []string{"alt+" + n}, Help: "Go to tab " + n, Hidden: i > 1})
	}
	b[len(b)-9].Help = "Go to tab 1…9 (Alt-1…Alt-9)"
	hidden := []keymap.Binding{
		{Action: "editor.left", Keys: []string{"left"}},
		{Action: "editor.right", Keys: []string{"right"}},
		{Action: "editor.up", Keys: []string{"up"}},
		{Action: "editor.down", Keys: []string{"down"}},
		{Action: "editor.home", Keys: []string{"home"}},
		{Action: "editor.end", Keys: []string{"end"}},
		{Action: "editor.pageUp", Keys: []string{"pgup"}},
		{Action: "editor.pageDown", Keys: []string{"pgdn"}},
		{Action: "editor.wordLeft", Keys: []string{"ctrl+left", "alt+left"}},
		{Action: "editor.wordRight", Keys: []string{"ctrl+right", "alt+right"}},
		{Action: "editor.docStart", Keys: []string{"ctrl+home"}},
		{Action: "editor.docEnd", Keys: []string{"ctrl+end"}},
		{Action: "editor.selectLeft", Keys: []string{"shift+left"}},
		{Action: "editor.selectRight", Keys: []string{"shift+right"}},
		{Action: "editor.selectUp", Keys: []string{"shift+up"}},
		{Action: "editor.selectDown", Keys: []string{"shift+down"}},
		{Action: "editor.selectHome", Keys: []string{"shift+home"}},
		{Action: "editor.selectEnd", Keys: []string{"shift+end"}},
		{Action: "editor.selectPageUp", Keys: []string{"shift+pgup"}},
		{Action: "editor.selectPageDown", Keys: []string{"shift+pgdn"}},
		{Action: "editor.selectWordLeft", Keys: []string{"ctrl+shift+left", "alt+shift+left"}},
		{Action: "editor.selectWordRight", Keys: []string{"ctrl+shift+right", "alt+shift+right"}},
		{Action: "editor.selectDocStart", Keys: []string{"ctrl+shift+home"}},
		{Action: "editor.selectDocEnd", Keys: []string{"ctrl+shift+end"}},
		{Action: "editor.newline", Keys: []string{"enter"}},
		{Action: "editor.backspace", Keys: []string{"backspace", "ctrl+h"}},
		{Action: "editor.delete", Keys: []string{"delete"}},
		{Action: "editor.deleteWordLeft", Keys: []string{"alt+backspace", "ctrl+backspace"}},
		{Action: "editor.deleteWordRight", Keys: []string{"alt+delete", "ctrl+delete"}},
	}
	for i := range hidden {
		hidden[i].Hidden = true
	}
	return keymap.New("Editor", append(b, hidden...)...)
}
