package termview

import (
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// Actions of keyboard selection (terminal.select, Alt-V) and of the
// scrollback search (terminal.find, Alt-/). While either is open it takes
// every key but the escape key, the global ones too.
const (
	ActionSelectEnd       keymap.Action = "terminal.select_end"
	ActionSelectCopy      keymap.Action = "terminal.select_copy"
	ActionSelectUp        keymap.Action = "terminal.select_up"
	ActionSelectDown      keymap.Action = "terminal.select_down"
	ActionSelectLeft      keymap.Action = "terminal.select_left"
	ActionSelectRight     keymap.Action = "terminal.select_right"
	ActionSelectPageUp    keymap.Action = "terminal.select_page_up"
	ActionSelectPageDown  keymap.Action = "terminal.select_page_down"
	ActionSelectLineStart keymap.Action = "terminal.select_line_start"
	ActionSelectLineEnd   keymap.Action = "terminal.select_line_end"
	ActionSelectWordNext  keymap.Action = "terminal.select_word_next"
	ActionSelectWordPrev  keymap.Action = "terminal.select_word_prev"
	ActionSelectWordEnd   keymap.Action = "terminal.select_word_end"
	ActionSelectOldest    keymap.Action = "terminal.select_oldest"
	ActionSelectNewest    keymap.Action = "terminal.select_newest"
	ActionSelectMark      keymap.Action = "terminal.select_mark"
	ActionSelectMarkLines keymap.Action = "terminal.select_mark_lines"

	ActionFindClose     keymap.Action = "terminal.find_close"
	ActionFindDone      keymap.Action = "terminal.find_done"
	ActionFindBackspace keymap.Action = "terminal.find_backspace"
	ActionFindOlder     keymap.Action = "terminal.find_older"
	ActionFindNewer     keymap.Action = "terminal.find_newer"
	ActionFindEdit      keymap.Action = "terminal.find_edit"
)

// Keys are the terminal pane's tables: its own (DefaultKeys), keyboard
// selection's and the search's. One set serves every terminal pane, so
// the user's bindings, applied to it once, hold in all.
type Keys struct {
	Pane, Select, Find *keymap.Table
}

// DefaultKeySet returns fresh default tables of the terminal pane.
func DefaultKeySet() *Keys {
	return &Keys{Pane: DefaultKeys(), Select: SelectKeys(), Find: FindKeys()}
}

// Tables lists the set's tables, for the help and the user's bindings.
func (k *Keys) Tables() []*keymap.Table { return []*keymap.Table{k.Pane, k.Select, k.Find} }

// SelectKeys is keyboard selection's table.
func SelectKeys() *keymap.Table {
	return keymap.New("Terminal: selecting with the keyboard (Alt-V)",
		keymap.Binding{Action: ActionSelectEnd, Keys: []string{"esc", "q", "ctrl+q"}, Help: "End selecting, copying nothing"},
		keymap.Binding{Action: ActionSelectCopy, Keys: []string{"y", "enter"}, Help: "Copy the selection and end"},
		keymap.Binding{Action: ActionSelectMark, Keys: []string{"v", "space"}, Help: "Set or drop the mark where the selection starts"},
		keymap.Binding{Action: ActionSelectMarkLines, Keys: []string{"V"}, Help: "Set or drop the mark, selecting whole lines"},
		keymap.Binding{Action: ActionSelectUp, Keys: []string{"up", "k"}, Help: "Up a line"},
		keymap.Binding{Action: ActionSelectDown, Keys: []string{"down", "j"}, Help: "Down a line"},
		keymap.Binding{Action: ActionSelectLeft, Keys: []string{"left", "h"}, Help: "Left a column"},
		keymap.Binding{Action: ActionSelectRight, Keys: []string{"right", "l"}, Help: "Right a column"},
		keymap.Binding{Action: ActionSelectPageUp, Keys: []string{"pgup"}, Help: "Up a page"},
		keymap.Binding{Action: ActionSelectPageDown, Keys: []string{"pgdn"}, Help: "Down a page"},
		keymap.Binding{Action: ActionSelectLineStart, Keys: []string{"home", "0"}, Help: "The line's start"},
		keymap.Binding{Action: ActionSelectLineEnd, Keys: []string{"end", "$"}, Help: "The line's end"},
		keymap.Binding{Action: ActionSelectWordNext, Keys: []string{"w"}, Help: "The next word"},
		keymap.Binding{Action: ActionSelectWordPrev, Keys: []string{"b"}, Help: "The word before"},
		keymap.Binding{Action: ActionSelectWordEnd, Keys: []string{"e"}, Help: "The word's end"},
		keymap.Binding{Action: ActionSelectOldest, Keys: []string{"g"}, Help: "The oldest line of the scrollback"},
		keymap.Binding{Action: ActionSelectNewest, Keys: []string{"G"}, Help: "The screen's last line"},
	)
}

// FindKeys is the scrollback search's table. While the query is being
// typed, letters type (the bindings of letters act once it is done).
func FindKeys() *keymap.Table {
	return keymap.New("Terminal: searching the scrollback (Alt-/)",
		keymap.Binding{Action: ActionFindClose, Keys: []string{"esc", "ctrl+q"}, Help: "Close the search"},
		keymap.Binding{Action: ActionFindDone, Keys: []string{"enter"}, Help: "Done typing (then the keys below step through the matches)"},
		keymap.Binding{Action: ActionFindBackspace, Keys: []string{"backspace", "ctrl+backspace"}, Help: "Delete the last character typed"},
		keymap.Binding{Action: ActionFindOlder, Keys: []string{"n", "up"}, Help: "The older match"},
		keymap.Binding{Action: ActionFindNewer, Keys: []string{"N", "down"}, Help: "The newer match"},
		keymap.Binding{Action: ActionFindEdit, Keys: []string{"/"}, Help: "Type the query again"},
	)
}

// isTyping says whether ev types its rune (no Ctrl, no Alt).
func isTyping(ev *tcell.EventKey) bool {
	return ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0
}

// Scopes are the keys in force together though kept in several tables,
// for a conflict check: selection's and the search's, each with the
// escape key, which acts in them too.
func (k *Keys) Scopes() []*keymap.Table {
	esc := k.Pane.Only(ActionEscape)
	return []*keymap.Table{
		keymap.Scope(k.Select.Context, k.Select.Bindings, esc),
		keymap.Scope(k.Find.Context, k.Find.Bindings, esc),
	}
}
