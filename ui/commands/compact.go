package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/ui/render"
)

// Compact is /compact: the conversation is replaced by a summary of it,
// shown as a turn. It needs the Compact service.
func Compact() Command {
	return Command{Name: "compact", Args: "[focus]", Help: "Replace the conversation by a summary of it, keeping what you name in particular", Run: func(h Host, focus string) {
		c := h.Services().Compact
		if !h.RunTurn(func(ctx context.Context) <-chan agent.Event { return c.Compact(ctx, strings.TrimSpace(focus)) }) {
			h.Error("a turn is running — wait for it to end (or press Esc), then /compact")
		}
	}}
}

// Context is /context: how the context window is used. It needs the
// Context service.
func Context() Command {
	return Command{Name: "context", Help: "Show how the context window is used: system prompt, tools, instructions, history, reserve, free", Run: func(h Host, _ string) {
		h.Info(contextText(h.Services().Context.Context(), h.Root()) + backgroundLine(h.Services().Background))
	}}
}

// contextText is /context's breakdown.
func contextText(ci agent.ContextInfo, root string) string {
	var b strings.Builder
	used := ci.Used()
	fmt.Fprintf(&b, "Context window: %s tokens, from %s\n", render.Kilo(ci.Window), ci.WindowSource)
	row := func(name string, n int, note string) {
		pct := 0.0
		if ci.Window > 0 {
			pct = float64(n) * 100 / float64(ci.Window)
		}
		fmt.Fprintf(&b, "  %-16s %7s  %5.1f%%  %s\n", name, render.Kilo(n), pct, note)
	}
	row("system prompt", ci.System, "")
	var files []string
	for _, f := range ci.InstructionFiles {
		files = append(files, render.RelPath(root, f))
	}
	row("instructions", ci.Instructions, strings.Join(files, ", "))
	row("tool schemas", ci.Tools, "")
	row("user messages", ci.User, "")
	row("assistant text", ci.Assistant, "")
	row("tool calls", ci.ToolCalls, "")
	row("tool results", ci.ToolResults, "")
	row("answer reserve", ci.Reserve, "max_tokens")
	free := ci.Window - used - ci.Reserve
	row("free", max(free, 0), "")
	fmt.Fprintf(&b, "In use: about %s tokens in %s (estimated", render.Kilo(used), words.Plural(ci.Messages, "message", "messages"))
	if ci.Reported > 0 {
		fmt.Fprintf(&b, "; the server counted %s at the last request", render.Kilo(ci.Reported))
	}
	b.WriteString(").\n")
	if c := ci.Cost.String(); c != "" {
		fmt.Fprintf(&b, "Cost so far: %s (at the prices of price_per_mtok or fawn's table).\n", c)
	}
	if ci.AutoCompact > 0 {
		fmt.Fprintf(&b, "Compacts by itself at %d%% (agent.auto_compact); /compact [focus] does it now.", ci.AutoCompact)
	} else {
		b.WriteString("Automatic compaction is off (agent.auto_compact: 0); /compact [focus] does it now.")
	}
	return b.String()
}
