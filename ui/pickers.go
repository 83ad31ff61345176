package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/picker"
)

// pickerHost shows one picker at a time over the panes (/mode, /model and
// any other command that asks the user to choose from a list).
type pickerHost struct {
	*tview.Box
	cur *picker.Picker
}

func newPickerHost() *pickerHost { return &pickerHost{Box: tview.NewBox()} }

func (h *pickerHost) Visible() bool { return h.cur != nil && h.cur.Open() }
func (h *pickerHost) Modal() bool   { return true }

func (h *pickerHost) Draw(screen tcell.Screen) {
	if !h.Visible() {
		return
	}
	h.cur.SetRect(h.GetRect())
	h.cur.Draw(screen)
}

func (h *pickerHost) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		if h.Visible() {
			h.cur.HandleKey(ev)
		}
	}
}

func (h *pickerHost) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return func(text string, setFocus func(p tview.Primitive)) {
		if h.Visible() {
			h.cur.PasteHandler()(text, setFocus)
		}
	}
}

func (h *pickerHost) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		if !h.Visible() {
			return false, nil
		}
		return h.cur.MouseHandler()(action, ev, setFocus)
	}
}

// openPicker shows p over the panes until the user picks or backs out.
// Another picker already open is replaced.
func (a *App) openPicker(p *picker.Picker) { a.pickers.cur = p }

// Picker returns the open picker, or nil (tests, and commands that fill a
// picker as results arrive).
func (a *App) Picker() *picker.Picker {
	if a.pickers.Visible() {
		return a.pickers.cur
	}
	return nil
}
