package chat

import (
	"strings"

	"github.com/rivo/uniseg"
)

// rowsUpTo is how many rows the input's text takes at width, counted up
// to limit (1…limit), wrapped as tview's text area wraps it.
func (in *Input) rowsUpTo(width, limit int) int {
	text := in.GetText()
	if text == "" || width <= 0 {
		return 1
	}
	_, _, cursor := in.GetSelection()
	// Count rows line by line and stop at the limit: a pasted megabyte
	// must not be wrapped on every frame just to learn it needs 8 rows.
	n := 0
	for rest := text; n < limit; {
		line, after, more := strings.Cut(rest, "\n")
		rows, full := wrapRows(line[:min(len(line), width*limit*4)], width)
		n += rows
		if !more {
			if full && cursor >= len(text) {
				n++ // the cursor after a full last row sits on the next
			}
			break
		}
		rest = after
		if rest == "" {
			n++ // the cursor sits on a new empty row
			break
		}
	}
	return min(max(n, 1), limit)
}

// wrapRows is how many rows tview's text area (word wrap on) gives one
// line at width, and whether its last row is full: a row breaks after
// the last place the line may break (a space, a hyphen) before a
// character that would not fit, or before that character when the row
// has no such place.
func wrapRows(line string, width int) (rows int, full bool) {
	rows = 1
	lineWidth, sinceBreak := 0, 0
	canBreak, started := false, false
	state := -1
	for line != "" {
		var boundaries int
		_, line, boundaries, state = uniseg.StepString(line, state)
		w := boundaries >> uniseg.ShiftWidth
		lineWidth += w
		sinceBreak += w
		if lineWidth > width {
			switch {
			case canBreak:
				rows++
				lineWidth = sinceBreak
			case started:
				rows++
				lineWidth = w
			}
			canBreak = false
		}
		if boundaries&uniseg.MaskLine == uniseg.LineCanBreak {
			canBreak, sinceBreak = true, 0
		}
		started = true
	}
	return rows, lineWidth >= width
}

// keepTop undoes a scroll the text no longer needs. The text area scrolls
// to keep the cursor in sight at the height it had when the key came, a
// row short of the height the input grows to for the new line; drawn at
// that height it would hide its first line behind an empty last row.
// Here the rows scrolled past are only as many as the text has beyond
// height, so a text that fits shows from its first line; the cursor's
// row, inside the text, stays in sight.
func (in *Input) keepTop(width, height int) {
	row, col := in.GetOffset()
	if row == 0 {
		return
	}
	if over := in.rowsUpTo(width, row+height) - height; row > over {
		in.SetOffset(max(over, 0), col)
	}
}
