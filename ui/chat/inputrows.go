package chat

import (
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/render"
)

// rowsUpTo is how many rows the input's text takes at width, counted up
// to limit (1…limit).
func (in *Input) rowsUpTo(width, limit int) int {
	text := in.GetText()
	if text == "" || width <= 0 {
		return 1
	}
	// Count rows line by line and stop at the limit: a pasted megabyte
	// must not be wrapped on every frame just to learn it needs 8 rows.
	n := 0
	for text != "" && n < limit {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if w := render.TextWidth(line); w > width {
			n += len(render.WrapText(line[:min(len(line), width*limit*4)], tcell.StyleDefault, width, nil, nil))
		} else {
			n++
		}
		if rest == "" && strings.HasSuffix(in.GetText(), "\n") {
			n++ // the cursor sits on a new empty row
		}
	}
	return min(max(n, 1), limit)
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
