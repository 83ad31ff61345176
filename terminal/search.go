package terminal

import "strings"

// Match is a place the scrollback search found: Line counts from the
// oldest scrollback line (the screen's rows follow the scrollback's), Col
// and Len are in cells.
type Match struct{ Line, Col, Len int }

// maxMatches bounds what one search returns.
const maxMatches = 10000

// Find looks for query in the scrollback and on the screen (only on the
// screen while a program uses the alternate one, which has no
// scrollback), oldest first. A query without capitals ignores case (ASCII
// letters). lines is how many lines were searched: the scrollback's and
// the screen's.
func (t *Terminal) Find(query string) (matches []Match, lines int) {
	return t.scr.find(query)
}

func (s *screen) find(query string) ([]Match, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sbLen := 0
	if !s.emu.IsAltScreen() {
		sbLen = s.hist.len()
	}
	rows := sbLen + s.emu.Height()
	if query == "" {
		return nil, rows
	}
	fold := query == asciiLower(query)
	var out []Match
	// A line of text that autowrap split over rows is searched as one,
	// so a match may run on into the next rows: its Len then counts the
	// cells of each row it crosses.
	var run []searchRow
	for i := 0; i < rows && len(out) < maxMatches; i++ {
		r := s.searchRowLocked(i, sbLen)
		run = append(run, r)
		if r.wrapped && i < rows-1 {
			continue
		}
		out = searchRun(out, i-len(run)+1, run, query, fold)
		run = run[:0]
	}
	return out, rows
}

// searchRow is one row's text for the search, and where its cells are.
type searchRow struct {
	text    string
	offs    []uint32 // cell i starts at text[offs[i]]; nil: one byte per cell
	ncell   int
	wrapped bool // its text goes on in the next row
}

// col is the cell whose text starts at or after byte off.
func (r *searchRow) col(off int) int {
	if r.offs == nil {
		return min(off, r.ncell)
	}
	c := 0
	for c < r.ncell && int(r.offs[c]) < off {
		c++
	}
	return c
}

// searchRowLocked is row i of the scrollback (i < sbLen) or the screen;
// s.mu is held.
func (s *screen) searchRowLocked(i, sbLen int) searchRow {
	if i < sbLen {
		l := s.hist.line(i)
		return searchRow{text: l.text, offs: l.offs, ncell: l.ncell, wrapped: l.wrapped}
	}
	y := i - sbLen
	cols := s.emu.Width()
	var sb strings.Builder
	offs := make([]uint32, 0, cols+1)
	for x := 0; x < cols; x++ {
		offs = append(offs, uint32(sb.Len()))
		c := s.cellAt(x, y)
		switch {
		case c == nil || (c.Content == "" && c.Width != 0):
			sb.WriteByte(' ')
		default:
			sb.WriteString(c.Content) // "" for the second half of a wide character
		}
	}
	offs = append(offs, uint32(sb.Len()))
	return searchRow{text: sb.String(), offs: offs, ncell: cols, wrapped: s.emu.Wrapped(y)}
}

// searchRun adds the matches of query in a run of rows that make one line
// of text (first is the run's first row) to out.
func searchRun(out []Match, first int, run []searchRow, query string, fold bool) []Match {
	text := run[0].text
	starts := []int{0} // the byte where each row's text starts
	if len(run) > 1 {
		var sb strings.Builder
		for k := range run {
			if k > 0 {
				starts = append(starts, sb.Len())
			}
			sb.WriteString(run[k].text)
		}
		text = sb.String()
	}
	if fold {
		text = asciiLower(text)
	}
	// at is the row and cell of byte off; cells counts the cells from the
	// run's start to (row k, cell c).
	at := func(off int) (k, c int) {
		for k = len(starts) - 1; k > 0 && starts[k] > off; k-- {
		}
		return k, run[k].col(off - starts[k])
	}
	cells := func(k, c int) int {
		n := c
		for j := 0; j < k; j++ {
			n += run[j].ncell
		}
		return n
	}
	for from := 0; len(out) < maxMatches; {
		i := strings.Index(text[from:], query)
		if i < 0 {
			break
		}
		start, end := from+i, from+i+len(query)
		k0, c0 := at(start)
		k1, c1 := at(end)
		if c1 == 0 && k1 > k0 && end == starts[k1] {
			k1, c1 = k1-1, run[k1-1].ncell // ends at a row's end
		}
		out = append(out, Match{Line: first + k0, Col: c0, Len: cells(k1, c1) - cells(k0, c0)})
		from = end
	}
	return out
}

// asciiLower lowers ASCII letters only, keeping every byte offset.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Spot is a cell of the terminal in lines that do not move as output
// arrives: Line counts every line that ever scrolled into the scrollback
// (Drawn.Pushed is the screen's first row), Col is the cell.
type Spot struct {
	Line int64
	Col  int
}

// Before says whether s comes before o.
func (s Spot) Before(o Spot) bool {
	return s.Line < o.Line || (s.Line == o.Line && s.Col < o.Col)
}

// Text returns the text from a to b (both included, in either order), a
// line per row, trailing blanks trimmed; lines that have left the
// scrollback since are left out.
func (t *Terminal) Text(a, b Spot) string {
	return t.scr.textBetween(a, b)
}

// WordAt returns the spots where the word (a run of characters other than
// blanks and quotes/brackets) at s begins and ends; ok is false on a blank.
func (t *Terminal) WordAt(s Spot) (from, to Spot, ok bool) {
	cells := t.scr.rowCells(s.Line)
	if s.Col < 0 || s.Col >= len(cells) || isBreak(cells[s.Col]) {
		return s, s, false
	}
	i, j := s.Col, s.Col
	for i > 0 && !isBreak(cells[i-1]) {
		i--
	}
	for j+1 < len(cells) && !isBreak(cells[j+1]) {
		j++
	}
	return Spot{s.Line, i}, Spot{s.Line, j}, true
}

// NextWord returns where the next word starts after s (forward), or where
// the word before s starts (backward), across lines: forward up to the
// line last, backward to the oldest line kept. ok is false when there is
// none. Words are as WordAt has them.
func (t *Terminal) NextWord(s Spot, forward bool, last int64) (Spot, bool) {
	t.scr.mu.Lock()
	defer t.scr.mu.Unlock()
	start := func(cells []string, i int) bool {
		return i >= 0 && i < len(cells) && cells[i] != "" && !isBreak(cells[i]) && (i == 0 || isBreak(cells[i-1]))
	}
	const maxLines = 100_000 // the scrollback's bound, and then some
	line, col := s.Line, s.Col
	for n := 0; n < maxLines; n++ {
		cells := t.scr.rowCellsLocked(line)
		if cells == nil {
			return s, false
		}
		if forward {
			for col++; col < len(cells); col++ {
				if start(cells, col) {
					return Spot{line, col}, true
				}
			}
			if line++; line > last {
				return s, false
			}
			col = -1
			continue
		}
		for col = min(col-1, len(cells)-1); col >= 0; col-- {
			if start(cells, col) {
				return Spot{line, col}, true
			}
		}
		line--
		col = 1 << 30
	}
	return s, false
}

func isBreak(c string) bool {
	return c == " " || (len(c) == 1 && strings.ContainsAny(c, "\t\"'`()[]{}<>|;,"))
}

// rowCells returns the contents of line's cells ("" for the second half
// of a wide character and for blanks past the end), nil when it is gone.
func (s *screen) rowCells(line int64) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rowCellsLocked(line)
}

func (s *screen) rowCellsLocked(line int64) []string {
	sbLen := 0
	if !s.emu.IsAltScreen() {
		sbLen = s.hist.len()
	}
	top := int64(s.pushed) - int64(sbLen) // the line of hist's first
	switch {
	case line < top:
		return nil
	case line < int64(s.pushed):
		l := s.hist.line(int(line - top))
		if l == nil {
			return nil
		}
		out := make([]string, l.cells())
		for i := range out {
			out[i], _ = l.cell(i)
		}
		return out
	}
	row := int(line - int64(s.pushed))
	if row >= s.emu.Height() {
		return nil
	}
	out := make([]string, s.emu.Width())
	for x := range out {
		out[x] = " "
		if c := s.cellAt(x, row); c != nil && (c.Content != "" || c.Width == 0) {
			out[x] = c.Content
		}
	}
	return out
}

func (s *screen) textBetween(a, b Spot) string {
	if b.Before(a) {
		a, b = b, a
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out strings.Builder
	sep := ""
	for line := a.Line; line <= b.Line; line++ {
		cells := s.rowCellsLocked(line)
		if cells == nil {
			continue
		}
		from, to := 0, len(cells)-1
		if line == a.Line {
			from = a.Col
		}
		if line == b.Line {
			to = min(b.Col, len(cells)-1)
		}
		var sb strings.Builder
		for i := max(from, 0); i <= to; i++ {
			sb.WriteString(cells[i]) // "" is a wide character's second half
		}
		text := sb.String()
		// A row autowrap filled goes on in the next one: one line of
		// text, copied without a line break there.
		joined := line < b.Line && s.wrappedLocked(line)
		if !joined {
			text = strings.TrimRight(text, " ")
		}
		out.WriteString(sep)
		out.WriteString(text)
		sep = "\n"
		if joined {
			sep = ""
		}
	}
	return out.String()
}

// wrappedLocked says whether the row at line was filled by autowrap, its
// text going on in the next row; s.mu is held.
func (s *screen) wrappedLocked(line int64) bool {
	sbLen := 0
	if !s.emu.IsAltScreen() {
		sbLen = s.hist.len()
	}
	top := int64(s.pushed) - int64(sbLen)
	switch {
	case line < top:
		return false
	case line < int64(s.pushed):
		l := s.hist.line(int(line - top))
		return l != nil && l.wrapped
	}
	return s.emu.Wrapped(int(line - int64(s.pushed)))
}

// LinkAt returns the hyperlink (OSC 8) of the cell at s, or "". Only the
// screen keeps links: the scrollback holds text.
func (t *Terminal) LinkAt(s Spot) string {
	t.scr.mu.Lock()
	defer t.scr.mu.Unlock()
	row := s.Line - int64(t.scr.pushed)
	if row < 0 || row >= int64(t.scr.emu.Height()) {
		return ""
	}
	if c := t.scr.cellAt(s.Col, int(row)); c != nil {
		return c.Link.URL
	}
	return ""
}

// LastLink returns the hyperlink nearest the bottom of the screen, or "".
func (t *Terminal) LastLink() string {
	t.scr.mu.Lock()
	defer t.scr.mu.Unlock()
	e := t.scr.emu
	for y := e.Height() - 1; y >= 0; y-- {
		for x := e.Width() - 1; x >= 0; x-- {
			if c := t.scr.cellAt(x, y); c != nil && c.Link.URL != "" {
				return c.Link.URL
			}
		}
	}
	return ""
}
