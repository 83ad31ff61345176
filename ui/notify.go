package ui

import "github.com/fawn-ide/fawn/ui/chat"

// Notify shows a notice from fawn itself in the chat (red when isErr). It is
// safe from any goroutine: background work such as MCP servers finishing
// their start reports through it.
func (a *App) Notify(text string, isErr bool) {
	kind := chat.NoticeInfo
	if isErr {
		kind = chat.NoticeError
	}
	a.QueueUpdate(func() {
		a.task.list.Append(&chat.Notice{Kind: kind, Text: text})
	})
}
