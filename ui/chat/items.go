package chat

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/ui/render"
)

// User is a message the user sent (or queued while the agent works).
type User struct {
	Text   string
	Queued bool
	Ver    uint64
	// Input is what the agent is sent when it is more than text (files and
	// images the message @-mentions); chips say what was attached.
	Input     *agent.Input
	Chips     []Chip
	Attaching bool
}

func (u *User) rev(*Ctx) uint64 { return u.Ver }

func (u *User) Render(c *Ctx, width int) []render.Line {
	st := tcell.StyleDefault.Foreground(c.Th.UserText)
	mark := render.Span{Text: "› ", Style: st.Bold(true)}
	if u.Queued {
		st = tcell.StyleDefault.Foreground(c.Th.Dim)
		mark = render.Span{Text: "⧗ ", Style: st}
	}
	lines := render.WrapText(u.Text, st, width, render.Line{mark}, render.Line{{Text: "  ", Style: st}})
	dim := tcell.StyleDefault.Foreground(c.Th.Dim)
	for _, ch := range u.Chips {
		cst := dim
		if ch.Err {
			cst = tcell.StyleDefault.Foreground(c.Th.Error)
		}
		lines = append(lines, render.WrapLine([]render.Span{{Text: ch.Text, Style: cst}}, width, render.Line{{Text: "  ↳ ", Style: dim}}, render.Line{{Text: "    ", Style: dim}})...)
	}
	if u.Attaching {
		lines = append(lines, render.Line{{Text: "  attaching…", Style: dim.Italic(true)}})
	}
	if u.Queued {
		lines = append(lines, render.Line{{Text: "  queued: sent when the agent finishes (Esc puts it back)", Style: st.Italic(true)}})
	}
	return lines
}

func (u *User) CopyText() string { return u.Text }

// assistantItem is a block of the model's answer, rendered as Markdown. A turn
// has one per stretch of text between tool calls.
type assistantItem struct {
	text strings.Builder
	ver  uint64
	md   mdCache // renders of the text's top-level chunks
	// open: the answer is still streaming into this block (see finish).
	open bool
}

func (a *assistantItem) append(s string) {
	a.text.WriteString(s)
	a.ver++
}

// finish says no more text comes into this block: it is rendered again,
// its code highlighted whole (it was lexed from near its end as it grew).
func (a *assistantItem) finish() {
	if a.open {
		a.open = false
		a.ver++
	}
}

// rev also moves when a code block lexed whole comes in while a block of
// this answer shows lexed in part.
func (a *assistantItem) rev(c *Ctx) uint64 {
	if a.md.approx {
		return a.ver + c.MD.gen<<32
	}
	return a.ver
}

func (a *assistantItem) Render(c *Ctx, width int) []render.Line {
	return c.MD.renderChunked(a.text.String(), width, &a.md, a.open)
}

func (a *assistantItem) CopyText() string { return a.text.String() }

// dropRender lets the rendered chunks go (the list drops an item's lines
// far out of view); an answer still streaming keeps them.
func (a *assistantItem) dropRender() {
	if !a.open {
		a.md = mdCache{}
	}
}

// codeText is the message's code blocks as written, for pasting into a
// shell or a file ("" when it has none).
func (a *assistantItem) codeText(c *Ctx) string {
	return strings.Join(c.MD.codeBlocks(a.text.String()), "\n\n")
}

// reasoningItem is the model's reasoning: dimmed and collapsed to one line
// unless expanded.
type reasoningItem struct {
	text     strings.Builder
	started  time.Time
	took     time.Duration
	done     bool
	expanded bool
	ver      uint64
}

func (r *reasoningItem) append(s string) {
	r.text.WriteString(s)
	r.ver++
}

func (r *reasoningItem) finish() {
	if !r.done {
		r.done = true
		r.took = time.Since(r.started)
		r.ver++
	}
}

func (r *reasoningItem) toggle() {
	r.expanded = !r.expanded
	r.ver++
}

func (r *reasoningItem) rev(c *Ctx) uint64 {
	if !r.done {
		return movingRev(r.ver, c.Frame)
	}
	return stillRev(r.ver)
}

// movingRev and stillRev are the revisions of an item that animates while
// it runs: the moving ones are odd and the still ones even, so the render
// cached while it ran is never taken for the finished one.
func movingRev(ver, frame uint64) uint64 { return (ver<<32|frame&0xffffffff)<<1 | 1 }

func stillRev(ver uint64) uint64 { return ver << 1 }

func (r *reasoningItem) Render(c *Ctx, width int) []render.Line {
	dim := tcell.StyleDefault.Foreground(c.Th.Dim)
	nWords := len(strings.Fields(r.text.String()))
	var head string
	if r.done {
		head = fmt.Sprintf("Thought for %s (%s)", render.HumanDuration(r.took), words.Plural(nWords, "word", "words"))
	} else {
		head = fmt.Sprintf("Thinking %s (%s)", render.Spinner(c.Frame), words.Plural(nWords, "word", "words"))
	}
	arrow := "▸ "
	if r.expanded {
		arrow = "▾ "
	}
	lines := []render.Line{render.TruncateLine(render.Line{{Text: arrow, Style: dim}, {Text: head, Style: dim.Italic(true)}}, width)}
	text := strings.TrimSpace(r.text.String())
	if r.expanded {
		lines = append(lines, render.WrapText(text, dim.Italic(true), width, render.Line{{Text: "  ", Style: dim}}, render.Line{{Text: "  ", Style: dim}})...)
	} else if !r.done && text != "" {
		// While it streams, the latest line shows what the model is at.
		last := text[strings.LastIndexByte(text, '\n')+1:]
		lines = append(lines, render.TruncateLine(render.Line{{Text: "  " + render.Sanitize(last, 4), Style: dim.Italic(true)}}, width))
	}
	return lines
}

func (r *reasoningItem) CopyText() string { return r.text.String() }

// NoticeKind selects a notice's look.
type NoticeKind int

const (
	NoticeInfo NoticeKind = iota
	NoticeError
	noticeRetry
	NoticeCancel
)

// Notice is a line from fawn itself: info, an error (red, with what to
// do), a retry in progress, a cancelled turn.
type Notice struct {
	Kind NoticeKind
	Text string
	ver  uint64
}

func (n *Notice) set(text string) {
	n.Text = text
	n.ver++
}

func (n *Notice) rev(*Ctx) uint64 { return n.ver }

func (n *Notice) Render(c *Ctx, width int) []render.Line {
	var icon string
	st := tcell.StyleDefault.Foreground(c.Th.Dim)
	switch n.Kind {
	case NoticeError:
		icon, st = "✗ ", tcell.StyleDefault.Foreground(c.Th.Error)
	case noticeRetry:
		icon, st = "↻ ", tcell.StyleDefault.Foreground(c.Th.Warning)
	case NoticeCancel:
		icon = "⊘ "
	default:
		icon = "ℹ "
	}
	return render.WrapText(n.Text, st, width, render.Line{{Text: icon, Style: st.Bold(true)}}, render.Line{{Text: "  ", Style: st}})
}

func (n *Notice) CopyText() string { return n.Text }
