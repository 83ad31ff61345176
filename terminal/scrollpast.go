package terminal

import (
	"bytes"
	"strconv"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/rivo/uniseg"
)

// scrollPast stands for the emulator printing region — whole lines that
// only hold text and line-local escape sequences — at the cursor, which is
// at the start of a line: the lines scroll into the scrollback as they
// would have, as plain text (their colours are not kept), at the cost of
// the lines the scrollback keeps rather than of every line feed moving
// every cell. It reports false, doing nothing, where that shortcut would
// not be faithful: in the alternate screen, or with scroll margins set.
func (s *screen) scrollPast(region []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.emu
	if e.IsAltScreen() || s.margins {
		return false
	}
	rows, cols := e.Height(), e.Width()
	if rows <= 0 || cols <= 0 {
		return false
	}
	// The rows the region's lines fill, wrapped at the width; only as
	// many as the scrollback keeps, plus a screenful, matter.
	want := s.hist.max + rows
	out := make([][]byte, 0, min(want, 1024))
	var goesOn []bool // goesOn[i]: row i's line goes on in the row after
	for end := len(region); end > 0 && len(out) < want; {
		// The line that ends at end (its newline included).
		start := bytes.LastIndexByte(region[:end-1], '\n') + 1
		line := plainLine(region[start:end], cols)
		end = start
		if len(line) <= cols && plainASCII(line) {
			out = append(out, line) // one row: the common case
			goesOn = append(goesOn, false)
			continue
		}
		wrapped := wrapCells(line, cols)
		for j := len(wrapped) - 1; j >= 0 && len(out) < want; j-- {
			out = append(out, wrapped[j])
			goesOn = append(goesOn, j < len(wrapped)-1)
		}
	}
	// out is newest first.
	// The rows above the cursor scroll off first: move to the bottom and
	// feed as many line feeds, then clear what is left, which the
	// region's lines would have overwritten.
	y := e.CursorPosition().Y
	seq := "\x1b[" + strconv.Itoa(rows) + ";1H" + string(bytes.Repeat([]byte{'\n'}, y)) + "\x1b[H\x1b[J"
	s.internalWrite(seq)
	s.drain()
	// All but the last screenful go straight into the scrollback...
	onScreen := min(rows, len(out))
	for i := len(out) - 1; i >= onScreen; i-- {
		l := histLineOf(s, out[i])
		l.wrapped = goesOn[i]
		s.hist.push(l)
		s.pushed++
	}
	// ...and the last screenful is printed, each row ending in a line
	// feed as the region's lines did (the last one scrolls the first row
	// off when the screen is full, as it would have).
	var b bytes.Buffer
	for i := onScreen - 1; i >= 0; i-- {
		b.Write(out[i])
		if i > 0 && goesOn[i] && len(cellsOf(out[i])) == cols {
			// A full row whose line goes on: the next row follows by
			// autowrap, as it did, so the row is marked wrapped.
			continue
		}
		b.WriteString("\r\n")
	}
	s.internalWrite(b.String())
	s.drain()
	return true
}

// plainLine is what a line shows once printed, as text: escape
// sequences left out (erase in line applied), tabs expanded, and text after
// a carriage return written over what came before it (a progress bar
// redrawn in place shows its last state). cols is the width, where tab
// stops end.
func plainLine(l []byte, cols int) []byte {
	l = bytes.TrimRight(l, "\r\n")
	if plainASCII(l) {
		return bytes.TrimRight(l, " ") // the common case: nothing to interpret
	}
	var b []byte
	pos := 0
	put := func(c byte) {
		switch {
		case pos < len(b) && c < 0x80 && b[pos] < 0x80:
			b[pos] = c
		case pos < len(b):
			b = append(b[:pos], c) // overwriting inside multibyte text: cut there
		default:
			for len(b) < pos {
				b = append(b, ' ')
			}
			b = append(b, c)
		}
		pos++
	}
	for i := 0; i < len(l); {
		c := l[i]
		switch {
		case c == 0x1b:
			n := lineLocalSeq(l[i:])
			if n == 0 {
				n = 1
			} else if l[i+1] == '[' && l[i+n-1] == 'K' {
				switch string(l[i+2 : i+n-1]) {
				case "", "0":
					b = b[:min(pos, len(b))]
				case "1":
					for k := 0; k < min(pos+1, len(b)); k++ {
						b[k] = ' '
					}
				case "2":
					b = b[:0]
				}
			}
			i += n
			continue
		case c == '\r':
			pos = 0
		case c == '\t':
			// To the next stop, but not past the row's last column.
			pos = min(pos+8-pos%8, pos-pos%cols+cols-1)
		case c < 0x20 || c == 0x7f:
			// Other controls (BEL, BS) are left out.
		default:
			put(c)
		}
		i++
	}
	return bytes.TrimRight(b, " ")
}

// wrapCells cuts a line into rows of at most cols cells (at least one
// row, empty for an empty line).
func wrapCells(l []byte, cols int) [][]byte {
	var out [][]byte
	start, w := 0, 0
	for i := 0; i < len(l); {
		var cw, n int
		if l[i] < 0x80 {
			cw, n = 1, 1
		} else {
			g, _, width, _ := uniseg.FirstGraphemeCluster(l[i:], -1)
			cw, n = max(width, 1), max(len(g), 1)
		}
		if w+cw > cols {
			out = append(out, l[start:i])
			start, w = i, 0
		}
		w += cw
		i += n
	}
	return append(out, l[start:])
}

// cellsOf turns a row of plain text into cells as vt holds them: a wide
// character's cell is followed by an empty one.
func cellsOf(row []byte) uv.Line {
	line := make(uv.Line, 0, len(row))
	for i := 0; i < len(row); {
		if row[i] < 0x80 {
			line = append(line, uv.Cell{Content: string(row[i]), Width: 1})
			i++
			continue
		}
		g, _, width, _ := uniseg.FirstGraphemeCluster(row[i:], -1)
		if len(g) == 0 {
			break
		}
		width = max(width, 1)
		line = append(line, uv.Cell{Content: string(g), Width: width})
		for k := 1; k < width; k++ {
			line = append(line, uv.Cell{})
		}
		i += len(g)
	}
	return line
}

// plainASCII says whether l is printable ASCII only.
func plainASCII(l []byte) bool {
	for _, c := range l {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// histLineOf is a row of plain text as a scrollback line: built directly
// for ASCII, which is one byte per cell in the default colours.
func histLineOf(s *screen, row []byte) histLine {
	if plainASCII(row) {
		return histLine{text: string(row), ncell: len(row)}
	}
	return s.hist.compact(cellsOf(row))
}
