package termview

import (
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// While the pane has focus every key belongs to the program in it — F1,
// F6, Alt-letters, Shift-PgUp, Ctrl-Q — as in tmux, except the escape key
// (terminal.escape, Ctrl-\ by default): the key after it is fawn's, looked
// up by the host in its global keys and then given to the pane's input
// handler, which acts on it only if it is one of the pane's own bindings.
// The escape key twice sends it to the program. A host that wants this
// asks CaptureKey before its own tables; a host that does not gets
// InputHandler's behaviour: the pane's bindings act, the rest is sent.

// CaptureKey takes ev for the pane ahead of the host's global keys, and
// reports whether it did. It returns false only for the key after the
// escape key, which the host then handles as if the pane had not captured
// it.
func (v *View) CaptureKey(ev *tcell.EventKey) bool {
	v.afterEscape = false
	if v.keys.Action(ev) == ActionEscape {
		if v.escaped {
			v.escaped = false
			v.sendKey(ev)
			return true
		}
		v.escaped = true
		return true
	}
	if v.escaped {
		v.escaped, v.afterEscape = false, true
		return false
	}
	switch {
	case v.find != nil:
		v.findKey(ev)
	case v.ksel != nil:
		v.selectKey(ev)
	default:
		v.sendKey(ev)
	}
	return true
}

// Escaped says whether the escape key was pressed and the next key is
// fawn's.
func (v *View) Escaped() bool { return v.escaped }

// EscapeKey is the escape key as the help shows it ("Ctrl-\"), or "" when
// none is bound.
func (v *View) EscapeKey() string {
	if ks := v.keys.Keys(ActionEscape); len(ks) > 0 {
		return keymap.Display(ks[0])
	}
	return ""
}

// escapeHint is what the pane's corner says while it has focus: the escape
// key, and once it was pressed, what comes next.
func (v *View) escapeHint() string {
	k := v.EscapeKey()
	switch {
	case k == "":
		return ""
	case v.escaped:
		return " " + k + " … fawn's key next (" + k + " again: send it) "
	}
	return " " + k + ": fawn keys "
}

// sendKey sends ev to the program, back at the live screen.
func (v *View) sendKey(ev *tcell.EventKey) {
	if b := encodeKey(ev, v.term.Modes()); b != nil {
		v.back, v.sel = 0, nil
		_, _ = v.term.Write(b)
	}
}

// drawEscapeHint writes the escape hint, while the pane has focus, right
// aligned on row y below the pane's cells: the bottom line of its border,
// or of the frame the host draws around a borderless view.
func (v *View) drawEscapeHint(screen tcell.Screen, x, y, w int) {
	hint := v.escapeHint()
	if hint == "" || !v.HasFocus() {
		return
	}
	if _, sh := screen.Size(); y >= sh {
		return
	}
	st := tcell.StyleDefault.Foreground(v.theme.Dim).Background(v.theme.Background)
	if v.escaped {
		st = tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(v.theme.Warning)
	}
	n := len([]rune(hint))
	if n > w-2 {
		return
	}
	col := x + w - n - 1
	for _, r := range hint {
		screen.SetContent(col, y, r, nil, st)
		col++
	}
}
