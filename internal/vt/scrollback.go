package vt

import (
	"slices"

	uv "github.com/charmbracelet/ultraviolet"
)

// DefaultScrollbackSize is the default maximum number of lines in the scrollback buffer.
const DefaultScrollbackSize = 10000

// Scrollback represents a scrollback buffer that stores lines scrolled off the screen.
//
// fawn: once full it is a ring (see FAWN.md, fix 29): lines[head] is the
// oldest line, and a new line takes the place, and the cells, of the one
// it drops, instead of every line moving down a place for it. A line it
// returned is valid until it drops that line (a push past MaxLines, or
// Clear).
type Scrollback struct {
	lines    []uv.Line
	wrapped  []bool // wrapped[i]: line i went on to line i+1 (autowrap)
	head     int    // the oldest line's index in lines (and wrapped)
	maxLines int
}

// NewScrollback creates a new scrollback buffer with the given maximum number of lines.
func NewScrollback(maxLines int) *Scrollback {
	if maxLines <= 0 {
		maxLines = DefaultScrollbackSize
	}
	return &Scrollback{
		lines:    make([]uv.Line, 0, min(maxLines, 1000)), // Pre-allocate reasonable capacity
		maxLines: maxLines,
	}
}

// Push adds a line to the scrollback buffer.
// If the buffer is full, the oldest line is removed.
func (s *Scrollback) Push(line uv.Line) {
	s.push(line, false)
}

// push adds a line, saying whether its text goes on to the next line.
func (s *Scrollback) push(line uv.Line, wrapped bool) {
	if s == nil || s.maxLines <= 0 {
		return
	}

	// Find last non-empty cell to trim trailing empty cells.
	// This helps with wrapping and window resizing.
	lastNonEmpty := -1
	for i := len(line) - 1; i >= 0; i-- {
		c := &line[i]
		if !c.IsZero() && !c.Equal(&uv.EmptyCell) {
			lastNonEmpty = i
			break
		}
	}

	if len(s.lines) >= s.maxLines {
		// The oldest line gives its place and its cells to the new one.
		s.lines[s.head] = reuse(s.lines[s.head], line[:lastNonEmpty+1])
		s.wrapped[s.head] = wrapped
		s.head = (s.head + 1) % len(s.lines)
		return
	}
	// Clone the line content up to and including the last non-empty cell,
	// into the cells of a line Clear dropped if there is one.
	n := len(s.lines)
	if n < cap(s.lines) {
		s.lines = s.lines[:n+1]
		s.lines[n] = reuse(s.lines[n], line[:lastNonEmpty+1])
	} else {
		s.lines = append(s.lines, slices.Clone(line[:lastNonEmpty+1]))
	}
	s.wrapped = append(s.wrapped, wrapped)
}

// reuse copies line into old's cells, or new ones when they are too few.
func reuse(old, line uv.Line) uv.Line {
	if cap(old) < len(line) || old == nil {
		return slices.Clone(line)
	}
	return append(old[:0], line...)
}

// index is where line i (0 the oldest) is in lines.
func (s *Scrollback) index(i int) int {
	if s.head == 0 {
		return i
	}
	return (s.head + i) % len(s.lines)
}

// unring puts the lines in order again, the oldest first.
func (s *Scrollback) unring() {
	if s.head == 0 {
		return
	}
	rotate(s.lines, s.head)
	rotate(s.wrapped, s.head)
	s.head = 0
}

// rotate moves x[k:] to the front and x[:k] to the end, in place.
func rotate[T any](x []T, k int) {
	slices.Reverse(x[:k])
	slices.Reverse(x[k:])
	slices.Reverse(x)
}

// Wrapped reports whether line index (0 the oldest) was filled and its
// text went on to the next line (autowrap).
func (s *Scrollback) Wrapped(index int) bool {
	return s != nil && index >= 0 && index < len(s.wrapped) && s.wrapped[s.index(index)]
}

// PushN adds n lines from the buffer starting at line y to the scrollback.
func (s *Scrollback) PushN(buf *uv.RenderBuffer, y, n int) {
	if s == nil || buf == nil || n <= 0 {
		return
	}

	for i := range min(n, buf.Height()-y) {
		if line := buf.Line(y + i); line != nil {
			s.Push(line)
		}
	}
}

// Len returns the number of lines in the scrollback buffer.
func (s *Scrollback) Len() int {
	if s == nil {
		return 0
	}
	return len(s.lines)
}

// MaxLines returns the maximum number of lines the scrollback buffer can hold.
func (s *Scrollback) MaxLines() int {
	if s == nil {
		return 0
	}
	return s.maxLines
}

// SetMaxLines sets the maximum number of lines in the scrollback buffer.
// If the current number of lines exceeds the new maximum, oldest lines are removed.
func (s *Scrollback) SetMaxLines(maxLines int) {
	if s == nil || maxLines <= 0 {
		return
	}

	s.unring()
	s.maxLines = maxLines
	if len(s.lines) > maxLines {
		// Remove oldest lines
		s.lines = s.lines[len(s.lines)-maxLines:]
		s.wrapped = s.wrapped[len(s.wrapped)-maxLines:]
	}
}

// Line returns the line at the given index.
// Index 0 is the oldest line, Len()-1 is the most recent.
// Returns nil if index is out of bounds.
func (s *Scrollback) Line(index int) uv.Line {
	if s == nil || index < 0 || index >= len(s.lines) {
		return nil
	}
	return s.lines[s.index(index)]
}

// Lines returns all lines in the scrollback buffer.
// Index 0 is the oldest line.
func (s *Scrollback) Lines() []uv.Line {
	if s == nil {
		return nil
	}
	s.unring()
	return s.lines
}

// Clear removes all lines from the scrollback buffer. It keeps their
// cells for the lines pushed next (fawn: see FAWN.md, fix 29), so a host
// that moves the lines elsewhere and clears it, as fawn's terminal does
// after every write, costs no allocation per line.
func (s *Scrollback) Clear() {
	if s == nil {
		return
	}
	s.lines = s.lines[:0]
	s.wrapped = s.wrapped[:0]
	s.head = 0
}

// CellAt returns the cell at the given position in the scrollback buffer.
// x is the column, y is the line index (0 = oldest).
// Returns nil if position is out of bounds.
func (s *Scrollback) CellAt(x, y int) *uv.Cell {
	line := s.Line(y)
	if line == nil || x < 0 || x >= len(line) {
		return nil
	}
	return &line[x]
}
