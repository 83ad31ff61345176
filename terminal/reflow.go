package terminal

import (
	"strconv"
	"strings"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// Reflow: when the pane's width changes, lines of text that autowrap
// split over several rows (vt marks such rows, and hist keeps the mark)
// are rejoined and wrapped again at the new width, on the normal screen
// and in the scrollback, as modern terminals do; lines that ended with a
// newline stay as they are (cut at the edge when the pane gets narrower is
// what they are not: they wrap too, being one line of text). The screen
// and the scrollback are reflowed each on its own: a line split across
// the two stays split there. The alternate screen is the program's to
// redraw (it gets SIGWINCH) and is not reflowed.

// reflow resizes the normal screen to cols×rows, re-wrapping its lines and
// the scrollback's; s.mu is held.
func (s *screen) reflow(cols, rows int) {
	e := s.emu
	oldCols, oldRows := e.Width(), e.Height()
	cur := e.CursorPosition()

	// The screen's rows down to the cursor or the last one with text.
	last := cur.Y
	grid := make([]uv.Line, oldRows)
	for y := 0; y < oldRows; y++ {
		line := make(uv.Line, oldCols)
		for x := 0; x < oldCols; x++ {
			if c := e.CellAt(x, y); c != nil {
				line[x] = *c
			} else {
				line[x] = uv.EmptyCell
			}
		}
		grid[y] = line
		if !blankLine(line) {
			last = max(last, y)
		}
	}

	// The lines of text, and where the cursor is in its line.
	var lines []uv.Line
	curLine, curOff, curStart := 0, 0, 0 // curStart: the row the cursor's line starts on
	var text uv.Line
	start := 0
	for y := 0; y <= last; y++ {
		row := grid[y]
		wrapped := e.Wrapped(y) && y < last
		if text == nil {
			start = y
		}
		if y == cur.Y {
			curLine, curOff, curStart = len(lines), len(text)+cur.X, start
		}
		if wrapped {
			text = append(text, trimGap(row)...)
			continue
		}
		text = append(text, trimBlank(row)...)
		lines = append(lines, text)
		text = nil
	}

	// At bash's prompt, readline redraws its line on SIGWINCH: from the
	// row it believes the line starts on, which it finds by going up as
	// many rows as the cursor was below the line's start before. Cut at
	// the new width, the old text would be left beside or under that
	// redraw (a doubled prompt): the line is blanked instead, and the
	// cursor put where readline's arithmetic finds the line's start.
	base := int64(s.pushed) + int64(e.Scrollback().Len())
	readline := s.atPrompt && s.promptLine >= base+int64(curStart) && s.promptLine <= base+int64(cur.Y)
	if readline && curStart == cur.Y && len(lines[curLine]) < cols && curOff < cols {
		// A line on one row that still fits: readline's redraw goes back
		// to its row's start and writes it over itself, so it stays on the
		// screen meanwhile (the first prompt is not blank until then).
		readline = false
	}
	if readline {
		lines[curLine] = nil
		curOff = 0
	}

	// Wrapped again at the new width.
	type newRow struct {
		cells   uv.Line
		wrapped bool
	}
	var out []newRow
	curRow, curCol := 0, 0
	for i, l := range lines {
		pieces, starts := wrapLine(l, cols)
		for j, p := range pieces {
			if i == curLine && (j == len(pieces)-1 || starts[j+1] > curOff) && curOff >= starts[j] {
				curRow, curCol = len(out), min(curOff-starts[j], cols-1)
				curOff = -1 // found
			}
			out = append(out, newRow{cells: p, wrapped: j < len(pieces)-1})
		}
	}

	if readline {
		// The cursor as far below the line's start as it was.
		curRow += cur.Y - curStart
		curCol = 0
		for len(out) <= curRow {
			out = append(out, newRow{})
		}
	}

	// The cursor's row stays on the screen; what is above the screen's
	// top goes into the scrollback.
	top := max(len(out)-rows, 0)
	top = min(top, curRow)
	top = max(top, curRow-rows+1, 0)

	s.reflowHistSoon(cols)
	for _, r := range out[:top] {
		l := s.hist.compact(r.cells)
		l.wrapped = r.wrapped
		s.hist.push(l)
		s.pushed++
	}

	e.Resize(cols, rows)
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			e.SetCell(x, y, &uv.EmptyCell)
		}
		e.SetWrapped(y, false)
	}
	for y := 0; y < rows && top+y < len(out); y++ {
		r := out[top+y]
		for x := 0; x < len(r.cells) && x < cols; x++ {
			c := r.cells[x]
			if c.Width == 0 && c.Content == "" {
				continue // the second half of a wide character: SetCell of the first covers it
			}
			e.SetCell(x, y, &c)
		}
		e.SetWrapped(y, r.wrapped)
	}
	s.internalWrite("\x1b[" + strconv.Itoa(curRow-top+1) + ";" + strconv.Itoa(curCol+1) + "H")
	if readline {
		// Where the prompt is redrawn.
		s.promptLine = int64(s.pushed) + int64(curRow-(cur.Y-curStart)-top)
	}
}

// blankLine says whether a row holds nothing but blanks in the default
// colours.
func blankLine(l uv.Line) bool {
	return len(trimBlank(l)) == 0
}

// trimBlank drops the row's trailing blanks (cells in the default colours
// with nothing or a space in them).
func trimBlank(l uv.Line) uv.Line {
	n := len(l)
	for n > 0 && isBlankCell(&l[n-1]) {
		n--
	}
	return l[:n]
}

// trimGap drops what a wrapped row has after its text: the cell a wide
// character that did not fit left empty.
func trimGap(l uv.Line) uv.Line {
	n := len(l)
	for n > 0 && l[n-1].Content == "" && l[n-1].Width == 0 && (n < 2 || l[n-2].Width < 2) {
		n--
	}
	return l[:n]
}

func isBlankCell(c *uv.Cell) bool {
	return (c.Content == "" || c.Content == " ") && c.Width <= 1 && c.Style.IsZero() && c.Link.IsZero()
}

// wrapLine cuts a line of cells into rows of at most cols cells, never
// between a wide character and its second half; starts[i] is the cell
// row i starts at. An empty line is one empty row.
func wrapLine(l uv.Line, cols int) (rows []uv.Line, starts []int) {
	cols = max(cols, 1)
	start := 0
	for start < len(l) {
		end := min(start+cols, len(l))
		if end < len(l) && end > start+1 && l[end].Width == 0 && l[end].Content == "" && l[end-1].Width > 1 {
			end-- // a wide character across the edge goes to the next row
		}
		rows = append(rows, l[start:end])
		starts = append(starts, start)
		start = end
	}
	if len(rows) == 0 {
		rows, starts = []uv.Line{nil}, []int{0}
	}
	return rows, starts
}

// reflow re-wraps the scrollback at cols: runs of lines marked wrapped
// are joined and cut again.
func (h *history) reflow(cols int) {
	n := h.len()
	if n == 0 {
		return
	}
	var out []histLine
	var run []*histLine
	flush := func(keepOpen bool) {
		if len(run) == 0 {
			return
		}
		pieces := h.rewrap(run, cols)
		for i := range pieces {
			pieces[i].wrapped = i < len(pieces)-1 || keepOpen
		}
		out = append(out, pieces...)
		run = run[:0]
	}
	for i := 0; i < n; i++ {
		l := h.line(i)
		run = append(run, l)
		if !l.wrapped {
			flush(false)
		}
	}
	flush(true) // the last line goes on on the screen
	if len(out) > h.max {
		out = out[len(out)-h.max:]
	}
	h.lines, h.head = out, 0
}

// rewrap joins a run of wrapped lines into one and cuts it at cols.
func (h *history) rewrap(run []*histLine, cols int) []histLine {
	if len(run) == 1 && run[0].cells() <= cols {
		return []histLine{*run[0]}
	}
	type cell struct {
		content string
		width   int
		style   uint16
	}
	var cells []cell
	for _, l := range run {
		r := 0
		for i := 0; i < l.cells(); i++ {
			for r+1 < len(l.runs) && int(l.runs[r+1].col) <= i {
				r++
			}
			var st uint16
			if len(l.runs) > 0 {
				st = l.runs[r].style
			}
			content, width := l.cell(i)
			cells = append(cells, cell{content, width, st})
		}
	}
	var out []histLine
	for start := 0; start < len(cells) || len(out) == 0; {
		end := min(start+max(cols, 1), len(cells))
		if end < len(cells) && end > start+1 && cells[end].content == "" && cells[end].width == 0 && cells[end-1].width > 1 {
			end--
		}
		piece := cells[start:end]
		var l histLine
		l.ncell = len(piece)
		var sb strings.Builder
		ascii := true
		for _, c := range piece {
			if c.width != 1 || len(c.content) != 1 || c.content[0] >= 0x80 {
				ascii = false
			}
		}
		if !ascii {
			l.offs = make([]uint32, len(piece)+1)
			l.wide = make([]uint8, len(piece))
		}
		for i, c := range piece {
			if !ascii {
				l.offs[i] = uint32(sb.Len())
				l.wide[i] = uint8(min(c.width, 255))
			}
			sb.WriteString(c.content)
			if i == 0 || c.style != piece[i-1].style {
				l.runs = append(l.runs, styleRun{col: uint16(i), style: c.style})
			}
		}
		if !ascii {
			l.offs[len(piece)] = uint32(sb.Len())
		}
		l.text = sb.String()
		if len(l.runs) == 1 && l.runs[0].style == 0 {
			l.runs = nil
		}
		out = append(out, l)
		if end == start {
			break
		}
		start = end
	}
	return out
}

// histReflowDelay is how long the width must stay put before a long
// scrollback is re-wrapped: dragging a window edge changes it at every
// frame, and re-wrapping 10,000 long lines takes tens of milliseconds.
const histReflowDelay = 150 * time.Millisecond

// histReflowNow is the scrollback size re-wrapped at once, below which a
// reflow costs less than a frame.
const histReflowNow = 2000

// reflowHistSoon re-wraps the scrollback at the screen's width: at once
// when it is short, otherwise once the width stays put (until then it
// shows its lines at the width they were wrapped at). s.mu is held.
func (s *screen) reflowHistSoon(cols int) {
	if s.hist.len() <= histReflowNow {
		s.reflowHist(cols)
		return
	}
	if s.histTimer == nil {
		s.histTimer = time.AfterFunc(histReflowDelay, func() {
			s.mu.Lock()
			s.reflowHist(s.emu.Width())
			s.mu.Unlock()
			if s.damaged != nil {
				s.damaged()
			}
		})
		return
	}
	s.histTimer.Reset(histReflowDelay)
}

// reflowHist re-wraps the scrollback at cols. s.mu is held.
func (s *screen) reflowHist(cols int) {
	// The scrollback's lines are numbered from the screen's top (pushed):
	// the count moves by what the reflow added or took away.
	before := s.hist.len()
	s.hist.reflow(cols)
	s.pushed = uint64(max(int64(s.pushed)+int64(s.hist.len()-before), 0))
}
