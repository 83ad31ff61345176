package ui

import "github.com/fawn-ide/fawn/ui/keymap"

// The default key tables. They avoid the prefixes of tmux (Ctrl-B), screen
// (Ctrl-A) and zellij's mode keys, and use only keys that plain xterm, tmux
// and ssh deliver: Ctrl-letters, Alt-letters (sent as Esc + letter), F-keys.
// The global keys take precedence over every pane, so they also stay clear
// of the editor's keys and of the readline keys people use in the shell
// (Alt-B/F/D, Alt-Backspace…); a test checks the tables do not collide.
// ui.keys in the config overrides them by action name.

// GlobalKeys are active whatever has focus (unless a dialog is open).
func GlobalKeys() *keymap.Table {
	return keymap.New("Global",
		keymap.Binding{Action: "app.quit", Keys: []string{"ctrl+q"}, Help: "Quit fawn"},
		keymap.Binding{Action: "app.help", Keys: []string{"f1"}, Help: "Show the keys and commands"},
		keymap.Binding{Action: "pane.next", Keys: []string{"f6"}, Help: "Focus the next pane"},
		keymap.Binding{Action: "pane.prev", Keys: []string{"shift+f6"}, Help: "Focus the previous pane"},
		keymap.Binding{Action: "pane.chat", Keys: []string{"alt+c"}, Help: "Focus the chat"},
		keymap.Binding{Action: "pane.editor", Keys: []string{"alt+e"}, Help: "Focus the editor"},
		keymap.Binding{Action: "pane.terminal", Keys: []string{"alt+t"}, Help: "Focus the terminal; again: the next terminal tab"},
		keymap.Binding{Action: "terminal.new", Keys: []string{"alt+n"}, Help: "Open another terminal of your own (exit closes it; the agent keeps its shell)"},
		keymap.Binding{Action: "pane.todo", Keys: []string{"alt+o"}, Help: "Focus the to-do list"},
		keymap.Binding{Action: "pane.changes", Keys: []string{"alt+g"}, Help: "Focus the Changes list: the files this session changed"},
		keymap.Binding{Action: "pane.explorer", Keys: []string{"alt+x"}, Help: "Show and focus the file explorer; again: hide it"},
		keymap.Binding{Action: "pane.zoom", Keys: []string{"alt+m"}, Help: "Zoom the focused pane to the full screen, or back"},
		keymap.Binding{Action: "layout.wider", Keys: []string{"alt+>"}, Help: "Widen the chat"},
		keymap.Binding{Action: "layout.narrower", Keys: []string{"alt+<"}, Help: "Narrow the chat"},
		keymap.Binding{Action: "layout.taller", Keys: []string{"alt+="}, Help: "Give the editor more height"},
		keymap.Binding{Action: "layout.shorter", Keys: []string{"alt+-"}, Help: "Give the terminal more height"},
		keymap.Binding{Action: "agent.mode", Keys: []string{"alt+p"}, Help: "Cycle the permission mode (ask, accept-edits, plan, yolo)"},
	)
}

// ChatKeys are the chat input's keys.
func ChatKeys() *keymap.Table {
	return keymap.New("Chat",
		keymap.Binding{Action: "chat.send", Keys: []string{"enter"}, Help: "Send the message (queued while the agent works)"},
		keymap.Binding{Action: "chat.newline", Keys: []string{"shift+enter", "alt+enter", "ctrl+j"}, Help: "Insert a newline"},
		keymap.Binding{Action: "chat.cancel", Keys: []string{"esc"}, Help: "Cancel the running turn"},
		keymap.Binding{Action: "chat.interrupt", Keys: []string{"ctrl+c"}, Help: "Cancel the running turn, or clear the input (never quits)"},
		keymap.Binding{Action: "chat.history_prev", Keys: []string{"up"}, Help: "Previous message from history (on the first line)"},
		keymap.Binding{Action: "chat.history_next", Keys: []string{"down"}, Help: "Next message from history (on the last line)"},
		keymap.Binding{Action: "chat.complete", Keys: []string{"tab"}, Help: "Complete a /command; again: the next match (Shift-Tab: the previous)"},
		keymap.Binding{Action: "chat.scroll_up", Keys: []string{"pgup"}, Help: "Scroll the chat up"},
		keymap.Binding{Action: "chat.scroll_down", Keys: []string{"pgdn"}, Help: "Scroll the chat down"},
		keymap.Binding{Action: "chat.messages", Keys: []string{"alt+up", "alt+s"}, Help: "Select messages (to copy, expand or open them)"},
		keymap.Binding{Action: "chat.open_file", Keys: []string{"ctrl+p"}, Help: "Open a project file in the editor (fuzzy finder)"},
	)
}

// MessageKeys apply while a chat message is selected.
func MessageKeys() *keymap.Table {
	return keymap.New("Messages",
		keymap.Binding{Action: "messages.up", Keys: []string{"up", "k"}, Help: "Select the previous item"},
		keymap.Binding{Action: "messages.down", Keys: []string{"down", "j"}, Help: "Select the next item"},
		keymap.Binding{Action: "messages.page_up", Keys: []string{"pgup"}, Help: "Scroll a page up"},
		keymap.Binding{Action: "messages.page_down", Keys: []string{"pgdn"}, Help: "Scroll a page down"},
		keymap.Binding{Action: "messages.top", Keys: []string{"home", "g"}, Help: "Go to the first item"},
		keymap.Binding{Action: "messages.bottom", Keys: []string{"end", "G"}, Help: "Go to the last item"},
		keymap.Binding{Action: "messages.copy", Keys: []string{"y", "c"}, Help: "Copy the item (OSC 52: works over ssh and tmux)"},
		keymap.Binding{Action: "messages.copy_code", Keys: []string{"shift+y"}, Help: "Copy the code blocks of an answer, as written"},
		keymap.Binding{Action: "messages.toggle", Keys: []string{"space", "e"}, Help: "Expand or collapse a tool card or reasoning"},
		keymap.Binding{Action: "messages.open", Keys: []string{"enter"}, Help: "Open what a tool card drove (file, terminal, to-do)"},
		keymap.Binding{Action: "messages.back", Keys: []string{"esc", "i", "alt+down"}, Help: "Back to the input"},
	)
}

// DialogKeys answer a permission request.
func DialogKeys() *keymap.Table {
	return keymap.New("Permission",
		keymap.Binding{Action: "permission.allow", Keys: []string{"y"}, Help: "Allow once"},
		keymap.Binding{Action: "permission.allow_session", Keys: []string{"a"}, Help: "Allow for this session (this command, or edits to this file)"},
		keymap.Binding{Action: "permission.allow_always", Keys: []string{"A"}, Help: "Allow, and add a rule allowing calls like it from now on (/permissions removes it)"},
		keymap.Binding{Action: "permission.deny", Keys: []string{"n", "esc"}, Help: "Deny"},
		keymap.Binding{Action: "permission.deny_note", Keys: []string{"d"}, Help: "Deny with a note to the model"},
		keymap.Binding{Action: "permission.scroll_up", Keys: []string{"up", "k", "pgup"}, Help: "Scroll the diff up", Hidden: true},
		keymap.Binding{Action: "permission.scroll_down", Keys: []string{"down", "j", "pgdn"}, Help: "Scroll the diff down", Hidden: true},
	)
}

// HelpKeys close and scroll the help overlay.
func HelpKeys() *keymap.Table {
	return keymap.New("Help",
		keymap.Binding{Action: "help.close", Keys: []string{"esc", "q", "f1"}, Help: "Close the help"},
		keymap.Binding{Action: "help.up", Keys: []string{"up", "k"}, Help: "Scroll up", Hidden: true},
		keymap.Binding{Action: "help.down", Keys: []string{"down", "j"}, Help: "Scroll down", Hidden: true},
		keymap.Binding{Action: "help.page_up", Keys: []string{"pgup"}, Help: "Page up", Hidden: true},
		keymap.Binding{Action: "help.page_down", Keys: []string{"pgdn", "space"}, Help: "Page down", Hidden: true},
	)
}
