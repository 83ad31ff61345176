package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/commands"
)

func (a *App) addCompactCommands() {
	if c := a.opts.Services.Compact; c != nil {
		a.commands.Add(commands.Command{Name: "compact", Args: "[focus]", Help: "Replace the conversation by a summary of it, keeping what you name in particular", Run: func(_ commands.Host, focus string) {
			if a.turnRunning() {
				a.list.Append(&noticeItem{kind: noticeError, text: "a turn is running — wait for it to end (or press Esc), then /compact"})
				return
			}
			ctx, cancel := context.WithCancel(a.runCtx)
			a.turnCancel = cancel
			a.router.beginTurn()
			a.follow(c.Compact(ctx, strings.TrimSpace(focus)), cancel)
		}})
	}
	if cx := a.opts.Services.Context; cx != nil {
		a.commands.Add(commands.Command{Name: "context", Help: "Show how the context window is used: system prompt, tools, instructions, history, reserve, free", Run: func(_ commands.Host, _ string) {
			a.list.Append(&noticeItem{kind: noticeInfo, text: contextText(cx.Context(), a.opts.Root)})
		}})
	}
}

// contextText is /context's breakdown.
func contextText(ci agent.ContextInfo, root string) string {
	var b strings.Builder
	used := ci.Used()
	fmt.Fprintf(&b, "Context window: %s tokens, from %s\n", kilo(ci.Window), ci.WindowSource)
	row := func(name string, n int, note string) {
		pct := 0.0
		if ci.Window > 0 {
			pct = float64(n) * 100 / float64(ci.Window)
		}
		fmt.Fprintf(&b, "  %-16s %7s  %5.1f%%  %s\n", name, kilo(n), pct, note)
	}
	row("system prompt", ci.System, "")
	var files []string
	for _, f := range ci.InstructionFiles {
		files = append(files, relPath(root, f))
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
	fmt.Fprintf(&b, "In use: about %s tokens in %s (estimated", kilo(used), plural(ci.Messages, "message", "messages"))
	if ci.Reported > 0 {
		fmt.Fprintf(&b, "; the server counted %s at the last request", kilo(ci.Reported))
	}
	b.WriteString(").\n")
	if ci.AutoCompact > 0 {
		fmt.Fprintf(&b, "Compacts by itself at %d%% (agent.auto_compact); /compact [focus] does it now.", ci.AutoCompact)
	} else {
		b.WriteString("Automatic compaction is off (agent.auto_compact: 0); /compact [focus] does it now.")
	}
	return b.String()
}

// compaction shows a compaction as a card: a spinner while it runs, then
// what it did.
func (r *Router) compaction(ev agent.Event) {
	c := ev.Compact
	if c == nil {
		return
	}
	switch ev.Type {
	case agent.EventCompacting:
		r.text = nil
		r.compact = newCompactItem(c.Reason, c.Focus, "", c.TokensBefore, 0, nil, nil)
		r.compact.running = true
		r.list.Append(r.compact)
	case agent.EventCompacted:
		it := r.compact
		r.compact = nil
		if ev.Err != nil {
			if it != nil {
				r.list.Remove(it)
			}
			r.showError(ev.Err)
			return
		}
		if it == nil {
			it = &compactItem{}
			r.list.Append(it)
		}
		it.reason, it.focus, it.summary = c.Reason, c.Focus, c.Summary
		it.before, it.after = c.TokensBefore, c.TokensAfter
		it.instructions, it.todos = c.Instructions, c.Todos
		it.running = false
		it.ver++
		r.text = nil
	}
}
