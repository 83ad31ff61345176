package commands

// Help is /help: the keys and the commands.
func Help() Command {
	return Command{Name: "help", Help: "Show the keys and commands", Run: func(h Host, _ string) { h.ShowHelp() }}
}

// Clear is /clear: the conversation is forgotten and the chat cleared.
func Clear() Command {
	return Command{Name: "clear", Help: "Forget the conversation and clear the chat", Run: func(h Host, _ string) {
		if h.TurnRunning() {
			h.Error("a turn is running — press Esc to cancel it, then /clear")
			return
		}
		h.ClearConversation()
		h.Info("conversation cleared")
	}}
}

// Exit is /exit: fawn quits, first asking about unsaved files.
func Exit() Command {
	return Command{Name: "exit", Help: "Quit fawn", Run: func(h Host, _ string) { h.Quit() }}
}
