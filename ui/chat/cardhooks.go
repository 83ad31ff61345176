package chat

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/ui/render"
)

// cardHook is a hook's run on a tool call (PreToolUse, PostToolUse), shown
// in the call's card: one line with its verdict, and, on an expanded card,
// what it said.
type cardHook struct {
	line   string // "PreToolUse hook: approved · `check.sh` (12ms)"
	detail string // the reason, warning or output, when any
	bad    bool   // it blocked the call or failed
}

// addHook records a hook's run on the call.
func (c *Card) addHook(h *hooks.Result) {
	detail := h.Reason
	if h.Warning != "" {
		detail = h.Warning
	}
	if detail == "" {
		detail = h.Output
	}
	c.hooks = append(c.hooks, cardHook{
		// The verdict first: a collapsed card cuts the line to its width.
		line:   fmt.Sprintf("%s hook: %s · `%s` (%s)", h.Event, h.Verdict(), words.Clip(h.Command, 60), render.HumanDuration(h.Duration)),
		detail: strings.TrimSpace(detail),
		bad:    h.Block || h.Warning != "",
	})
	c.changed()
}

// hookLines are the card's hook lines at width: each run on one line
// (cut), and, expanded, what it said below it.
func (c *Card) hookLines(rc *Ctx, width int) []render.Line {
	if len(c.hooks) == 0 {
		return nil
	}
	dim := rc.style().Foreground(rc.Th.Dim)
	var out []render.Line
	for _, h := range c.hooks {
		st := dim
		if h.bad {
			st = rc.style().Foreground(rc.Th.Error)
		}
		lead := render.Line{{Text: "  ⚙ ", Style: st}}
		text := render.Sanitize(h.line, 1)
		if !c.Expanded {
			out = append(out, append(lead, render.TruncateLine(render.Line{{Text: text, Style: st}}, max(width-lead.Width(), 1))...))
			continue
		}
		out = append(out, render.WrapText(text, st, width, lead, render.Line{{Text: "    ", Style: st}})...)
		for _, l := range strings.Split(h.detail, "\n") {
			if l = strings.TrimRight(l, " \t\r"); l != "" {
				out = append(out, render.WrapText(render.Sanitize(l, 4), dim, width, render.Line{{Text: "    ", Style: dim}}, render.Line{{Text: "    ", Style: dim}})...)
			}
		}
	}
	return out
}
