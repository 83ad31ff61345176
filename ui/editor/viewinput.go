package editor

import (
	"unicode"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// InputHandler handles keys bound in the editor key table and typed text.
func (v *CodeView) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		v.HandleKey(ev)
	})
}

// PasteHandler inserts pasted text as one undo step.
func (v *CodeView) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return v.WrapPasteHandler(func(text string, _ func(p tview.Primitive)) {
		v.insertText(text, "")
	})
}

// MouseHandler places the cursor, selects by dragging or double-click, and scrolls.
func (v *CodeView) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return v.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !v.InRect(mx, my) && !v.dragging {
			return false, nil
		}
		switch action {
		case tview.MouseLeftDown:
			setFocus(v)
			p := v.posAt(mx, my)
			if ev.Modifiers()&tcell.ModShift != 0 {
				if !v.selected {
					v.anchor = v.cursor
				}
				v.cursor, v.selected = p, true
			} else {
				v.cursor, v.anchor, v.selected = p, p, false
			}
			v.wantCol = -1
			v.buf.hist.seal()
			v.dragging = true
			return true, v
		case tview.MouseMove:
			if v.dragging {
				v.cursor = v.posAt(mx, my)
				v.selected = v.cursor != v.anchor
				v.ensureCursorVisible()
				return true, v
			}
		case tview.MouseLeftUp:
			v.dragging = false
			return true, nil
		case tview.MouseLeftDoubleClick:
			p := v.posAt(mx, my)
			s, e := wordAt(v.buf.Line(p.Line), p.Col)
			v.Select(Pos{p.Line, s}, Pos{p.Line, e})
			v.pending = nil
			return true, nil
		case tview.MouseScrollUp:
			v.scrollBy(-3)
			return true, nil
		case tview.MouseScrollDown:
			v.scrollBy(3)
			return true, nil
		case tview.MouseScrollLeft:
			v.left = max(0, v.left-4)
			return true, nil
		case tview.MouseScrollRight:
			if !v.wrap {
				v.left += 4
			}
			return true, nil
		}
		return false, nil
	})
}

// HandleKey runs the action bound to ev, or types its rune; it reports
// whether the key was used.
func (v *CodeView) HandleKey(ev *tcell.EventKey) bool {
	if v.vim != nil && v.vimKey(ev) {
		return true
	}
	if action := v.keys.Action(ev); action != "" {
		return v.Do(action)
	}
	if ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0 {
		r := ev.Rune()
		kind := "type"
		if unicode.IsSpace(r) {
			kind = "type-space"
		}
		v.insertText(string(r), kind)
		return true
	}
	return false
}

// Do runs an editor action (actLeft, actCopy…) and reports whether the
// view knows it.
func (v *CodeView) Do(action keymap.Action) bool {
	if m, extend, ok := motionOf(action); ok {
		v.move(m, extend)
		return true
	}
	switch action {
	case actSelectAll:
		v.anchor, v.cursor, v.selected = Pos{}, v.buf.End(), true
	case actBackspace:
		v.deleteBack(false)
	case actDeleteWordLeft:
		v.deleteBack(true)
	case actDelete:
		v.deleteForward(false)
	case actDeleteWordRight:
		v.deleteForward(true)
	case actNewline:
		v.newline()
	case actIndent:
		v.indentLines(false)
	case actOutdent:
		v.indentLines(true)
	case actDeleteLine:
		v.deleteLine()
	case actUndo:
		v.undo()
	case actRedo:
		v.redo()
	case actCopy:
		v.copySelection(false)
	case actCut:
		v.copySelection(true)
	case actPaste:
		if v.clip.text != "" {
			v.insertText(v.clip.text, "")
		}
	case actWrap:
		v.SetWrap(!v.wrap)
	default:
		return false
	}
	return true
}

// motion is where a cursor motion goes.
type motion int

const (
	motionLeft motion = iota
	motionRight
	motionUp
	motionDown
	motionHome
	motionEnd
	motionPageUp
	motionPageDown
	motionWordLeft
	motionWordRight
	motionDocStart
	motionDocEnd
)

// motionOf is the motion of action, and whether it extends the selection
// (the shifted actions); ok is false for an action that is no motion.
func motionOf(action keymap.Action) (m motion, extend, ok bool) {
	switch action {
	case actLeft, actSelectLeft:
		m = motionLeft
	case actRight, actSelectRight:
		m = motionRight
	case actUp, actSelectUp:
		m = motionUp
	case actDown, actSelectDown:
		m = motionDown
	case actHome, actSelectHome:
		m = motionHome
	case actEnd, actSelectEnd:
		m = motionEnd
	case actPageUp, actSelectPageUp:
		m = motionPageUp
	case actPageDown, actSelectPageDown:
		m = motionPageDown
	case actWordLeft, actSelectWordLeft:
		m = motionWordLeft
	case actWordRight, actSelectWordRight:
		m = motionWordRight
	case actDocStart, actSelectDocStart:
		m = motionDocStart
	case actDocEnd, actSelectDocEnd:
		m = motionDocEnd
	default:
		return 0, false, false
	}
	switch action {
	case actSelectLeft, actSelectRight, actSelectUp, actSelectDown, actSelectHome, actSelectEnd,
		actSelectPageUp, actSelectPageDown, actSelectWordLeft, actSelectWordRight, actSelectDocStart, actSelectDocEnd:
		extend = true
	}
	return m, extend, true
}

// move moves the cursor; extend keeps the anchor (shift).
func (v *CodeView) move(m motion, extend bool) {
	from, to, has := v.Selection()
	p := v.cursor
	keepCol := false
	text := v.buf.Line(p.Line)
	switch m {
	case motionLeft:
		if has && !extend {
			p = from
		} else if p.Col > 0 {
			p.Col = prevCluster(text, p.Col)
		} else if p.Line > 0 {
			p = Pos{p.Line - 1, len(v.buf.Line(p.Line - 1))}
		}
	case motionRight:
		if has && !extend {
			p = to
		} else if p.Col < len(text) {
			p.Col = nextCluster(text, p.Col)
		} else if p.Line+1 < v.buf.LineCount() {
			p = Pos{p.Line + 1, 0}
		}
	case motionWordLeft:
		if p.Col == 0 && p.Line > 0 {
			p = Pos{p.Line - 1, len(v.buf.Line(p.Line - 1))}
		} else {
			p.Col = wordLeft(text, p.Col)
		}
	case motionWordRight:
		if p.Col == len(text) && p.Line+1 < v.buf.LineCount() {
			p = Pos{p.Line + 1, 0}
		} else {
			p.Col = wordRight(text, p.Col)
		}
	case motionUp, motionDown, motionPageUp, motionPageDown:
		keepCol = true
		n := 1
		page := m == motionPageUp || m == motionPageDown
		if page {
			n = max(1, v.textH-1)
		}
		if m == motionUp || m == motionPageUp {
			n = -n
		}
		p = v.verticalMove(n)
		if page {
			v.scrollBy(n)
		}
	case motionHome:
		// Smart home: to the indentation first, then to column 0.
		ind := len(indentOf(text))
		if p.Col != ind {
			p.Col = ind
		} else {
			p.Col = 0
		}
	case motionEnd:
		p.Col = len(text)
	case motionDocStart:
		p = Pos{}
	case motionDocEnd:
		p = v.buf.End()
	}
	if extend {
		if !v.selected {
			v.anchor = v.cursor
		}
		v.selected = true
	} else {
		v.selected = false
	}
	v.cursor = p
	if !keepCol {
		v.wantCol = -1
	}
	v.buf.hist.seal()
	v.ensureCursorVisible()
}

// verticalMove returns the position n screen rows away from the cursor,
// at the remembered column.
func (v *CodeView) verticalMove(n int) Pos {
	text := v.buf.Line(v.cursor.Line)
	if v.wantCol < 0 {
		v.wantCol = colOf(text, v.cursor.Col, v.tabWidth)
		if v.wrap {
			row := v.cursorRow()
			base, shift := v.rowOrigin(text, row, v.rowStarts(v.cursor.Line)[row])
			v.wantCol += shift - base
		}
	}
	if !v.wrap {
		line := max(0, min(v.buf.LineCount()-1, v.cursor.Line+n))
		if line == v.cursor.Line {
			if n < 0 {
				return Pos{line, 0}
			}
			return Pos{line, len(text)}
		}
		return Pos{line, offAt(v.buf.Line(line), v.wantCol, v.tabWidth)}
	}
	line, row := v.cursor.Line, v.cursorRow()
	for ; n > 0; n-- {
		if row+1 < len(v.rowStarts(line)) {
			row++
		} else if line+1 < v.buf.LineCount() {
			line++
			row = 0
		}
	}
	for ; n < 0; n++ {
		if row > 0 {
			row--
		} else if line > 0 {
			line--
			row = len(v.rowStarts(line)) - 1
		}
	}
	lt := v.buf.Line(line)
	starts := v.rowStarts(line)
	base, shift := v.rowOrigin(lt, row, starts[row])
	off := offAt(lt, base+max(0, v.wantCol-shift), v.tabWidth)
	if row+1 < len(starts) && off >= starts[row+1] {
		off = prevCluster(lt, starts[row+1])
	}
	return Pos{line, off}
}
