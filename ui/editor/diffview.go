package editor

import (
	"github.com/gdamore/tcell/v2"
)

// toggleDiff shows or hides the agent's last edit of tb as a diff.
func (t *Tabs) toggleDiff(tb *tab) {
	if tb.diff != nil {
		tb.diff = nil
		return
	}
	if tb.agentEdit == nil {
		tb.flash, tb.flashErr = "the agent has not edited this file since it was opened", true
		return
	}
	t.showAgentDiff(tb)
}

func (t *Tabs) showAgentDiff(tb *tab) {
	e := tb.agentEdit
	title := "the agent's last edit"
	if e.command != "" {
		title += " (" + e.command + ")"
	}
	t.showDiff(tb, e.before, e.after, title)
}

// showDiff shows before → after in place of tb's view.
func (t *Tabs) showDiff(tb *tab, before, after []byte, title string) {
	buf, dec, _, hunks := diffDocHunks(before, after, t.th)
	lb, rb, ld, rd, splitHunks := splitDoc(before, after, t.th)
	tb.review = &review{before: before, after: after, hunks: hunks, splitHunks: splitHunks}
	tb.diff = t.diffView(tb, buf, dec)
	tb.split = &splitDiff{left: t.diffView(tb, lb, ld), right: t.diffView(tb, rb, rd)}
	tb.splitOn = false
	tb.diffTitle = title + " " + diffSummary(before, after)
}

// diffView is a read-only view of a diff document, its cursor on the
// first changed line.
func (t *Tabs) diffView(tb *tab, buf *Buffer, dec []decor) *CodeView {
	v := newCodeView(buf, t.th, t.keys, t.hl, t.box, t.clip)
	v.tabWidth = t.tabWidth
	v.readOnly = true
	v.wrap = false
	v.lexer = tb.view.lexer
	v.setDecor(dec, true)
	t.hookView(tb, v)
	for i, d := range dec {
		if d.mark == '+' || d.mark == '-' {
			v.SetCursor(Pos{Line: i})
			v.ScrollTo(max(0, i-3))
			break
		}
	}
	return v
}

// splitMinWidth is the editor width from which diffs show side by side.
const splitMinWidth = 140

// splitDiff is a diff side by side: two views of one row count, the right
// one following the left one's cursor and scroll.
type splitDiff struct {
	left, right *CodeView
}

// setSplit shows tb's diff side by side (on) or unified, keeping the
// cursor in the same hunk.
func (tb *tab) setSplit(on bool) {
	if tb.split == nil || tb.review == nil || on == tb.splitOn {
		return
	}
	from, to := tb.diff, tb.split.left
	fromHunks, toHunks := tb.review.hunks, tb.review.splitHunks
	if !on {
		from, to = to, from
		fromHunks, toHunks = toHunks, fromHunks
	}
	row := 0
	cur := from.Cursor().Line
	for i, h := range fromHunks {
		if cur >= h.doc0 && cur < h.doc1 && i < len(toHunks) {
			th := toHunks[i]
			row = min(th.doc0+cur-h.doc0, th.doc1-1)
		}
	}
	to.SetCursor(Pos{Line: row})
	tb.splitOn = on
}

// drawColumns draws views of one row count side by side in the rectangle
// given, split by rules: the first leads (it has the keys), the others
// follow its cursor row and scroll.
func (t *Tabs) drawColumns(screen tcell.Screen, cols []*CodeView, x, y, w, h int) {
	n := len(cols)
	cw := (w - (n - 1)) / n
	sep := t.base.Foreground(t.th.Border)
	lead := cols[0]
	cx := x
	for i, v := range cols {
		width := cw
		if i == n-1 {
			width = x + w - cx
		}
		if i > 0 {
			v.cursor, v.selected, v.pending = Pos{Line: lead.cursor.Line}, false, nil
			v.top, v.topRow, v.left = lead.top, lead.topRow, lead.left
			for j := 0; j < h; j++ {
				screen.Put(cx-1, y+j, "│", sep)
			}
		}
		v.SetRect(cx, y, width, h)
		v.Draw(screen)
		cx += width + 1
	}
}

// shown is the view tb shows now.
func (tb *tab) shown() *CodeView {
	if tb.versions != nil {
		return tb.versions.cols[0]
	}
	if tb.diff != nil {
		if tb.splitOn && tb.split != nil {
			return tb.split.left
		}
		return tb.diff
	}
	return tb.view
}
