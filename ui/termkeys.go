package ui

import (
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/panes"
)

// keyCapturer is a pane that takes keys ahead of the global table while it
// has focus (the terminal: every key goes to its program but an escape
// key). CaptureKey reports whether it took ev; when it did not, the key is
// handled as usual.
type keyCapturer interface {
	CaptureKey(ev *tcell.EventKey) bool
}

// captured gives ev to the focused pane first when that pane captures
// keys and no dialog or help is open; it reports whether the pane took it.
func (a *App) captured(ev *tcell.EventKey) bool {
	c, ok := a.focus.(keyCapturer)
	if !ok || a.layout.TooSmall() || a.layout.modalOverlay() != nil || !a.focus.HasFocus() {
		return false
	}
	if !c.CaptureKey(ev) {
		return false
	}
	if a.focusPane == panes.Terminal {
		a.task.strip.Touch()
	}
	return true
}

// keyHint is the status bar's reminder of the help and quit keys; while
// a pane that captures keys has focus, they follow its escape key.
func (a *App) keyHint() string {
	if e, ok := a.focus.(interface{ EscapeKey() string }); ok && a.focus.HasFocus() {
		if k := e.EscapeKey(); k != "" {
			return k + " F1 help · " + k + " Ctrl-Q quit"
		}
	}
	return "F1 help · Ctrl-Q quit"
}
