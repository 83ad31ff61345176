package dialogs

import "github.com/fawn-ide/fawn/ui/keymap"

// The actions of the dialogs' key tables.
const (
	// of DialogKeys
	actPermissionAllow        keymap.Action = "permission.allow"
	actPermissionAllowSession keymap.Action = "permission.allow_session"
	actPermissionAllowAlways  keymap.Action = "permission.allow_always"
	actPermissionDeny         keymap.Action = "permission.deny"
	actPermissionDenyNote     keymap.Action = "permission.deny_note"
	actPermissionScrollUp     keymap.Action = "permission.scroll_up"
	actPermissionScrollDown   keymap.Action = "permission.scroll_down"

	// of HelpKeys
	actHelpClose    keymap.Action = "help.close"
	actHelpUp       keymap.Action = "help.up"
	actHelpDown     keymap.Action = "help.down"
	actHelpPageUp   keymap.Action = "help.page_up"
	actHelpPageDown keymap.Action = "help.page_down"
)

// DialogKeys answer a permission request.
func DialogKeys() *keymap.Table {
	return keymap.New("Permission",
		keymap.Binding{Action: actPermissionAllow, Keys: []string{"y"}, Help: "Allow once"},
		keymap.Binding{Action: actPermissionAllowSession, Keys: []string{"a"}, Help: "Allow for this session (this command, or edits to this file)"},
		keymap.Binding{Action: actPermissionAllowAlways, Keys: []string{"A"}, Help: "Allow, and add a rule allowing calls like it from now on (/permissions removes it)"},
		keymap.Binding{Action: actPermissionDeny, Keys: []string{"n", "esc"}, Help: "Deny"},
		keymap.Binding{Action: actPermissionDenyNote, Keys: []string{"d"}, Help: "Deny with a note to the model"},
		keymap.Binding{Action: actPermissionScrollUp, Keys: []string{"up", "k", "pgup"}, Help: "Scroll the diff up", Hidden: true},
		keymap.Binding{Action: actPermissionScrollDown, Keys: []string{"down", "j", "pgdn"}, Help: "Scroll the diff down", Hidden: true},
	)
}

// HelpKeys close and scroll the help overlay.
func HelpKeys() *keymap.Table {
	return keymap.New("Help",
		keymap.Binding{Action: actHelpClose, Keys: []string{"esc", "q", "f1"}, Help: "Close the help"},
		keymap.Binding{Action: actHelpUp, Keys: []string{"up", "k"}, Help: "Scroll up", Hidden: true},
		keymap.Binding{Action: actHelpDown, Keys: []string{"down", "j"}, Help: "Scroll down", Hidden: true},
		keymap.Binding{Action: actHelpPageUp, Keys: []string{"pgup"}, Help: "Page up", Hidden: true},
		keymap.Binding{Action: actHelpPageDown, Keys: []string{"pgdn", "space"}, Help: "Page down", Hidden: true},
	)
}
