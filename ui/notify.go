package ui

// Notify shows a notice from fawn itself in the chat (red when isErr). It is
// safe from any goroutine: background work such as MCP servers finishing
// their start reports through it.
func (a *App) Notify(text string, isErr bool) {
	kind := noticeInfo
	if isErr {
		kind = noticeError
	}
	a.QueueUpdate(func() {
		a.task.list.Append(&noticeItem{kind: kind, text: text})
	})
}
