package explorer

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
)

// Draw draws the visible rows and the foot line.
func (e *Explorer) Draw(screen tcell.Screen) {
	x, y, w, h := e.GetInnerRect()
	if w <= 2 || h <= 0 {
		return
	}
	base := tcell.StyleDefault.Foreground(e.th.Foreground).Background(e.th.Background)
	dim := base.Foreground(e.th.Dim)
	foot := e.footLines(w - 1)
	e.height = h - len(foot)
	if e.sel < e.offset {
		e.offset = e.sel
	}
	if e.sel >= e.offset+e.height {
		e.offset = e.sel - e.height + 1
	}
	if len(e.rows) == 0 && e.tree.loaded {
		put(screen, x+1, y, w-1, "(empty, or all ignored)", dim)
	}
	for i := 0; i < e.height && e.offset+i < len(e.rows); i++ {
		n := e.rows[e.offset+i]
		row := y + i
		st := base
		if e.offset+i == e.sel {
			st = st.Background(e.th.CursorLine)
			if e.HasFocus() {
				st = st.Background(e.th.Selection)
			}
			for c := x; c < x+w; c++ {
				screen.Put(c, row, " ", st)
			}
		}
		col := x + 1 + 2*(n.depth-1)
		switch {
		case n.dir && n.expanded:
			col += put(screen, col, row, x+w-col, "▾ ", st.Foreground(e.th.Accent))
		case n.dir:
			col += put(screen, col, row, x+w-col, "▸ ", st.Foreground(e.th.Accent))
		default:
			col += put(screen, col, row, x+w-col, "  ", st)
		}
		name := printable(n.name)
		nst := st
		if n.dir {
			name += "/"
			nst = nst.Foreground(e.th.Accent)
		}
		if n.link {
			name += " →"
		}
		mark := ""
		if e.changed[n.rel] {
			mark = " ✦"
			if n.dir {
				mark = " •"
			}
		}
		room := x + w - col - uniseg.StringWidth(mark)
		if uniseg.StringWidth(name) > room {
			name = cut(name, room)
		}
		col += put(screen, col, row, room, name, nst)
		if mark != "" {
			put(screen, col, row, x+w-col, mark, st.Foreground(e.th.Warning))
		}
	}
	for i, l := range foot {
		st := dim
		if i == 0 && e.prompt != promptNone {
			st = base.Foreground(e.th.Warning)
		} else if e.flashErr {
			st = base.Foreground(e.th.Error)
		}
		put(screen, x+1, y+h-len(foot)+i, w-1, l, st)
	}
	if e.prompt == promptNew || e.prompt == promptRename {
		if e.HasFocus() && len(foot) > 0 {
			last := foot[len(foot)-1]
			screen.ShowCursor(x+1+min(w-2, uniseg.StringWidth(last)), y+h-1)
		}
	}
}

// footLines is the prompt or the last message, wrapped to width.
func (e *Explorer) footLines(width int) []string {
	var text string
	switch e.prompt {
	case promptNew:
		text = "new in " + e.display(e.target) + " (end with / for a directory): " + string(e.input)
	case promptRename:
		text = "rename " + e.display(e.target) + " to: " + string(e.input)
	case promptDelete:
		what := e.display(e.target)
		if e.target.dir {
			what += " and everything in it"
		}
		text = "delete " + what + "? " + e.yesNo()
	case promptOverwrite:
		text = e.pendingDst + " exists: replace it? " + e.yesNo()
	default:
		text = e.flash
	}
	text = safetext.Line(text) // a path or an error may hold a control character
	if text == "" || width < 4 {
		return nil
	}
	var out []string
	for text != "" {
		n := len(cut(text, width))
		if n == 0 {
			break
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

// printable shows a name from the disk safely: a file name may hold an
// escape sequence, shown as safetext shows it (␛), never raw.
func printable(s string) string { return safetext.Line(s) }

// cut keeps the first w cells of s.
func cut(s string, w int) string {
	used, off := 0, 0
	state := -1
	for off < len(s) {
		g, _, gw, st := uniseg.FirstGraphemeClusterInString(s[off:], state)
		if used+gw > w {
			break
		}
		used, off, state = used+gw, off+len(g), st
	}
	return s[:off]
}

// put draws s from x in at most w cells and returns the cells used.
func put(screen tcell.Screen, x, y, w int, s string, st tcell.Style) int {
	used := 0
	state := -1
	for s != "" {
		var g string
		var gw int
		g, s, gw, state = uniseg.FirstGraphemeClusterInString(s, state)
		if used+gw > w {
			break
		}
		screen.Put(x+used, y, g, st)
		used += gw
	}
	return used
}

// yesNo is the keys that answer a question, as bound ("y/n").
func (e *Explorer) yesNo() string {
	return e.ask.Answer.Hint(ActionAnswerYes) + "/" + e.ask.Answer.Hint(ActionAnswerNo)
}
