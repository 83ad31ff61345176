package vt

import uv "github.com/charmbracelet/ultraviolet"

// fawn: a region as wide as the screen scrolls by moving its rows, not
// their cells (see FAWN.md, fix 29). uv's DeleteLineArea and
// InsertLineArea copy every cell of the region, row by row, for each
// line feed at its bottom: ~120×40 cells to scroll one row, most of what
// streaming output cost. deleteRows and insertRows leave the buffer as
// those do (cells and touched rows); TestScrollingStates holds them equal.

// wholeRows reports whether area spans every column of the screen, so
// that its rows can move whole.
func (s *Screen) wholeRows(area uv.Rectangle) bool {
	return area.Min.X == 0 && area.Max.X == s.buf.Width() && area.Max.Y <= s.buf.Height()
}

// deleteRows is s.buf.DeleteLineArea(y, n, c, area) for an area as wide
// as the screen: the rows below y move up n, the last n become blank.
func (s *Screen) deleteRows(y, n int, c *uv.Cell, area uv.Rectangle) {
	if n > 0 && y >= area.Min.Y && y < area.Max.Y && y < s.buf.Height() {
		rows := s.buf.Lines[y:area.Max.Y]
		k := min(n, len(rows))
		rotate(rows, k)
		for _, row := range rows[len(rows)-k:] {
			blankRow(row, c)
		}
	}
	// uv marks the rows so, n not cut to the region.
	for i := area.Min.Y; i < area.Max.Y; i++ {
		s.buf.TouchLine(area.Min.X, i, area.Max.X-area.Min.X)
		s.buf.TouchLine(area.Min.X, i+n, area.Max.X-area.Min.X)
	}
}

// insertRows is s.buf.InsertLineArea(y, n, c, area) for an area as wide
// as the screen: the rows from y move down n, the n from y become blank.
func (s *Screen) insertRows(y, n int, c *uv.Cell, area uv.Rectangle) {
	if n > 0 && y >= area.Min.Y && y < area.Max.Y && y < s.buf.Height() {
		rows := s.buf.Lines[y:area.Max.Y]
		k := min(n, len(rows))
		rotate(rows, len(rows)-k)
		for _, row := range rows[:k] {
			blankRow(row, c)
		}
	}
	for i := area.Min.Y; i < area.Max.Y; i++ {
		s.buf.TouchLine(area.Min.X, i, area.Max.X-area.Min.X)
		s.buf.TouchLine(area.Min.X, i-n, area.Max.X-area.Min.X)
	}
}

// blankRow fills row with c, or with blanks when c is nil, as uv's
// Line.Set does cell by cell across a whole row (a cell of width one
// leaves nothing of a wide character it covers).
func blankRow(row uv.Line, c *uv.Cell) {
	fill := uv.EmptyCell
	if c != nil {
		fill = *c
	}
	for x := range row {
		row[x] = fill
	}
}
