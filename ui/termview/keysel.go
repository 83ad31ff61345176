package termview

import (
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// keySelect is selection with the keyboard (Alt-V): a cursor of its own
// that moves over the screen and the scrollback, and an optional mark
// where the selection starts.
type keySelect struct {
	at    Spot
	mark  *Spot
	lines bool // V: whole lines
}

// startKeySelect enters keyboard selection at the terminal's cursor, or on
// the bottom row when the view is scrolled back.
func (v *View) startKeySelect() {
	row := v.rows - 1
	col := 0
	if v.back == 0 {
		row, col = v.curY, v.curX
	}
	v.ksel = &keySelect{at: v.spotAt(col, row)}
	v.sel = nil
}

// selectKey handles a key in keyboard selection (SelectKeys): arrows or
// hjkl move, w/b/e by words, PgUp/PgDn a page, 0/Home and $/End the
// line's ends, g/G the oldest and newest lines; v (or Space) sets or drops
// the mark, V selects whole lines; y or Enter copies the selection and
// ends, Esc or q ends.
func (v *View) selectKey(ev *tcell.EventKey) {
	switch a := v.keyset.Select.Action(ev); a {
	case ActionSelectEnd:
		v.ksel, v.sel = nil, nil
		return
	case ActionSelectCopy:
		v.copyKeySelection()
		return
	default:
		v.keySelectAction(a)
	}
	v.clampKeySelect()
	v.follow()
	v.showKeySelection()
}

// move moves the selection cursor dl lines and dc columns.
func (k *keySelect) move(dl, dc int) {
	k.at.Line += int64(dl)
	k.at.Col += dc
}

// keySelectAction applies an action of keyboard selection that moves the
// cursor or sets the mark. Other actions do nothing.
func (v *View) keySelectAction(a keymap.Action) {
	k := v.ksel
	page := max(v.rows-1, 1)
	switch a {
	case ActionSelectUp:
		k.move(-1, 0)
	case ActionSelectDown:
		k.move(1, 0)
	case ActionSelectLeft:
		k.move(0, -1)
	case ActionSelectRight:
		k.move(0, 1)
	case ActionSelectPageUp:
		k.move(-page, 0)
	case ActionSelectPageDown:
		k.move(page, 0)
	case ActionSelectLineStart:
		k.at.Col = 0
	case ActionSelectLineEnd:
		k.at.Col = v.cols - 1
	case ActionSelectWordNext:
		if at, ok := v.term.NextWord(k.at, true, v.lastLine()); ok {
			k.at = at
		}
	case ActionSelectWordPrev:
		if at, ok := v.term.NextWord(k.at, false, v.lastLine()); ok {
			k.at = at
		}
	case ActionSelectWordEnd:
		v.keySelectWordEnd()
	case ActionSelectOldest:
		k.at = Spot{Line: v.oldestLine()}
	case ActionSelectNewest:
		k.at = Spot{Line: v.lastLine()}
	case ActionSelectMark:
		k.toggleMark(false)
	case ActionSelectMarkLines:
		k.toggleMark(true)
	}
}

// keySelectWordEnd moves the selection cursor to the end of its word, or
// of the next one when it is at an end.
func (v *View) keySelectWordEnd() {
	k := v.ksel
	if _, to, ok := v.term.WordAt(k.at); ok && to != k.at {
		k.at = to
	} else if at, ok := v.term.NextWord(k.at, true, v.lastLine()); ok {
		if _, to, ok := v.term.WordAt(at); ok {
			k.at = to
		}
	}
}

// toggleMark drops the mark when it is of this kind (whole lines or
// not), and otherwise sets it at the cursor as one.
func (k *keySelect) toggleMark(lines bool) {
	if k.mark != nil && k.lines == lines {
		k.mark = nil
		return
	}
	m := k.at
	k.mark, k.lines = &m, lines
}

// showKeySelection makes the selection drawn what lies between the mark
// and the cursor, widened to whole lines in V mode; none without a mark.
func (v *View) showKeySelection() {
	k := v.ksel
	v.sel = nil
	if k.mark != nil {
		from, to := *k.mark, k.at
		if k.lines {
			if to.Before(from) {
				from, to = to, from
			}
			from.Col, to.Col = 0, 1<<20
		}
		v.sel = &selection{from: from, to: to}
	}
}

// oldestLine is the first line still in the scrollback.
func (v *View) oldestLine() int64 { return int64(v.pushed) - int64(v.lines) }

// lastLine is the screen's last row.
func (v *View) lastLine() int64 { return int64(v.pushed) + int64(v.rows) - 1 }

// clampKeySelect keeps the selection cursor on the screen or in the
// scrollback.
func (v *View) clampKeySelect() {
	k := v.ksel
	k.at.Line = min(max(k.at.Line, v.oldestLine()), v.lastLine())
	k.at.Col = min(max(k.at.Col, 0), max(v.cols-1, 0))
}

// follow scrolls so that the selection cursor is in view.
func (v *View) follow() {
	top := int64(v.pushed) - int64(v.back)
	switch line := v.ksel.at.Line; {
	case line < top:
		v.back = int(int64(v.pushed) - line)
	case line >= top+int64(v.rows):
		v.back = max(int(int64(v.pushed)+int64(v.rows)-1-line), 0)
	}
	v.anchor = v.pushed
}

// copyKeySelection copies what is selected (nothing when there is no
// mark) and ends keyboard selection.
func (v *View) copyKeySelection() {
	if v.ksel.mark != nil {
		v.copySelection()
	}
	v.ksel, v.sel = nil, nil
}

// keySelectHint is what the pane's corner says in keyboard selection.
func (v *View) keySelectHint() string {
	sel := v.keyset.Select
	switch {
	case v.ksel.mark == nil:
		return " select: move · " + sel.Hint(ActionSelectMark) + " mark · " + sel.Hint(ActionSelectMarkLines) + " lines · " + sel.Hint(ActionSelectEnd) + " "
	default:
		return " select: move · " + sel.Hint(ActionSelectCopy) + " copy · " + sel.Hint(ActionSelectEnd) + " "
	}
}
