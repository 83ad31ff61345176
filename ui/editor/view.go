package editor

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

// decor is what a line shows besides its text: a gutter mark, a tint, and
// in a diff a label in place of the line number.
type decor struct {
	mark      rune
	markColor tcell.Color
	tint      tcell.Color // tcell.ColorDefault: none
	label     string
	hasLabel  bool
	fg        tcell.Color // draws the text plain in this colour (a diff's hunk header)
}

// clipboard is shared by the views of one Tabs: an internal copy, also sent
// to the terminal's clipboard with OSC 52 when the terminal supports it.
type clipboard struct {
	text   string
	screen tcell.Screen // the screen last drawn on
}

func (c *clipboard) set(text string) {
	c.text = text
	if c.screen != nil {
		c.screen.SetClipboard([]byte(text))
	}
}

// hlMargin is how many lines around the visible ones are highlighted with
// them: enough context for the lexer and for a short scroll.
const hlMargin = 60

// editSettle is how long highlighting waits after an edit for more keys.
const editSettle = 15 * time.Millisecond

// CodeView is a tview primitive that shows and edits one Buffer: a gutter
// with line numbers and change marks, the cursor and selection, vertical
// and horizontal scrolling or soft wrap, and chroma highlighting computed
// in the background for the visible window. Only visible lines are drawn.
type CodeView struct {
	*tview.Box

	buf      *Buffer
	th       theme.Theme
	keys     *keymap.Table
	base     tcell.Style
	tabWidth int
	indent   string // what Tab inserts: "\t" or spaces, as the file does
	wrap     bool
	readOnly bool
	noGutter bool // pages that are not files (Welcome, a binary notice)

	cursor   Pos
	anchor   Pos
	selected bool // anchor..cursor is a selection
	wantCol  int  // screen column kept across up/down; -1 none
	dragging bool

	top, topRow, left int // first line shown, its first row (wrap), first column (no wrap)
	textW, textH      int // size of the text area at the last draw
	pending           *scrollRequest

	styles    []lineStyle // parallel to the buffer's lines
	decor     []decor     // nil, or parallel to the buffer's lines
	keepDecor bool        // decor survives edits (a diff, which is read-only anyway)
	lexer     chroma.Lexer
	hl        *highlighter
	box       *mailbox
	ownBox    bool
	reqVer    uint64
	reqFrom   int
	reqTo     int
	reqValid  bool

	findText string // matches are tinted while a find is open
	// problems are the file's diagnostics, sorted by position: a gutter
	// mark and an underline each.
	problems []Problem
	oneRow   [1]int // rowStarts of a line without wrap, without allocating

	clip *clipboard
	// notice shows a one-line message (a refused edit in a read-only view).
	notice func(string)
	// changed is called after every change of the text, by key or paste.
	changed func()
	focused func() bool
}

type scrollRequest struct {
	line   int
	center bool
}

// NewCodeView returns a view of buf. path picks the highlighting (empty: none).
func NewCodeView(buf *Buffer, path string, th theme.Theme, keys *keymap.Table) *CodeView {
	v := newCodeView(buf, th, keys, nil, nil, nil)
	if path != "" {
		v.lexer = lexerFor(path, buf.Bytes())
		if v.lexer != nil {
			v.hl = newHighlighter(th.Syntax, v.base)
		}
	}
	return v
}

func newCodeView(buf *Buffer, th theme.Theme, keys *keymap.Table, hl *highlighter, box *mailbox, clip *clipboard) *CodeView {
	v := &CodeView{
		Box:      tview.NewBox(),
		buf:      buf,
		th:       th,
		keys:     keys,
		base:     tcell.StyleDefault.Foreground(th.Foreground).Background(th.Background),
		tabWidth: 4,
		wantCol:  -1,
		hl:       hl,
		box:      box,
		clip:     clip,
	}
	if v.keys == nil {
		v.keys = DefaultKeys()
	}
	if v.box == nil {
		v.box = &mailbox{}
		v.ownBox = true
	}
	if v.clip == nil {
		v.clip = &clipboard{}
	}
	v.SetBackgroundColor(th.Background)
	v.indent = detectIndent(buf)
	v.styles = make([]lineStyle, buf.LineCount())
	buf.OnChange(v.onSplice)
	return v
}

// Close stops the view's own highlighter, if it has one (a view made by
// NewCodeView); views inside Tabs share the Tabs' one.
func (v *CodeView) Close() {
	if v.ownBox && v.hl != nil {
		v.hl.close()
	}
}

// SetRedraw sets what background work calls to get the view drawn again,
// for a view used on its own (inside Tabs, Tabs.SetRedraw does this).
func (v *CodeView) SetRedraw(fn func()) { v.box.setRedraw(fn) }

// Buffer returns the view's buffer.
func (v *CodeView) Buffer() *Buffer { return v.buf }

// SetReadOnly refuses edits when ro is set.
func (v *CodeView) SetReadOnly(ro bool) { v.readOnly = ro }

// SetWrap turns soft wrap on or off.
func (v *CodeView) SetWrap(on bool) {
	if v.wrap == on {
		return
	}
	v.wrap = on
	v.left, v.topRow = 0, 0
	v.pending = &scrollRequest{line: v.cursor.Line, center: true}
}

// Wrap reports whether soft wrap is on.
func (v *CodeView) Wrap() bool { return v.wrap }

// SetTabWidth sets the columns between tab stops.
func (v *CodeView) SetTabWidth(n int) {
	if n > 0 {
		v.tabWidth = n
	}
}

// Cursor returns the cursor position.
func (v *CodeView) Cursor() Pos { return v.cursor }

// SetCursor moves the cursor (clamped), drops the selection and scrolls to it.
func (v *CodeView) SetCursor(p Pos) {
	v.cursor = v.buf.Clamp(p)
	v.selected = false
	v.wantCol = -1
	v.buf.hist.seal()
	v.pending = &scrollRequest{line: v.cursor.Line}
}

// Select selects from..to, the cursor at to, and scrolls to it.
func (v *CodeView) Select(from, to Pos) {
	v.anchor = v.buf.Clamp(from)
	v.cursor = v.buf.Clamp(to)
	v.selected = v.anchor != v.cursor
	v.wantCol = -1
	v.buf.hist.seal()
	v.pending = &scrollRequest{line: v.cursor.Line, center: true}
}

// Selection returns the selected range, ordered, and whether there is one.
func (v *CodeView) Selection() (Pos, Pos, bool) {
	if !v.selected || v.anchor == v.cursor {
		return v.cursor, v.cursor, false
	}
	a, b := order(v.anchor, v.cursor)
	return a, b, true
}

// ScrollTo shows line (0-based) near the top of the view, with a few lines
// of context above it, once the view knows its size.
func (v *CodeView) ScrollTo(line int) {
	v.pending = &scrollRequest{line: line}
	v.top = max(0, min(line, v.buf.LineCount()-1))
	v.topRow = 0
}

// CenterOn shows line in the middle of the view.
func (v *CodeView) CenterOn(line int) {
	v.pending = &scrollRequest{line: line, center: true}
}

// Top returns the first line shown.
func (v *CodeView) Top() int { return v.top }

// setDecor replaces the per-line marks (nil clears them).
func (v *CodeView) setDecor(d []decor, keep bool) {
	v.decor = d
	v.keepDecor = keep
}

// onSplice keeps the per-line data in step with the buffer.
func (v *CodeView) onSplice(at, removed, added int) {
	v.styles = spliceKeep(v.styles, at, removed, added)
	if v.decor != nil {
		if v.keepDecor {
			v.decor = spliceKeep(v.decor, at, removed, added)
		} else {
			v.decor = nil // agent marks last until the next change
		}
	}
}

// spliceKeep replaces s[at:at+removed] with added entries, the first of
// which keep the old values (a retyped line keeps its colours until the
// fresh ones arrive).
func spliceKeep[T any](s []T, at, removed, added int) []T {
	if at > len(s) {
		return s
	}
	removed = min(removed, len(s)-at)
	if added == removed {
		return s
	}
	if added < removed {
		return append(s[:at+added], s[at+removed:]...)
	}
	extra := make([]T, added-removed)
	out := make([]T, 0, len(s)+len(extra))
	out = append(out, s[:at+removed]...)
	out = append(out, extra...)
	return append(out, s[at+removed:]...)
}

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
	if f.hasSel && !(Pos{r.line, c.off}).Less(f.selFrom) && (Pos{r.line, c.off}).Less(f.selTo) {
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

// lastVisibleLine is the line after the last one (partly) shown.
func (v *CodeView) lastVisibleLine() int {
	if !v.wrap {
		return min(v.buf.LineCount(), v.top+v.textH)
	}
	line, rows := v.top, -v.topRow
	for line < v.buf.LineCount() && rows < v.textH {
		rows += len(v.rowStarts(line))
		line++
	}
	return line
}

// requestHighlight asks for the visible window when some of it is stale.
func (v *CodeView) requestHighlight() {
	if v.lexer == nil || v.hl == nil {
		return
	}
	ver := v.buf.Version()
	bottom := v.lastVisibleLine()
	stale := false
	for i := v.top; i < bottom && i < len(v.styles); i++ {
		if !v.styles[i].done || v.styles[i].ver != ver {
			stale = true
			break
		}
	}
	if !stale {
		return
	}
	if v.reqValid && v.reqVer == ver && v.reqFrom <= v.top && v.reqTo >= bottom {
		return // already asked for
	}
	// After an edit (same window, newer text) the job waits a moment, so
	// a burst of typing lexes once, at its end, and the keystrokes' own
	// frames have the CPU; the old colours stay on screen meanwhile.
	var delay time.Duration
	if v.reqValid && v.reqVer != ver && v.reqFrom <= v.top && v.reqTo >= bottom {
		delay = editSettle
	}
	from := max(0, v.top-hlMargin)
	to := min(v.buf.LineCount(), bottom+hlMargin)
	v.reqVer, v.reqFrom, v.reqTo, v.reqValid = ver, from, to, true
	box := v.box
	v.hl.submit(v, &hlJob{
		lexer:   v.lexer,
		version: ver,
		start:   from,
		delay:   delay,
		lines:   v.buf.Lines(from, to),
		done: func(job *hlJob, spans [][]span) {
			box.post(func() { v.applyHighlight(job, spans) })
		},
	})
}

// applyHighlight takes a result on the UI goroutine; a result for an older
// version of the text is dropped (the next draw asks again).
func (v *CodeView) applyHighlight(job *hlJob, spans [][]span) {
	if job.version != v.buf.Version() {
		if v.reqVer == job.version {
			v.reqValid = false
		}
		return
	}
	for i, sp := range spans {
		if n := job.start + i; n < len(v.styles) {
			v.styles[n] = lineStyle{spans: sp, ver: job.version, done: true}
		}
	}
}

// highlighted reports whether every visible line has current highlighting
// (for tests and benchmarks).
func (v *CodeView) highlighted() bool {
	if v.lexer == nil {
		return true
	}
	if v.textH == 0 {
		return false // not drawn yet: nothing was asked for
	}
	ver := v.buf.Version()
	for i := v.top; i < v.lastVisibleLine() && i < len(v.styles); i++ {
		if !v.styles[i].done || v.styles[i].ver != ver {
			return false
		}
	}
	return true
}

// resolveScroll applies a pending scroll request now that the size is
// known, then keeps top within the text.
func (v *CodeView) resolveScroll() {
	if p := v.pending; p != nil {
		v.pending = nil
		line := max(0, min(p.line, v.buf.LineCount()-1))
		if p.center {
			v.top = max(0, line-v.textH/2)
			v.topRow = 0
		} else if line == v.cursor.Line {
			v.ensureCursorVisible()
		} else {
			v.top = max(0, line-min(3, v.textH/4))
			v.topRow = 0
		}
		if line == v.cursor.Line {
			v.ensureCursorVisible()
		}
	}
	v.clampTop()
}

func (v *CodeView) clampTop() {
	if v.top >= v.buf.LineCount() {
		v.top = v.buf.LineCount() - 1
		v.topRow = 0
	}
	if mt, mr := v.maxTop(); v.top > mt || (v.top == mt && v.topRow > mr) {
		v.top, v.topRow = mt, mr
	}
	v.top = max(0, v.top)
	if v.topRow < 0 {
		v.topRow = 0
	}
}

// maxTop is the scroll position that shows the last line at the bottom.
func (v *CodeView) maxTop() (int, int) {
	if !v.wrap {
		return max(0, v.buf.LineCount()-v.textH), 0
	}
	rows := 0
	for line := v.buf.LineCount() - 1; line >= 0; line-- {
		n := len(v.rowStarts(line))
		if rows+n >= v.textH {
			return line, rows + n - v.textH
		}
		rows += n
	}
	return 0, 0
}

// cursorRow returns the row of the cursor within its line.
func (v *CodeView) cursorRow() int {
	starts := v.rowStarts(v.cursor.Line)
	r := 0
	for i, s := range starts {
		if s <= v.cursor.Col {
			r = i
		}
	}
	return r
}

// ensureCursorVisible scrolls the least needed to show the cursor.
func (v *CodeView) ensureCursorVisible() {
	if v.textH <= 0 {
		v.pending = &scrollRequest{line: v.cursor.Line}
		return
	}
	if !v.wrap {
		if v.cursor.Line < v.top {
			v.top = v.cursor.Line
		} else if v.cursor.Line >= v.top+v.textH {
			v.top = v.cursor.Line - v.textH + 1
		}
		col := colOf(v.buf.Line(v.cursor.Line), v.cursor.Col, v.tabWidth)
		margin := min(8, v.textW/4)
		if col < v.left {
			v.left = max(0, col-margin)
		} else if col >= v.left+v.textW {
			v.left = col - v.textW + 1 + margin
		}
		return
	}
	v.left = 0
	cr := v.cursorRow()
	if v.cursor.Line < v.top || (v.cursor.Line == v.top && cr < v.topRow) {
		v.top, v.topRow = v.cursor.Line, cr
		return
	}
	// Count rows from the top to the cursor; scroll down if past the bottom.
	rows := -v.topRow
	for l := v.top; l < v.cursor.Line; l++ {
		rows += len(v.rowStarts(l))
		if rows > v.textH {
			break
		}
	}
	rows += cr
	for rows >= v.textH {
		n := len(v.rowStarts(v.top))
		if v.topRow+1 < n {
			v.topRow++
		} else {
			v.top++
			v.topRow = 0
		}
		rows--
	}
}

// scrollBy moves the view by n rows without moving the cursor.
func (v *CodeView) scrollBy(n int) {
	if !v.wrap {
		v.top += n
		v.clampTop()
		return
	}
	for ; n > 0; n-- {
		if v.topRow+1 < len(v.rowStarts(v.top)) {
			v.topRow++
		} else if v.top+1 < v.buf.LineCount() {
			v.top++
			v.topRow = 0
		}
	}
	for ; n < 0; n++ {
		if v.topRow > 0 {
			v.topRow--
		} else if v.top > 0 {
			v.top--
			v.topRow = len(v.rowStarts(v.top)) - 1
		}
	}
	v.clampTop()
}

// posAt maps a screen cell to a buffer position.
func (v *CodeView) posAt(sx, sy int) Pos {
	x, y, _, _ := v.GetInnerRect()
	gw := v.gutterWidth()
	col := max(0, sx-x-gw)
	rowsDown := sy - y
	line, row := v.top, v.topRow
	for rowsDown > 0 && line < v.buf.LineCount() {
		if row+1 < len(v.rowStarts(line)) {
			row++
		} else {
			line++
			row = 0
		}
		rowsDown--
	}
	if line >= v.buf.LineCount() {
		return v.buf.End()
	}
	text := v.buf.Line(line)
	if v.wrap {
		starts := v.rowStarts(line)
		base, shift := v.rowOrigin(text, row, starts[row])
		off := offAt(text, base+max(0, col-shift), v.tabWidth)
		if row+1 < len(starts) && off >= starts[row+1] {
			off = prevCluster(text, starts[row+1])
		}
		return Pos{line, off}
	}
	return Pos{line, offAt(text, v.left+col, v.tabWidth)}
}

// InputHandler handles keys bound in the editor key table and typed text.
func (v *CodeView) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		v.HandleKey(ev)
	})
}

// PasteHandler inserts pasted text as one undo step.
func (v *CodeView) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return v.WrapPasteHandler(func(text string, _ func(p tview.Primitive)) {
		v.insertText(text, "")
	})
}

// MouseHandler places the cursor, selects by dragging or double-click, and scrolls.
func (v *CodeView) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return v.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !v.InRect(mx, my) && !v.dragging {
			return false, nil
		}
		switch action {
		case tview.MouseLeftDown:
			setFocus(v)
			p := v.posAt(mx, my)
			if ev.Modifiers()&tcell.ModShift != 0 {
				if !v.selected {
					v.anchor = v.cursor
				}
				v.cursor, v.selected = p, true
			} else {
				v.cursor, v.anchor, v.selected = p, p, false
			}
			v.wantCol = -1
			v.buf.hist.seal()
			v.dragging = true
			return true, v
		case tview.MouseMove:
			if v.dragging {
				v.cursor = v.posAt(mx, my)
				v.selected = v.cursor != v.anchor
				v.ensureCursorVisible()
				return true, v
			}
		case tview.MouseLeftUp:
			v.dragging = false
			return true, nil
		case tview.MouseLeftDoubleClick:
			p := v.posAt(mx, my)
			s, e := wordAt(v.buf.Line(p.Line), p.Col)
			v.Select(Pos{p.Line, s}, Pos{p.Line, e})
			v.pending = nil
			return true, nil
		case tview.MouseScrollUp:
			v.scrollBy(-3)
			return true, nil
		case tview.MouseScrollDown:
			v.scrollBy(3)
			return true, nil
		case tview.MouseScrollLeft:
			v.left = max(0, v.left-4)
			return true, nil
		case tview.MouseScrollRight:
			if !v.wrap {
				v.left += 4
			}
			return true, nil
		}
		return false, nil
	})
}

// HandleKey runs the action bound to ev, or types its rune; it reports
// whether the key was used.
func (v *CodeView) HandleKey(ev *tcell.EventKey) bool {
	if action := v.keys.Action(ev); action != "" {
		return v.Do(action)
	}
	if ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0 {
		r := ev.Rune()
		kind := "type"
		if unicode.IsSpace(r) {
			kind = "type-space"
		}
		v.insertText(string(r), kind)
		return true
	}
	return false
}

// Do runs an editor action (actLeft, actCopy…) and reports whether the
// view knows it.
func (v *CodeView) Do(action keymap.Action) bool {
	if m, extend, ok := motionOf(action); ok {
		v.move(m, extend)
		return true
	}
	switch action {
	case actSelectAll:
		v.anchor, v.cursor, v.selected = Pos{}, v.buf.End(), true
	case actBackspace:
		v.deleteBack(false)
	case actDeleteWordLeft:
		v.deleteBack(true)
	case actDelete:
		v.deleteForward(false)
	case actDeleteWordRight:
		v.deleteForward(true)
	case actNewline:
		v.newline()
	case actIndent:
		v.indentLines(false)
	case actOutdent:
		v.indentLines(true)
	case actDeleteLine:
		v.deleteLine()
	case actUndo:
		v.undo()
	case actRedo:
		v.redo()
	case actCopy:
		v.copySelection(false)
	case actCut:
		v.copySelection(true)
	case actPaste:
		if v.clip.text != "" {
			v.insertText(v.clip.text, "")
		}
	case actWrap:
		v.SetWrap(!v.wrap)
	default:
		return false
	}
	return true
}

// motion is where a cursor motion goes.
type motion int

const (
	motionLeft motion = iota
	motionRight
	motionUp
	motionDown
	motionHome
	motionEnd
	motionPageUp
	motionPageDown
	motionWordLeft
	motionWordRight
	motionDocStart
	motionDocEnd
)

// motionOf is the motion of action, and whether it extends the selection
// (the shifted actions); ok is false for an action that is no motion.
func motionOf(action keymap.Action) (m motion, extend, ok bool) {
	switch action {
	case actLeft, actSelectLeft:
		m = motionLeft
	case actRight, actSelectRight:
		m = motionRight
	case actUp, actSelectUp:
		m = motionUp
	case actDown, actSelectDown:
		m = motionDown
	case actHome, actSelectHome:
		m = motionHome
	case actEnd, actSelectEnd:
		m = motionEnd
	case actPageUp, actSelectPageUp:
		m = motionPageUp
	case actPageDown, actSelectPageDown:
		m = motionPageDown
	case actWordLeft, actSelectWordLeft:
		m = motionWordLeft
	case actWordRight, actSelectWordRight:
		m = motionWordRight
	case actDocStart, actSelectDocStart:
		m = motionDocStart
	case actDocEnd, actSelectDocEnd:
		m = motionDocEnd
	default:
		return 0, false, false
	}
	switch action {
	case actSelectLeft, actSelectRight, actSelectUp, actSelectDown, actSelectHome, actSelectEnd,
		actSelectPageUp, actSelectPageDown, actSelectWordLeft, actSelectWordRight, actSelectDocStart, actSelectDocEnd:
		extend = true
	}
	return m, extend, true
}

// move moves the cursor; extend keeps the anchor (shift).
func (v *CodeView) move(m motion, extend bool) {
	from, to, has := v.Selection()
	p := v.cursor
	keepCol := false
	text := v.buf.Line(p.Line)
	switch m {
	case motionLeft:
		if has && !extend {
			p = from
		} else if p.Col > 0 {
			p.Col = prevCluster(text, p.Col)
		} else if p.Line > 0 {
			p = Pos{p.Line - 1, len(v.buf.Line(p.Line - 1))}
		}
	case motionRight:
		if has && !extend {
			p = to
		} else if p.Col < len(text) {
			p.Col = nextCluster(text, p.Col)
		} else if p.Line+1 < v.buf.LineCount() {
			p = Pos{p.Line + 1, 0}
		}
	case motionWordLeft:
		if p.Col == 0 && p.Line > 0 {
			p = Pos{p.Line - 1, len(v.buf.Line(p.Line - 1))}
		} else {
			p.Col = wordLeft(text, p.Col)
		}
	case motionWordRight:
		if p.Col == len(text) && p.Line+1 < v.buf.LineCount() {
			p = Pos{p.Line + 1, 0}
		} else {
			p.Col = wordRight(text, p.Col)
		}
	case motionUp, motionDown, motionPageUp, motionPageDown:
		keepCol = true
		n := 1
		page := m == motionPageUp || m == motionPageDown
		if page {
			n = max(1, v.textH-1)
		}
		if m == motionUp || m == motionPageUp {
			n = -n
		}
		p = v.verticalMove(n)
		if page {
			v.scrollBy(n)
		}
	case motionHome:
		// Smart home: to the indentation first, then to column 0.
		ind := len(indentOf(text))
		if p.Col != ind {
			p.Col = ind
		} else {
			p.Col = 0
		}
	case motionEnd:
		p.Col = len(text)
	case motionDocStart:
		p = Pos{}
	case motionDocEnd:
		p = v.buf.End()
	}
	if extend {
		if !v.selected {
			v.anchor = v.cursor
		}
		v.selected = true
	} else {
		v.selected = false
	}
	v.cursor = p
	if !keepCol {
		v.wantCol = -1
	}
	v.buf.hist.seal()
	v.ensureCursorVisible()
}

// verticalMove returns the position n screen rows away from the cursor,
// at the remembered column.
func (v *CodeView) verticalMove(n int) Pos {
	text := v.buf.Line(v.cursor.Line)
	if v.wantCol < 0 {
		v.wantCol = colOf(text, v.cursor.Col, v.tabWidth)
		if v.wrap {
			row := v.cursorRow()
			base, shift := v.rowOrigin(text, row, v.rowStarts(v.cursor.Line)[row])
			v.wantCol += shift - base
		}
	}
	if !v.wrap {
		line := max(0, min(v.buf.LineCount()-1, v.cursor.Line+n))
		if line == v.cursor.Line {
			if n < 0 {
				return Pos{line, 0}
			}
			return Pos{line, len(text)}
		}
		return Pos{line, offAt(v.buf.Line(line), v.wantCol, v.tabWidth)}
	}
	line, row := v.cursor.Line, v.cursorRow()
	for ; n > 0; n-- {
		if row+1 < len(v.rowStarts(line)) {
			row++
		} else if line+1 < v.buf.LineCount() {
			line++
			row = 0
		}
	}
	for ; n < 0; n++ {
		if row > 0 {
			row--
		} else if line > 0 {
			line--
			row = len(v.rowStarts(line)) - 1
		}
	}
	lt := v.buf.Line(line)
	starts := v.rowStarts(line)
	base, shift := v.rowOrigin(lt, row, starts[row])
	off := offAt(lt, base+max(0, v.wantCol-shift), v.tabWidth)
	if row+1 < len(starts) && off >= starts[row+1] {
		off = prevCluster(lt, starts[row+1])
	}
	return Pos{line, off}
}

// editable says whether the text may change, telling the user when not.
func (v *CodeView) editable() bool {
	if v.readOnly {
		if v.notice != nil {
			v.notice("this view is read-only")
		}
		return false
	}
	return true
}

// edit runs fn as one undo step that starts at the cursor.
func (v *CodeView) edit(merge string, fn func() Pos) {
	v.buf.BeginStep(v.cursor, merge)
	p := fn()
	v.cursor = p
	v.selected = false
	v.wantCol = -1
	v.buf.EndStep(p)
	v.ensureCursorVisible()
	if v.changed != nil {
		v.changed()
	}
}

// insertText replaces the selection (or inserts at the cursor) with text.
func (v *CodeView) insertText(text, merge string) {
	if !v.editable() {
		return
	}
	from, to, has := v.Selection()
	if has {
		merge = ""
	}
	v.edit(merge, func() Pos { return v.buf.Replace(from, to, text) })
}

func (v *CodeView) newline() {
	if !v.editable() {
		return
	}
	from, to, _ := v.Selection()
	ind := indentOf(v.buf.Line(from.Line))
	if len(ind) > from.Col {
		ind = ind[:from.Col]
	}
	v.edit("", func() Pos { return v.buf.Replace(from, to, "\n"+ind) })
}

func (v *CodeView) deleteBack(word bool) {
	if !v.editable() {
		return
	}
	from, to, has := v.Selection()
	if !has {
		to = v.cursor
		text := v.buf.Line(to.Line)
		switch {
		case to.Col == 0 && to.Line == 0:
			return
		case to.Col == 0:
			from = Pos{to.Line - 1, len(v.buf.Line(to.Line - 1))}
		case word:
			from = Pos{to.Line, wordLeft(text, to.Col)}
		default:
			from = Pos{to.Line, prevCluster(text, to.Col)}
		}
	}
	merge := "delete"
	if has || word {
		merge = ""
	}
	v.edit(merge, func() Pos { v.buf.Delete(from, to); return from })
}

func (v *CodeView) deleteForward(word bool) {
	if !v.editable() {
		return
	}
	from, to, has := v.Selection()
	if !has {
		text := v.buf.Line(from.Line)
		switch {
		case from.Col == len(text) && from.Line+1 >= v.buf.LineCount():
			return
		case from.Col == len(text):
			to = Pos{from.Line + 1, 0}
		case word:
			to = Pos{from.Line, wordRight(text, from.Col)}
		default:
			to = Pos{from.Line, nextCluster(text, from.Col)}
		}
	}
	merge := "delete-forward"
	if has || word {
		merge = ""
	}
	v.edit(merge, func() Pos { v.buf.Delete(from, to); return from })
}

func (v *CodeView) deleteLine() {
	if !v.editable() {
		return
	}
	from, to, _ := v.Selection()
	first, last := from.Line, to.Line
	var a, b Pos
	switch {
	case last+1 < v.buf.LineCount():
		a, b = Pos{first, 0}, Pos{last + 1, 0}
	case first > 0:
		a, b = Pos{first - 1, len(v.buf.Line(first - 1))}, Pos{last, len(v.buf.Line(last))}
	default:
		a, b = Pos{first, 0}, Pos{last, len(v.buf.Line(last))}
	}
	v.edit("", func() Pos {
		v.buf.Delete(a, b)
		return v.buf.Clamp(Pos{a.Line, 0})
	})
}

// indentLines indents (or outdents) the selected lines; Tab without a
// multi-line selection inserts one indent at the cursor.
func (v *CodeView) indentLines(out bool) {
	if !v.editable() {
		return
	}
	from, to, has := v.Selection()
	if !out && (!has || from.Line == to.Line) {
		unit := v.indent
		if unit != "\t" {
			col := colOf(v.buf.Line(from.Line), from.Col, v.tabWidth)
			unit = strings.Repeat(" ", len(v.indent)-col%len(v.indent))
		}
		v.insertText(unit, "")
		return
	}
	last := to.Line
	if has && to.Col == 0 && to.Line > from.Line {
		last-- // a selection ending at column 0 does not take that line
	}
	anchor, cursor, sel := v.anchor, v.cursor, v.selected
	shift := func(p Pos, line int, delta int) Pos {
		if p.Line == line && p.Col > 0 {
			p.Col = max(0, p.Col+delta)
		}
		return p
	}
	v.buf.BeginStep(v.cursor, "")
	for l := from.Line; l <= last; l++ {
		text := v.buf.Line(l)
		if out {
			n := 0
			switch {
			case strings.HasPrefix(text, "\t"):
				n = 1
			default:
				for n < len(text) && n < max(1, len(v.indent)) && text[n] == ' ' {
					n++
				}
			}
			if n > 0 {
				v.buf.Delete(Pos{l, 0}, Pos{l, n})
				anchor, cursor = shift(anchor, l, -n), shift(cursor, l, -n)
			}
		} else if text != "" {
			v.buf.Insert(Pos{l, 0}, v.indent)
			anchor, cursor = shift(anchor, l, len(v.indent)), shift(cursor, l, len(v.indent))
		}
	}
	v.anchor, v.cursor, v.selected = v.buf.Clamp(anchor), v.buf.Clamp(cursor), sel
	v.buf.EndStep(v.cursor)
	if v.changed != nil {
		v.changed()
	}
}

func (v *CodeView) undo() {
	if !v.editable() {
		return
	}
	if p, ok := v.buf.Undo(); ok {
		v.cursor, v.selected, v.wantCol = v.buf.Clamp(p), false, -1
		v.ensureCursorVisible()
		if v.changed != nil {
			v.changed()
		}
	}
}

func (v *CodeView) redo() {
	if !v.editable() {
		return
	}
	if p, ok := v.buf.Redo(); ok {
		v.cursor, v.selected, v.wantCol = v.buf.Clamp(p), false, -1
		v.ensureCursorVisible()
		if v.changed != nil {
			v.changed()
		}
	}
}

// copySelection copies the selection, or the whole line without one (as
// most editors do), and with cut removes it.
func (v *CodeView) copySelection(cut bool) {
	from, to, has := v.Selection()
	delFrom, delTo := from, to
	if !has {
		l := v.cursor.Line
		from, to = Pos{l, 0}, Pos{l, len(v.buf.Line(l))}
		delFrom, delTo = from, to
		switch {
		case l+1 < v.buf.LineCount():
			delTo = Pos{l + 1, 0}
		case l > 0:
			delFrom = Pos{l - 1, len(v.buf.Line(l - 1))}
		}
	}
	text := v.buf.Text(from, to)
	if !has {
		text += "\n"
	}
	v.clip.set(text)
	if cut && v.editable() {
		v.edit("", func() Pos {
			v.buf.Delete(delFrom, delTo)
			if has {
				return delFrom
			}
			return v.buf.Clamp(Pos{min(from.Line, v.buf.LineCount()-1), 0})
		})
	}
}

// detectIndent picks what Tab inserts: a tab when the file indents with
// tabs, else the smallest space indent it uses (4 when it has none).
func detectIndent(b *Buffer) string {
	tabs, spaces, unit := 0, 0, 0
	for i := 0; i < b.LineCount() && i < 2000; i++ {
		l := b.Line(i)
		switch {
		case strings.HasPrefix(l, "\t"):
			tabs++
		case strings.HasPrefix(l, " "):
			n := len(l) - len(strings.TrimLeft(l, " "))
			if n == len(l) {
				continue
			}
			spaces++
			if n >= 2 && (unit == 0 || n < unit) {
				unit = n
			}
		}
	}
	if tabs > spaces {
		return "\t"
	}
	if unit < 2 || unit > 8 {
		unit = 4
	}
	return strings.Repeat(" ", unit)
}

// findAll returns the byte ranges of q in s (smart case: case-insensitive
// unless q has an upper-case letter).
func findAll(s, q string) [][2]int {
	var out [][2]int
	for from := 0; from <= len(s); {
		i := indexSmart(s[from:], q)
		if i < 0 {
			break
		}
		out = append(out, [2]int{from + i, from + i + len(q)})
		from += i + max(1, len(q))
	}
	return out
}

// indexSmart finds q in s, ignoring case unless q has upper case.
func indexSmart(s, q string) int {
	if q == "" {
		return -1
	}
	if strings.IndexFunc(q, unicode.IsUpper) >= 0 {
		return strings.Index(s, q)
	}
	r, _ := utf8.DecodeRuneInString(q)
	up := unicode.ToUpper(r)
	for i := 0; i+len(q) <= len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		if (c == r || c == up) && strings.EqualFold(s[i:i+len(q)], q) {
			return i
		}
		i += n
	}
	return -1
}

// lastIndexSmart finds the last q in s.
func lastIndexSmart(s, q string) int {
	last := -1
	for from := 0; from <= len(s); {
		i := indexSmart(s[from:], q)
		if i < 0 {
			break
		}
		last = from + i
		from += i + 1
	}
	return last
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
