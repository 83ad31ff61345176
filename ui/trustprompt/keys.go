package trustprompt

import (
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// The prompt's actions: the names the user's bindings override.
const (
	ActionAccept   keymap.Action = "trust.accept"
	ActionIgnore   keymap.Action = "trust.ignore"
	ActionQuit     keymap.Action = "trust.quit"
	ActionUp       keymap.Action = "trust.up"
	ActionDown     keymap.Action = "trust.down"
	ActionPageUp   keymap.Action = "trust.page_up"
	ActionPageDown keymap.Action = "trust.page_down"
	ActionTop      keymap.Action = "trust.top"
	ActionBottom   keymap.Action = "trust.bottom"
)

// DefaultKeys returns the prompt's key table.
func DefaultKeys() *keymap.Table {
	return keymap.New("Trust prompt (before the IDE opens on a project whose files would make fawn act)",
		keymap.Binding{Action: ActionAccept, Keys: []string{"y"}, Help: "Trust the directory's items and remember it"},
		keymap.Binding{Action: ActionIgnore, Keys: []string{"n", "esc"}, Help: "Not now: start without them, ask again next time"},
		keymap.Binding{Action: ActionQuit, Keys: []string{"q", "ctrl+c", "ctrl+q"}, Help: "Quit fawn"},
		keymap.Binding{Action: ActionUp, Keys: []string{"up", "k"}, Help: "Scroll up a line"},
		keymap.Binding{Action: ActionDown, Keys: []string{"down", "j", "space"}, Help: "Scroll down a line"},
		keymap.Binding{Action: ActionPageUp, Keys: []string{"pgup"}, Help: "Scroll up a page"},
		keymap.Binding{Action: ActionPageDown, Keys: []string{"pgdn"}, Help: "Scroll down a page"},
		keymap.Binding{Action: ActionTop, Keys: []string{"home"}, Help: "The top"},
		keymap.Binding{Action: ActionBottom, Keys: []string{"end"}, Help: "The end"},
	)
}

// action is ev's action; an answer's capital letter answers as its small
// one (Y trusts), as it always has.
func (v *View) action(ev *tcell.EventKey) keymap.Action {
	if a := v.opts.Keys.Action(ev); a != "" {
		return a
	}
	switch a := v.opts.Keys.ActionFold(ev); a {
	case ActionAccept, ActionIgnore, ActionQuit:
		return a
	}
	return ""
}
