package main

import (
	"github.com/fawn-ide/fawn/internal/bus"
	"github.com/fawn-ide/fawn/lsp"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/terminal"
)

// topics are the notices on which the terminals, the language servers and
// the MCP servers say what happened. They start before the app exists (a
// terminal draws, a language server reports, from the first moment), so
// they publish to whoever listens, and the app subscribes once it is
// built; headless subscribes to none of them.
type topics struct {
	// redraw: a terminal's screen changed. Lossy: one redraw pending
	// covers the ones missed.
	redraw *bus.Topic[struct{}]
	// prompt: a terminal's screen shows a new prompt of its shell, to be
	// drawn at once. Lossy: the frame for the one pending shows the
	// screen as it is by then.
	prompt *bus.Topic[struct{}]
	// problems: a language server published a file's diagnostics.
	problems *bus.Topic[fileProblems]
	// lspNews: a language server started, crashed, came back or gave up.
	lspNews *bus.Topic[lspNews]
	// mcp: an MCP server changed state or offered new tools.
	mcp *bus.Topic[mcp.Change]
	// spareShell: the agent's own bash started, the user having replaced
	// the terminal's with exec; the app shows it as a tab.
	spareShell *bus.Topic[*terminal.Terminal]
}

func newTopics() topics {
	return topics{
		redraw:   bus.NewTopic[struct{}](bus.Lossy),
		prompt:   bus.NewTopic[struct{}](bus.Lossy),
		problems: bus.NewTopic[fileProblems](bus.MustDeliver),
		lspNews:  bus.NewTopic[lspNews](bus.MustDeliver),
		mcp:      bus.NewTopic[mcp.Change](bus.MustDeliver),

		spareShell: bus.NewTopic[*terminal.Terminal](bus.MustDeliver),
	}
}

// fileProblems are a file's diagnostics: each publication replaces the
// last, so every one must arrive.
type fileProblems struct {
	Path     string
	Problems []lsp.Problem
}

// lspNews is what a language server's life says to the chat.
type lspNews struct {
	Text    string
	Problem bool
}
