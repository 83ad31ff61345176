package editor

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/keymap"
)

// Draw draws the tab strip, the active view and the status line, after
// applying what background work has finished.
func (t *Tabs) Draw(screen tcell.Screen) {
	t.box.drain()
	drawFrame(screen, t.Box, t)
	t.clip.screen = screen
	x, y, w, h := t.GetInnerRect()
	if w <= 0 || h <= 0 {
		return
	}
	tb := t.current()
	if t.HasFocus() && t.finder == nil {
		tb.agentMark = false // the user is looking at it now
	}
	if tb.welcome && tb.source != welcomeText(t.keys) {
		// The app applied the user's key overrides after New.
		tb = t.newWelcome()
		t.tabs[t.active] = tb
	}
	if h < 3 {
		v := tb.shown()
		v.SetRect(x, y, w, h)
		v.Draw(screen)
		return
	}
	t.drawStrip(screen, x, y, w)
	status := 1
	if tb.prompt != nil && h > 4 {
		status = tb.prompt.rows()
	}
	if tb.diff != nil {
		tb.setSplit(w >= splitMinWidth && !t.unifiedDiffs)
	}
	switch {
	case tb.versions != nil:
		t.drawColumns(screen, tb.versions.cols, x, y+1, w, h-1-status)
	case tb.diff != nil && tb.splitOn:
		t.drawColumns(screen, []*CodeView{tb.split.left, tb.split.right}, x, y+1, w, h-1-status)
	default:
		v := tb.shown()
		v.SetRect(x, y+1, w, h-1-status)
		v.Draw(screen)
	}
	t.drawStatus(screen, x, y+h-status, w, status, tb)
	if t.finder != nil {
		t.drawFinder(screen, x, y+1, w, h-1)
	}
}

// drawStrip draws the tab titles, keeping the active one in view.
func (t *Tabs) drawStrip(screen tcell.Screen, x, y, w int) {
	t.stripY = y
	t.stripPos = t.stripPos[:0]
	bg := t.th.CursorLine
	strip := t.base.Background(bg)
	for i := 0; i < w; i++ {
		screen.Put(x+i, y, " ", strip)
	}
	labels := make([]string, len(t.tabs))
	widths := make([]int, len(t.tabs))
	for i, tb := range t.tabs {
		l := " " + safetext.Line(tb.title) // a file's name: never raw
		if tb.path != "" && tb.buf.Modified() {
			l += " " + string(markUnsaved)
		}
		if tb.agentMark {
			l += " " + string(markAgent)
		}
		if e, w := problemCounts(tb.view.problems); e+w > 0 {
			l += fmt.Sprintf(" %c%d", markProblem, e+w)
		}
		labels[i] = l + " "
		widths[i] = putWidth(labels[i]) + 1 // and a separator
	}
	first := 0
	for first < t.active {
		sum := 0
		for i := first; i <= t.active; i++ {
			sum += widths[i]
		}
		if sum <= w-2 {
			break
		}
		first++
	}
	col := x
	if first > 0 {
		screen.SetContent(col, y, '‹', nil, strip.Foreground(t.th.Dim))
		col++
	}
	for i := first; i < len(t.tabs) && col < x+w; i++ {
		tb := t.tabs[i]
		st := strip.Foreground(t.th.Dim)
		if i == t.active {
			st = t.base.Background(t.th.Selection).Foreground(t.th.Foreground).Bold(true)
		}
		start := col
		for _, r := range labels[i] {
			if col >= x+w {
				break
			}
			cs := st
			switch r {
			case markUnsaved:
				cs = st.Foreground(t.th.Warning)
			case markAgent:
				cs = st.Foreground(t.th.Accent)
			}
			_, n := screen.Put(col, y, string(r), cs)
			col += max(1, n)
		}
		t.stripPos = append(t.stripPos, [3]int{start, col, i})
		if tb != nil && col < x+w {
			screen.SetContent(col, y, '│', nil, strip.Foreground(t.th.Border))
			col++
		}
	}
	if last := t.stripPos[len(t.stripPos)-1][2]; last < len(t.tabs)-1 || col > x+w {
		screen.SetContent(x+w-1, y, '›', nil, strip.Foreground(t.th.Dim))
	}
}

func putWidth(s string) int {
	n := 0
	cells(s, 1, func(c cell) bool { n += c.width; return true })
	return n
}

// drawStatus draws the prompt, or a message and the cursor position.
func (t *Tabs) drawStatus(screen tcell.Screen, x, y, w, rows int, tb *tab) {
	st := t.base.Background(t.th.CursorLine)
	for r := 0; r < rows; r++ {
		for i := 0; i < w; i++ {
			screen.Put(x+i, y+r, " ", st)
		}
	}
	if tb.prompt != nil {
		c := tb.prompt.draw(screen, t.keyset.Prompt, x+1, y, w-2, st, t.th.Accent, t.th.Dim, t.th.Error)
		if c >= 0 && t.HasFocus() && t.finder == nil {
			screen.ShowCursor(c, y)
		}
		return
	}
	v := tb.shown()
	// Right: where the cursor is, and what the file is.
	var right []string
	if !tb.welcome && !tb.binary && tb.diff == nil && tb.versions == nil {
		c := v.Cursor()
		right = append(right, fmt.Sprintf("Ln %d, Col %d", c.Line+1, colOf(v.buf.Line(c.Line), c.Col, v.tabWidth)+1))
		if tb.diff == nil {
			if tb.buf.CRLF() {
				right = append(right, "CRLF")
			} else {
				right = append(right, "LF")
			}
			if tb.buf.fmt.bom {
				right = append(right, "BOM")
			}
			if tb.view.lexer != nil {
				right = append(right, tb.view.lexer.Config().Name)
			}
		}
		if tb.readOnly {
			right = append(right, "RO")
		}
		if v.wrap {
			right = append(right, "wrap")
		}
		if m := v.VimMode(); m != "" {
			right = append([]string{"-- " + m + " --"}, right...)
		}
	}
	// Left: a message, else what is shown.
	left, fg := "", t.th.Foreground
	switch {
	case tb.versions != nil: // the choice waiting is what matters
		left, fg = tb.versions.status, t.th.Warning
	case v.VimStatus() != "":
		left, fg = v.VimStatus(), t.th.Accent
	case tb.flash != "":
		left = tb.flash
		if tb.flashErr {
			fg = t.th.Error
		}
	case tb.diff != nil:
		left, fg = t.diffStatus(tb, w), t.th.Accent
	case v.findText != "":
		left, fg = "find: "+v.findText+" — "+keymap.Display(firstKey(t.keys, actFindNext))+" next, "+t.keys.Hint(actClearFind)+" to clear", t.th.Dim
	case !tb.welcome && tb.diff == nil && tb.versions == nil && t.problemLine(tb) != "":
		left, fg = tb.view.problemStatus()
	case tb.notice != "":
		left, fg = tb.notice, t.th.Warning
	case tb.welcome:
		left, fg = "Welcome", t.th.Dim
	default:
		left = t.rel(tb.path)
		if tb.buf.Modified() {
			left += " (unsaved)"
		}
		if tb.agentEdit != nil && v.decor != nil {
			left += " — agent edit " + diffSummary(tb.agentEdit.before, tb.agentEdit.after) + ", " +
				keymap.Display(firstKey(t.keys, actDiff)) + ": diff"
		}
	}
	// The message wins the room; the position shows when it fits beside it.
	rs := strings.Join(right, "  ")
	lw, rw := putWidth(left), putWidth(rs)
	if lw+rw+4 > w {
		rw = 0
	} else {
		putString(screen, x+w-1-rw, y, rw, rs, st.Foreground(t.th.Dim))
	}
	putString(screen, x+1, y, w-rw-3, left, st.Foreground(fg))
}

func firstKey(keys *keymap.Table, action keymap.Action) string {
	if ks := keys.Keys(action); len(ks) > 0 {
		return ks[0]
	}
	return "?"
}

// diffStatus is the status line of the diff view: its keys as bound.
func (t *Tabs) diffStatus(tb *tab, w int) string {
	d := t.keyset.Diff
	layout := "" // offered only where it fits
	if tb.splitOn {
		layout = d.Hint(actDiffLayout) + ": unified · "
	} else if w >= splitMinWidth {
		layout = d.Hint(actDiffLayout) + ": side by side · "
	}
	review := "" // r and R act only where something records the change
	if tb.review != nil && t.onRevert != nil {
		review = d.Hint(actDiffRevertHunk) + " reverts the hunk, " + d.Hint(actDiffRevertFile) + " the file, " + d.Hint(actDiffOpen) + " opens it there · "
	}
	return "diff of " + tb.diffTitle + " · " + review + layout + keymap.Display(firstKey(t.keys, actDiff)) + " or " + d.Hint(actDiffClose) + ": back to the file"
}
