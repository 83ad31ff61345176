package picker

import "github.com/fawn-ide/fawn/ui/keymap"

// The picker's actions: the names the user's key bindings rebind (the
// editor's file finder takes the same).
const (
	ActUp       keymap.Action = "picker.up"
	ActDown     keymap.Action = "picker.down"
	ActPageUp   keymap.Action = "picker.pageUp"
	ActPageDown keymap.Action = "picker.pageDown"
	ActFirst    keymap.Action = "picker.first"
	ActLast     keymap.Action = "picker.last"
	ActPick     keymap.Action = "picker.pick"
	ActCancel   keymap.Action = "picker.cancel"
	ActErase    keymap.Action = "picker.erase"
	ActClear    keymap.Action = "picker.clear"
)

// DefaultKeys returns the picker's key table, a fresh one each call so
// the app can apply the user's bindings to its own copy.
func DefaultKeys() *keymap.Table {
	return keymap.New("Picker (/model, /mode, /resume, /rewind)",
		keymap.Binding{Action: ActUp, Keys: []string{"up", "ctrl+p", "backtab"}, Help: "The choice above"},
		keymap.Binding{Action: ActDown, Keys: []string{"down", "ctrl+n", "tab"}, Help: "The choice below"},
		keymap.Binding{Action: ActPageUp, Keys: []string{"pgup"}, Help: "A page up"},
		keymap.Binding{Action: ActPageDown, Keys: []string{"pgdn"}, Help: "A page down"},
		keymap.Binding{Action: ActFirst, Keys: []string{"home"}, Help: "The first choice"},
		keymap.Binding{Action: ActLast, Keys: []string{"end"}, Help: "The last choice"},
		keymap.Binding{Action: ActPick, Keys: []string{"enter"}, Help: "Choose"},
		keymap.Binding{Action: ActCancel, Keys: []string{"esc"}, Help: "Close without choosing"},
		keymap.Binding{Action: ActErase, Keys: []string{"backspace"}, Help: "Erase the query's last character"},
		keymap.Binding{Action: ActClear, Keys: []string{"ctrl+u"}, Help: "Clear the query"},
	)
}
