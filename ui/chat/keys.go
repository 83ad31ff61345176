package chat

import "github.com/fawn-ide/fawn/ui/keymap"

// The actions of the chat's key tables.
const (
	// of ChatKeys
	actChatSend          keymap.Action = "chat.send"
	actChatNewline       keymap.Action = "chat.newline"
	actChatCancel        keymap.Action = "chat.cancel"
	actChatInterrupt     keymap.Action = "chat.interrupt"
	actChatHistoryPrev   keymap.Action = "chat.history_prev"
	actChatHistoryNext   keymap.Action = "chat.history_next"
	actChatComplete      keymap.Action = "chat.complete"
	actChatCompletePrev  keymap.Action = "chat.complete_prev"
	actChatScrollUp      keymap.Action = "chat.scroll_up"
	actChatScrollDown    keymap.Action = "chat.scroll_down"
	actChatMessages      keymap.Action = "chat.messages"
	actChatOpenFile      keymap.Action = "chat.open_file"
	actChatHistorySearch keymap.Action = "chat.history_search"

	// of MessageKeys
	actMessagesUp       keymap.Action = "messages.up"
	actMessagesDown     keymap.Action = "messages.down"
	actMessagesPageUp   keymap.Action = "messages.page_up"
	actMessagesPageDown keymap.Action = "messages.page_down"
	actMessagesTop      keymap.Action = "messages.top"
	actMessagesBottom   keymap.Action = "messages.bottom"
	actMessagesCopy     keymap.Action = "messages.copy"
	actMessagesCopyCode keymap.Action = "messages.copy_code"
	actMessagesToggle   keymap.Action = "messages.toggle"
	actMessagesOpen     keymap.Action = "messages.open"
	actMessagesBack     keymap.Action = "messages.back"

	// of ChatVimKeys
	actChatVimNormal keymap.Action = "chat.vim_normal"
)

// ChatVimKeys is the one key chat.keys: vim takes from a table: vim's
// <Esc>, which leaves insert mode and drops a command being typed (the
// motions and operators are vim's own). In normal mode, with nothing
// pending, the Chat table's keys act as always (Esc cancels the turn).
func ChatVimKeys() *keymap.Table {
	return keymap.New("Chat: vim keys (chat.keys: vim)",
		keymap.Binding{Action: actChatVimNormal, Keys: []string{"esc"}, Help: "Normal mode; drop a command being typed"},
	)
}

// ChatKeys are the chat input's keys.
func ChatKeys() *keymap.Table {
	return keymap.New("Chat",
		keymap.Binding{Action: actChatSend, Keys: []string{"enter"}, Help: "Send the message (queued while the agent works)"},
		keymap.Binding{Action: actChatNewline, Keys: []string{"shift+enter", "alt+enter", "ctrl+j"}, Help: "Insert a newline"},
		keymap.Binding{Action: actChatCancel, Keys: []string{"esc"}, Help: "Cancel the running turn"},
		keymap.Binding{Action: actChatInterrupt, Keys: []string{"ctrl+c"}, Help: "Cancel the running turn, or clear the input (never quits)"},
		keymap.Binding{Action: actChatHistoryPrev, Keys: []string{"up"}, Help: "Previous message from history (on the first line); the item above in the /command or @-file list"},
		keymap.Binding{Action: actChatHistoryNext, Keys: []string{"down"}, Help: "Next message from history (on the last line); the item below in the list"},
		keymap.Binding{Action: actChatComplete, Keys: []string{"tab"}, Help: "Complete a /command or @-file; again: the next match"},
		keymap.Binding{Action: actChatCompletePrev, Keys: []string{"backtab"}, Help: "The previous /command match"},
		keymap.Binding{Action: actChatScrollUp, Keys: []string{"pgup"}, Help: "Scroll the chat up"},
		keymap.Binding{Action: actChatScrollDown, Keys: []string{"pgdn"}, Help: "Scroll the chat down"},
		keymap.Binding{Action: actChatMessages, Keys: []string{"alt+up", "alt+s"}, Help: "Select messages (to copy, expand or open them)"},
		keymap.Binding{Action: actChatOpenFile, Keys: []string{"ctrl+p"}, Help: "Open a project file in the editor (fuzzy finder)"},
		keymap.Binding{Action: actChatHistorySearch, Keys: []string{"ctrl+r"}, Help: "Search what you sent in every session of the project (Enter puts it in the input)"},
	)
}

// MessageKeys apply while a chat message is selected.
func MessageKeys() *keymap.Table {
	return keymap.New("Messages",
		keymap.Binding{Action: actMessagesUp, Keys: []string{"up", "k"}, Help: "Select the previous item"},
		keymap.Binding{Action: actMessagesDown, Keys: []string{"down", "j"}, Help: "Select the next item"},
		keymap.Binding{Action: actMessagesPageUp, Keys: []string{"pgup"}, Help: "Scroll a page up"},
		keymap.Binding{Action: actMessagesPageDown, Keys: []string{"pgdn"}, Help: "Scroll a page down"},
		keymap.Binding{Action: actMessagesTop, Keys: []string{"home", "g"}, Help: "Go to the first item"},
		keymap.Binding{Action: actMessagesBottom, Keys: []string{"end", "G"}, Help: "Go to the last item"},
		keymap.Binding{Action: actMessagesCopy, Keys: []string{"y", "c"}, Help: "Copy the item (OSC 52: works over ssh and tmux)"},
		keymap.Binding{Action: actMessagesCopyCode, Keys: []string{"shift+y"}, Help: "Copy the code blocks of an answer, as written"},
		keymap.Binding{Action: actMessagesToggle, Keys: []string{"space", "e"}, Help: "Expand or collapse a tool card or reasoning"},
		keymap.Binding{Action: actMessagesOpen, Keys: []string{"enter"}, Help: "Open what a tool card drove (file, terminal, to-do)"},
		keymap.Binding{Action: actMessagesBack, Keys: []string{"esc", "i", "alt+down"}, Help: "Back to the input"},
	)
}
