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
	fold := query == asciiLower(query)
	q := query
	var out []Match
	look := func(line int, text string, col func(byteOff int) int) {
		if q == "" {
			return
		}
		if fold {
			text = asciiLower(text)
		}
		for from := 0; len(out) < maxMatches; {
			i := strings.Index(text[from:], q)
			if i < 0 {
				return
			}
			start := from + i
			c := col(start)
			out = append(out, Match{Line: line, Col: c, Len: col(start+len(q)) - c})
			from = start + len(q)
		}
	}
	sbLen := 0
	if !s.emu.IsAltScreen() {
		sbLen = s.hist.len()
	}
	for i := 0; i < sbLen; i++ {
		l := s.hist.line(i)
		look(i, l.text, func(off int) int {
			if l.offs == nil {
				return off
			}
			// The cell whose text starts at or after off.
			c := 0
			for c < l.ncell && int(l.offs[c]) < off {
				c++
			}
			return c
		})
	}
	rows, cols := s.emu.Height(), s.emu.Width()
	var sb strings.Builder
	offs := make([]int, 0, cols+1)
	for y := 0; y < rows; y++ {
		sb.Reset()
		offs = offs[:0]
		for x := 0; x < cols; x++ {
			offs = append(offs, sb.Len())
			c := s.cellAt(x, y)
			switch {
			case c == nil || (c.Content == "" && c.Width != 0):
				sb.WriteByte(' ')
			default:
				sb.WriteString(c.Content) // "" for the second half of a wide character
			}
		}
		offs = append(offs, sb.Len())
		look(sbLen+y, sb.String(), func(off int) int {
			c := 0
			for c < cols && offs[c] < off {
				c++
			}
			return c
		})
	}
	return out, sbLen + rows
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
