package editor

import (
	"strings"
)

// editable says whether the text may change, telling the user when not.
func (v *CodeView) editable() bool {
	if v.readOnly {
		if v.notice != nil {
			v.notice("this view is read-only")
		}
		return false
	}
	return true
}

// edit runs fn as one undo step that starts at the cursor.
func (v *CodeView) edit(merge string, fn func() Pos) {
	v.buf.BeginStep(v.cursor, merge)
	p := fn()
	v.cursor = p
	v.selected = false
	v.wantCol = -1
	v.buf.EndStep(p)
	v.ensureCursorVisible()
	if v.changed != nil {
		v.changed()
	}
}

// insertText replaces the selection (or inserts at the cursor) with text.
func (v *CodeView) insertText(text, merge string) {
	if !v.editable() {
		return
	}
	from, to, has := v.Selection()
	if has {
		merge = ""
	}
	v.edit(merge, func() Pos { return v.buf.Replace(from, to, text) })
}

func (v *CodeView) newline() {
	if !v.editable() {
		return
	}
	from, to, _ := v.Selection()
	ind := indentOf(v.buf.Line(from.Line))
	if len(ind) > from.Col {
		ind = ind[:from.Col]
	}
	v.edit("", func() Pos { return v.buf.Replace(from, to, "\n"+ind) })
}

func (v *CodeView) deleteBack(word bool) {
	if !v.editable() {
		return
	}
	from, to, has := v.Selection()
	if !has {
		to = v.cursor
		text := v.buf.Line(to.Line)
		switch {
		case to.Col == 0 && to.Line == 0:
			return
		case to.Col == 0:
			from = Pos{to.Line - 1, len(v.buf.Line(to.Line - 1))}
		case word:
			from = Pos{to.Line, wordLeft(text, to.Col)}
		default:
			from = Pos{to.Line, prevCluster(text, to.Col)}
		}
	}
	merge := "delete"
	if has || word {
		merge = ""
	}
	v.edit(merge, func() Pos { v.buf.Delete(from, to); return from })
}

func (v *CodeView) deleteForward(word bool) {
	if !v.editable() {
		return
	}
	from, to, has := v.Selection()
	if !has {
		text := v.buf.Line(from.Line)
		switch {
		case from.Col == len(text) && from.Line+1 >= v.buf.LineCount():
			return
		case from.Col == len(text):
			to = Pos{from.Line + 1, 0}
		case word:
			to = Pos{from.Line, wordRight(text, from.Col)}
		default:
			to = Pos{from.Line, nextCluster(text, from.Col)}
		}
	}
	merge := "delete-forward"
	if has || word {
		merge = ""
	}
	v.edit(merge, func() Pos { v.buf.Delete(from, to); return from })
}

func (v *CodeView) deleteLine() {
	if !v.editable() {
		return
	}
	from, to, _ := v.Selection()
	first, last := from.Line, to.Line
	var a, b Pos
	switch {
	case last+1 < v.buf.LineCount():
		a, b = Pos{first, 0}, Pos{last + 1, 0}
	case first > 0:
		a, b = Pos{first - 1, len(v.buf.Line(first - 1))}, Pos{last, len(v.buf.Line(last))}
	default:
		a, b = Pos{first, 0}, Pos{last, len(v.buf.Line(last))}
	}
	v.edit("", func() Pos {
		v.buf.Delete(a, b)
		return v.buf.Clamp(Pos{a.Line, 0})
	})
}

// indentLines indents (or outdents) the selected lines; Tab without a
// multi-line selection inserts one indent at the cursor.
func (v *CodeView) indentLines(out bool) {
	if !v.editable() {
		return
	}
	from, to, has := v.Selection()
	if !out && (!has || from.Line == to.Line) {
		unit := v.indent
		if unit != "\t" {
			col := colOf(v.buf.Line(from.Line), from.Col, v.tabWidth)
			unit = strings.Repeat(" ", len(v.indent)-col%len(v.indent))
		}
		v.insertText(unit, "")
		return
	}
	last := to.Line
	if has && to.Col == 0 && to.Line > from.Line {
		last-- // a selection ending at column 0 does not take that line
	}
	anchor, cursor, sel := v.anchor, v.cursor, v.selected
	shift := func(p Pos, line int, delta int) Pos {
		if p.Line == line && p.Col > 0 {
			p.Col = max(0, p.Col+delta)
		}
		return p
	}
	v.buf.BeginStep(v.cursor, "")
	for l := from.Line; l <= last; l++ {
		text := v.buf.Line(l)
		if out {
			n := 0
			switch {
			case strings.HasPrefix(text, "\t"):
				n = 1
			default:
				for n < len(text) && n < max(1, len(v.indent)) && text[n] == ' ' {
					n++
				}
			}
			if n > 0 {
				v.buf.Delete(Pos{l, 0}, Pos{l, n})
				anchor, cursor = shift(anchor, l, -n), shift(cursor, l, -n)
			}
		} else if text != "" {
			v.buf.Insert(Pos{l, 0}, v.indent)
			anchor, cursor = shift(anchor, l, len(v.indent)), shift(cursor, l, len(v.indent))
		}
	}
	v.anchor, v.cursor, v.selected = v.buf.Clamp(anchor), v.buf.Clamp(cursor), sel
	v.buf.EndStep(v.cursor)
	if v.changed != nil {
		v.changed()
	}
}

func (v *CodeView) undo() {
	if !v.editable() {
		return
	}
	if p, ok := v.buf.Undo(); ok {
		v.cursor, v.selected, v.wantCol = v.buf.Clamp(p), false, -1
		v.ensureCursorVisible()
		if v.changed != nil {
			v.changed()
		}
	}
}

func (v *CodeView) redo() {
	if !v.editable() {
		return
	}
	if p, ok := v.buf.Redo(); ok {
		v.cursor, v.selected, v.wantCol = v.buf.Clamp(p), false, -1
		v.ensureCursorVisible()
		if v.changed != nil {
			v.changed()
		}
	}
}

// copySelection copies the selection, or the whole line without one (as
// most editors do), and with cut removes it.
func (v *CodeView) copySelection(cut bool) {
	from, to, has := v.Selection()
	delFrom, delTo := from, to
	if !has {
		l := v.cursor.Line
		from, to = Pos{l, 0}, Pos{l, len(v.buf.Line(l))}
		delFrom, delTo = from, to
		switch {
		case l+1 < v.buf.LineCount():
			delTo = Pos{l + 1, 0}
		case l > 0:
			delFrom = Pos{l - 1, len(v.buf.Line(l - 1))}
		}
	}
	text := v.buf.Text(from, to)
	if !has {
		text += "\n"
	}
	v.clip.set(text)
	if cut && v.editable() {
		v.edit("", func() Pos {
			v.buf.Delete(delFrom, delTo)
			if has {
				return delFrom
			}
			return v.buf.Clamp(Pos{min(from.Line, v.buf.LineCount()-1), 0})
		})
	}
}

// detectIndent picks what Tab inserts: a tab when the file indents with
// tabs, else the smallest space indent it uses (4 when it has none).
func detectIndent(b *Buffer) string {
	tabs, spaces, unit := 0, 0, 0
	for i := 0; i < b.LineCount() && i < 2000; i++ {
		l := b.Line(i)
		switch {
		case strings.HasPrefix(l, "\t"):
			tabs++
		case strings.HasPrefix(l, " "):
			n := len(l) - len(strings.TrimLeft(l, " "))
			if n == len(l) {
				continue
			}
			spaces++
			if n >= 2 && (unit == 0 || n < unit) {
				unit = n
			}
		}
	}
	if tabs > spaces {
		return "\t"
	}
	if unit < 2 || unit > 8 {
		unit = 4
	}
	return strings.Repeat(" ", unit)
}
