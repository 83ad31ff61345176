package ui

// Notify shows a notice from fawn itself in the chat (red when isErr). It is
// safe from any goroutine: background work such as MCP servers finishing
// their start reports through it.
func (a *App) Notify(text string, isErr bool) {
	kind := NoticeInfo
	if isErr {
		kind = NoticeError
	}
	a.QueueUpdate(func() {
		a.task.list.Append(&Notice{Kind: kind, Text: text})
	})
}
