package picker

import "github.com/fawn-ide/fawn/ui/keymap"

// The picker's actions: the names the user's key bindings rebind.
const (
	actUp       keymap.Action = "picker.up"
	actDown     keymap.Action = "picker.down"
	actPageUp   keymap.Action = "picker.pageUp"
	actPageDown keymap.Action = "picker.pageDown"
	actFirst    keymap.Action = "picker.first"
	actLast     keymap.Action = "picker.last"
	actPick     keymap.Action = "picker.pick"
	actCancel   keymap.Action = "picker.cancel"
	actErase    keymap.Action = "picker.erase"
	actClear    keymap.Action = "picker.clear"
)

// DefaultKeys returns the picker's key table, a fresh one each call so
// the app can apply the user's bindings to its own copy.
func DefaultKeys() *keymap.Table {
	return keymap.New("Picker (/model, /mode, /resume, /rewind)",
		keymap.Binding{Action: actUp, Keys: []string{"up", "ctrl+p", "backtab"}, Help: "The choice above"},
		keymap.Binding{Action: actDown, Keys: []string{"down", "ctrl+n", "tab"}, Help: "The choice below"},
		keymap.Binding{Action: actPageUp, Keys: []string{"pgup"}, Help: "A page up"},
		keymap.Binding{Action: actPageDown, Keys: []string{"pgdn"}, Help: "A page down"},
		keymap.Binding{Action: actFirst, Keys: []string{"home"}, Help: "The first choice"},
		keymap.Binding{Action: actLast, Keys: []string{"end"}, Help: "The last choice"},
		keymap.Binding{Action: actPick, Keys: []string{"enter"}, Help: "Choose"},
		keymap.Binding{Action: actCancel, Keys: []string{"esc"}, Help: "Close without choosing"},
		keymap.Binding{Action: actErase, Keys: []string{"backspace"}, Help: "Erase the query's last character"},
		keymap.Binding{Action: actClear, Keys: []string{"ctrl+u"}, Help: "Clear the query"},
	)
}
