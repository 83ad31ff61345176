package chat

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/render"
)

// compactItem is a compaction in the chat: one line saying how much the
// conversation shrank and why, unfolding (Space, Enter or a click) to the
// summary the model carries on from, then what follows it — the project's
// instructions and the open to-dos.
type compactItem struct {
	reason, focus, summary string
	// fromNotes: the summary is the notes written after each turn.
	fromNotes bool
	// notedMessages: the summary was written from the notes of the first
	// turns and the transcript of the rest.
	notedMessages int
	before, after int
	instructions  []string
	todos         []tools.Todo
	running       bool
	expanded      bool
	ver           uint64
}

func newCompactItem(reason, focus, summary string, before, after int, instructions []string, todos []tools.Todo) *compactItem {
	return &compactItem{reason: reason, focus: focus, summary: summary, before: before, after: after, instructions: instructions, todos: todos}
}

func (c *compactItem) toggle() {
	c.expanded = !c.expanded
	c.ver++
}

func (c *compactItem) rev(rc *Ctx) uint64 {
	if c.running {
		return movingRev(c.ver, rc.Frame)
	}
	return stillRev(c.ver)
}

// why words the reason a compaction happened.
func compactWhy(reason string) string {
	switch reason {
	case "auto":
		return "the context was filling up"
	case "overflow":
		return "the server said the context was full"
	case "manual":
		return "/compact"
	}
	return reason
}

func (c *compactItem) Render(rc *Ctx, width int) []render.Line {
	base := rc.style()
	dim := base.Foreground(rc.Th.Dim)
	acc := base.Foreground(rc.Th.Accent)
	if c.running {
		head := fmt.Sprintf("%s Compacting the conversation (%s)…", render.Spinner(rc.Frame), compactWhy(c.reason))
		return []render.Line{render.TruncateLine(render.Line{{Text: head, Style: acc}}, width)}
	}
	arrow := "▸ "
	if c.expanded {
		arrow = "▾ "
	}
	head := fmt.Sprintf("Compacted: %s → %s tokens (%s)", render.Kilo(c.before), render.Kilo(c.after), compactWhy(c.reason))
	switch {
	case c.fromNotes:
		head += " · from the turn notes"
	case c.notedMessages > 0:
		head += " · the turn notes and the turns after them"
	}
	if c.focus != "" {
		head += " · focus: " + render.Sanitize(c.focus, 1)
	}
	lines := render.WrapText(head, acc.Bold(true), width, render.Line{{Text: arrow, Style: dim}, {Text: "⇣ ", Style: acc}}, render.Line{{Text: "    ", Style: dim}})
	if !c.expanded {
		lines = append(lines, render.TruncateLine(render.Line{{Text: "  Space shows the summary the conversation goes on from", Style: dim.Italic(true)}}, width))
		return lines
	}
	for _, l := range strings.Split(strings.TrimSpace(c.summary), "\n") {
		lines = append(lines, render.WrapText(render.Sanitize(l, 4), base, width, render.Line{{Text: "  │ ", Style: dim}}, render.Line{{Text: "  │ ", Style: dim}})...)
	}
	var after []string
	for _, p := range c.instructions {
		after = append(after, render.RelPath(rc.Root, p))
	}
	open := 0
	for _, t := range c.todos {
		if t.Status == "pending" || t.Status == "in_progress" {
			open++
		}
	}
	if open > 0 {
		after = append(after, words.Plural(open, "open to-do", "open to-dos"))
	}
	if len(after) > 0 {
		lines = append(lines, render.WrapText("followed by "+strings.Join(after, " · "), dim.Italic(true), width, render.Line{{Text: "  ", Style: dim}}, render.Line{{Text: "  ", Style: dim}})...)
	}
	return lines
}

func (c *compactItem) CopyText() string { return c.summary }

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
		it.fromNotes, it.notedMessages = c.FromNotes, c.NotedMessages
		it.running = false
		it.ver++
		r.text = nil
	}
}
