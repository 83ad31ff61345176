package editor

import (
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
)

// cell is one grapheme cluster of a line as it lands on screen.
type cell struct {
	off, end int    // byte range in the line
	col      int    // screen column from the start of the line
	width    int    // columns it takes (a tab fills to the next stop)
	text     string // what to draw; "" for a tab
	special  bool   // drawn dimmed: a control character or an invisible one
}

// cells calls fn for each grapheme cluster of line, in order, until fn
// returns false. Tabs stop every tabWidth columns; control characters show
// as safetext shows them (their Unicode control pictures, ␍ for a stray CR,
// <U+009B> for a C1 control or a bidi override), clusters with no width as
// a middle dot, and invalid UTF-8 as U+FFFD, so nothing the file holds is
// invisible, breaks the layout or reaches the terminal raw.
func cells(line string, tabWidth int, fn func(c cell) bool) {
	col, off := 0, 0
	state := -1
	for off < len(line) {
		var c cell
		if b := line[off]; b < 0x80 && (off+1 == len(line) || line[off+1] < 0x80) && b != '\r' {
			// ASCII followed by ASCII is a cluster of one cell (only CR LF
			// joins): most code never needs the Unicode tables.
			c = cell{off: off, end: off + 1, col: col, width: 1, text: line[off : off+1]}
			state = -1
		} else {
			var cluster string
			var width int
			cluster, _, width, state = uniseg.FirstGraphemeClusterInString(line[off:], state)
			c = cell{off: off, end: off + len(cluster), col: col, width: width, text: cluster}
		}
		r, size := utf8.DecodeRuneInString(c.text)
		shown, control := safetext.Rune(r)
		switch {
		case r == '\t':
			c.width = tabWidth - col%tabWidth
			c.text = ""
		case control:
			// A control character (its picture, ␛ for ESC), a C1
			// control or a bidi override (<U+202E>), shown as safetext
			// shows them everywhere: written raw it would act on the
			// terminal or reorder the text after it. A control is a
			// cluster of its own (a CR LF aside, which a line never
			// holds whole).
			c.special = true
			c.text = shown
			c.width = uniseg.StringWidth(shown)
		case r == utf8.RuneError && size <= 1:
			c.special = true
			c.width = 1
			c.text = "\ufffd"
		case c.width == 0:
			c.special = true
			c.width = 1
			c.text = "·"
		}
		if !fn(c) {
			return
		}
		col += c.width
		off = c.end
	}
}

// colOf returns the screen column of byte offset off in line.
func colOf(line string, off, tabWidth int) int {
	col := 0
	cells(line, tabWidth, func(c cell) bool {
		if c.off >= off {
			return false
		}
		col = c.col + c.width
		return true
	})
	return col
}

// offAt returns the byte offset of the cluster at screen column col in line
// (the start of a wide character or tab that covers col), or len(line) past
// the end.
func offAt(line string, col, tabWidth int) int {
	off := len(line)
	cells(line, tabWidth, func(c cell) bool {
		if c.col+c.width > col {
			off = c.off
			return false
		}
		return true
	})
	return off
}

// widthOf is the screen width of a whole line.
func widthOf(line string, tabWidth int) int {
	w := 0
	cells(line, tabWidth, func(c cell) bool {
		w = c.col + c.width
		return true
	})
	return w
}

// nextCluster returns the offset after the cluster starting at off.
func nextCluster(line string, off int) int {
	if off >= len(line) {
		return len(line)
	}
	// ASCII followed by ASCII is a cluster of its own (only CR LF joins).
	if c := line[off]; c < 0x80 && c != '\r' && (off+1 == len(line) || line[off+1] < 0x80) {
		return off + 1
	}
	cluster, _, _, _ := uniseg.StepString(line[off:], -1)
	return off + len(cluster)
}

// prevCluster returns the offset of the cluster that ends at off.
func prevCluster(line string, off int) int {
	if off <= 0 {
		return 0
	}
	if c := line[off-1]; c < 0x80 && c != '\n' {
		return off - 1
	}
	prev := 0
	for o := 0; o < off; {
		prev = o
		o = nextCluster(line, o)
	}
	return prev
}

type runeClass int

const (
	classSpace runeClass = iota
	classWord
	classPunct
)

func classOf(r rune) runeClass {
	switch {
	case unicode.IsSpace(r):
		return classSpace
	case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
		return classWord
	default:
		return classPunct
	}
}

// wordRight returns the offset after the next word (or run of punctuation)
// right of off, skipping spaces first.
func wordRight(line string, off int) int {
	for off < len(line) {
		r, n := utf8.DecodeRuneInString(line[off:])
		if classOf(r) != classSpace {
			break
		}
		off += n
	}
	if off >= len(line) {
		return len(line)
	}
	r, _ := utf8.DecodeRuneInString(line[off:])
	cls := classOf(r)
	for off < len(line) {
		r, n := utf8.DecodeRuneInString(line[off:])
		if classOf(r) != cls {
			break
		}
		off += n
	}
	return off
}

// wordLeft returns the offset of the start of the word left of off.
func wordLeft(line string, off int) int {
	for off > 0 {
		r, n := utf8.DecodeLastRuneInString(line[:off])
		if classOf(r) != classSpace {
			break
		}
		off -= n
	}
	if off == 0 {
		return 0
	}
	r, _ := utf8.DecodeLastRuneInString(line[:off])
	cls := classOf(r)
	for off > 0 {
		r, n := utf8.DecodeLastRuneInString(line[:off])
		if classOf(r) != cls {
			break
		}
		off -= n
	}
	return off
}

// wordAt returns the bounds of the word under off, for double-click.
func wordAt(line string, off int) (int, int) {
	if off >= len(line) {
		return off, off
	}
	r, _ := utf8.DecodeRuneInString(line[off:])
	cls := classOf(r)
	start, end := off, off
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(line[:start])
		if classOf(r) != cls {
			break
		}
		start -= n
	}
	for end < len(line) {
		r, n := utf8.DecodeRuneInString(line[end:])
		if classOf(r) != cls {
			break
		}
		end += n
	}
	return start, end
}

// indentOf returns the leading spaces and tabs of line.
func indentOf(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] != ' ' && line[i] != '\t' {
			return line[:i]
		}
	}
	return line
}

// wrapRows splits line into screen rows of at most width columns and
// returns the byte offset each row starts at (the first is always 0). Rows
// after the first are indent columns narrower: they are drawn under the
// line's indentation. It breaks after a space when one is near the edge,
// else between clusters.
func wrapRows(line string, width, tabWidth, indent int) []int {
	rows := []int{0}
	if width < 2 {
		width = 2
	}
	rowStart := 0 // column where the current row starts
	room := width
	lastSpace, lastSpaceCol := -1, 0
	cells(line, tabWidth, func(c cell) bool {
		if c.col+c.width-rowStart > room && c.off > rows[len(rows)-1] {
			br, brCol := c.off, c.col
			if lastSpace > rows[len(rows)-1] {
				br, brCol = lastSpace, lastSpaceCol
			}
			rows = append(rows, br)
			rowStart = brCol
			room = max(2, width-indent)
			lastSpace = -1
		}
		if c.text == " " || c.text == "" {
			lastSpace, lastSpaceCol = c.end, c.col+c.width
		}
		return true
	})
	return rows
}

// wrapIndent is how far the continuation rows of a wrapped line are
// indented: as far as the line itself, up to half the width.
func wrapIndent(line string, width, tabWidth int) int {
	ind := indentOf(line)
	if ind == "" {
		return 0
	}
	return min(colOf(line, len(ind), tabWidth), width/2)
}
