package editor

import (
	"strconv"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// gutterWidth is the mark column, the line numbers and a space.
func (v *CodeView) gutterWidth() int {
	if v.noGutter {
		return 0
	}
	digits := max(3, len(strconv.Itoa(v.buf.LineCount())))
	if v.decor != nil && v.keepDecor {
		for _, d := range v.decor {
			if d.hasLabel {
				digits = max(digits, len(d.label))
			}
		}
	}
	return digits + 2
}

// rowStarts returns where each screen row of line starts (one row without wrap).
func (v *CodeView) rowStarts(line int) []int {
	if !v.wrap {
		return v.oneRow[:]
	}
	text := v.buf.Line(line)
	return wrapRows(text, v.textW, v.tabWidth, wrapIndent(text, v.textW, v.tabWidth))
}

// rowOrigin returns the column of text that row (starting at byte from)
// begins with, and the screen column it is drawn at: continuation rows of
// a wrapped line sit under its indentation.
func (v *CodeView) rowOrigin(text string, row, from int) (col, shift int) {
	if !v.wrap {
		return v.left, 0
	}
	col = colOf(text, from, v.tabWidth)
	if row > 0 {
		shift = wrapIndent(text, v.textW, v.tabWidth)
	}
	return col, shift
}

// Draw draws the visible part of the buffer, a screen row at a time: the
// gutter, the row's text, and the cursor if it is on the row.
func (v *CodeView) Draw(screen tcell.Screen) {
	if v.ownBox {
		v.box.drain()
	}
	drawFrame(screen, v.Box, v)
	v.clip.screen = screen
	x, y, w, h := v.GetInnerRect()
	if w <= 0 || h <= 0 {
		return
	}
	gw := v.gutterWidth()
	if gw >= w {
		gw = 0
	}
	v.textW, v.textH = w-gw, h
	v.resolveScroll()
	// Highlighting is asked for after the frame is drawn, so the lexer
	// does not compete with the frame it would not make faster.
	defer v.requestHighlight()

	f := &frame{screen: screen, x: x, gw: gw}
	f.focused = v.focused != nil && v.focused() || v.focused == nil && v.HasFocus()
	f.selFrom, f.selTo, f.hasSel = v.Selection()
	f.dim = v.base.Foreground(v.th.Dim)
	cursorShown := false
	line, row := v.top, v.topRow
	for sy := 0; sy < h; sy++ {
		if line >= v.buf.LineCount() {
			for sx := 0; sx < w; sx++ {
				screen.Put(x+sx, y+sy, " ", v.base)
			}
			continue
		}
		r := v.screenRow(f, line, row)
		r.y = y + sy
		if gw > 0 {
			v.drawGutter(f, &r)
		}
		v.drawRowText(f, &r)
		if v.drawCursor(f, &r) {
			cursorShown = true
		}
		row = r.row + 1
		if row >= len(r.starts) {
			line++
			row = 0
		}
	}
	if f.focused && !cursorShown {
		screen.HideCursor()
	}
}

// frame is what every row of one drawing shares.
type frame struct {
	screen         tcell.Screen
	x, gw          int // left of the view, gutter width (text starts at x+gw)
	focused        bool
	selFrom, selTo Pos
	hasSel         bool
	dim            tcell.Style
}

// screenRow is one screen row: the part from..to of a line's text (all of
// it without wrap, one wrapped row with it).
type screenRow struct {
	line, row int
	y         int
	text      string
	starts    []int
	from, to  int
	d         decor
	bg        tcell.Color
	// originCol is the text column drawn at the left of the text area,
	// shift the screen column it is drawn at.
	originCol, shift int
}

// last reports whether this is the line's last row.
func (r *screenRow) last() bool { return r.row == len(r.starts)-1 }

// screenRow lays out row of line: its bytes, decor and background.
func (v *CodeView) screenRow(f *frame, line, row int) screenRow {
	r := screenRow{line: line, text: v.buf.Line(line), starts: v.rowStarts(line)}
	if row >= len(r.starts) {
		row = len(r.starts) - 1
	}
	r.row = row
	r.from, r.to = r.starts[row], len(r.text)
	if row+1 < len(r.starts) {
		r.to = r.starts[row+1]
	}
	if v.decor != nil && line < len(v.decor) {
		r.d = v.decor[line]
	}
	r.bg = v.th.Background
	if r.d.tint != tcell.ColorDefault {
		r.bg = r.d.tint
	} else if line == v.cursor.Line && f.focused && !f.hasSel && v.th.CursorLine != 0 {
		r.bg = v.th.CursorLine
	}
	r.originCol, r.shift = v.rowOrigin(r.text, row, r.from)
	return r
}

// drawGutter draws the mark and the number (or label) on the first row of
// a line, blanks on the others. Every cell is put once: a frame is as
// cheap as the cells it has.
func (v *CodeView) drawGutter(f *frame, r *screenRow) {
	gs := f.dim.Background(r.bg)
	if r.line == v.cursor.Line {
		gs = v.base.Background(r.bg)
	}
	num := ""
	var pm *Problem
	if r.row == 0 {
		num = strconv.Itoa(r.line + 1)
		if r.d.hasLabel {
			num = r.d.label
		}
		if len(v.problems) > 0 {
			pm = v.lineProblem(r.line)
		}
	}
	gw := f.gw
	numAt := gw - 1 - len(num)
	for sx := 0; sx < gw; sx++ {
		switch {
		case sx == 0 && pm != nil:
			f.screen.Put(f.x, r.y, string(markProblem), gs.Foreground(v.problemColor(pm.Severity)).Bold(true))
		case sx == 0 && r.row == 0 && r.d.mark != 0:
			f.screen.Put(f.x, r.y, string(r.d.mark), gs.Foreground(r.d.markColor).Bold(true))
		case sx >= numAt && sx < gw-1:
			f.screen.Put(f.x+sx, r.y, num[sx-numAt:sx-numAt+1], gs)
		default:
			f.screen.Put(f.x+sx, r.y, " ", gs)
		}
	}
}

// rowPaint walks the highlight spans and find matches of a row along with
// its characters, and counts the columns put so far.
type rowPaint struct {
	spans   []span
	si      int
	matches [][2]int
	mi      int
	drawn   int
}

// drawRowText draws the row's characters, a selected line break, and
// blanks to the right edge.
func (v *CodeView) drawRowText(f *frame, r *screenRow) {
	tx := f.x + f.gw
	lineStyle := v.base.Background(r.bg)
	p := rowPaint{}
	if r.line < len(v.styles) {
		p.spans = v.styles[r.line].spans
	}
	if v.findText != "" {
		p.matches = findAll(r.text, v.findText)
	}
	cells(r.text[:r.to], v.tabWidth, func(c cell) bool {
		if c.off < r.from {
			return true
		}
		sx := c.col - r.originCol + r.shift
		if sx >= v.textW {
			return false
		}
		if sx < 0 {
			return true
		}
		st := v.cellStyle(f, r, &p, c, lineStyle)
		for ; p.drawn < sx; p.drawn++ {
			f.screen.Put(tx+p.drawn, r.y, " ", lineStyle) // behind a wide character cut by the left edge
		}
		v.putCell(f.screen, tx, r.y, sx, c, st, &p.drawn)
		return true
	})
	// A selected line break shows as one selected cell after the text.
	if f.hasSel && r.last() && r.line >= f.selFrom.Line && r.line < f.selTo.Line && p.drawn < v.textW &&
		(v.wrap || widthOf(r.text, v.tabWidth) >= v.left) {
		f.screen.Put(tx+p.drawn, r.y, " ", lineStyle.Background(v.th.Selection))
		p.drawn++
	}
	for ; p.drawn < v.textW; p.drawn++ {
		f.screen.Put(tx+p.drawn, r.y, " ", lineStyle)
	}
}

// cellStyle layers a character's style: the line's background, its
// highlighting (or the decor's plain colour), a dim control picture, a
// diagnostic's underline, a find match, the selection.
func (v *CodeView) cellStyle(f *frame, r *screenRow, p *rowPaint, c cell, st tcell.Style) tcell.Style {
	for p.si < len(p.spans) && p.spans[p.si].end <= c.off {
		p.si++
	}
	if r.d.fg != tcell.ColorDefault {
		st = st.Foreground(r.d.fg)
	} else if p.si < len(p.spans) {
		fg, _, attr := p.spans[p.si].style.Decompose()
		st = st.Foreground(fg).Attributes(attr)
	}
	if c.special {
		st = st.Foreground(v.th.Dim)
	}
	if len(v.problems) > 0 {
		if pr := v.underlined(r.line, c.off, len(r.text)); pr != nil {
			st = st.Underline(tcell.UnderlineStyleCurly, v.problemColor(pr.Severity))
		}
	}
	for p.mi < len(p.matches) && p.matches[p.mi][1] <= c.off {
		p.mi++
	}
	if p.mi < len(p.matches) && p.matches[p.mi][0] <= c.off {
		st = st.Background(v.th.Warning).Foreground(tcell.ColorBlack)
	}
	if f.hasSel && !(Pos{r.line, c.off}).Less(f.selFrom) && (Pos{r.line, c.off}).Less(f.selTo) || v.inVimBlock(r.line, c.col) {
		st = st.Background(v.th.Selection)
	}
	return st
}

// putCell puts one character at text column sx and moves *drawn past it.
func (v *CodeView) putCell(screen tcell.Screen, tx, y, sx int, c cell, st tcell.Style, drawn *int) {
	if c.text == "" || sx+c.width > v.textW {
		// A tab, or a wide character cut by the right edge: blanks.
		for ; *drawn < sx+c.width && *drawn < v.textW; *drawn++ {
			screen.Put(tx+*drawn, y, " ", st)
		}
		return
	}
	if c.special && c.width > 1 {
		// A picture wider than a cell (<U+009B>): ASCII, a
		// character a column.
		for i := range len(c.text) {
			screen.Put(tx+sx+i, y, c.text[i:i+1], st)
		}
	} else {
		screen.Put(tx+sx, y, c.text, st)
	}
	*drawn = sx + c.width
}

// drawCursor shows the cursor if it is on this row and within the text
// area, and reports whether it did.
func (v *CodeView) drawCursor(f *frame, r *screenRow) bool {
	if !f.focused || r.line != v.cursor.Line || v.cursor.Col < r.from || (v.cursor.Col >= r.to && !r.last()) {
		return false
	}
	cx := colOf(r.text, v.cursor.Col, v.tabWidth) - r.originCol + r.shift
	if cx < 0 || cx >= v.textW {
		return false
	}
	f.screen.ShowCursor(f.x+f.gw+cx, r.y)
	return true
}

// drawFrame draws box's border and title when it has them; the editor's
// primitives paint every cell of their area themselves, so the background
// fill a tview Box does first would only double the work of a frame.
func drawFrame(screen tcell.Screen, box *tview.Box, p tview.Primitive) {
	x, y, w, h := box.GetRect()
	ix, iy, iw, ih := box.GetInnerRect()
	if x != ix || y != iy || w != iw || h != ih {
		box.DrawForSubclass(screen, p)
	}
}
