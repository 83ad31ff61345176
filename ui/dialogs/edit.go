package dialogs

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
)

// drawEdit draws the box of Edit: the text being edited on the left, what
// goes beside it on the right (below it when the screen is narrow), the
// keys at the foot.
func (c *Confirm) drawEdit(screen tcell.Screen) {
	th := c.ctx.Th
	sx, sy, sw, sh := c.GetRect()
	w := min(sw-2, 110)
	h := min(sh-2, 20)
	x, y := sx+(sw-w)/2, sy+(sh-h)/2
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	render.Fill(screen, x, y, w, h, base)
	render.DrawBorder(screen, x, y, w, h, base.Foreground(th.Accent), render.Line{{Text: " " + c.title + " ", Style: base.Foreground(th.Accent).Bold(true)}})
	var keys render.Line
	for i, ch := range c.choices {
		if i > 0 {
			keys = append(keys, render.Span{Text: "   ", Style: base})
		}
		keys = append(keys, render.Span{Text: keymap.Display(ch.Key), Style: base.Foreground(th.Accent).Bold(true)}, render.Span{Text: " " + ch.Label, Style: base})
	}
	render.DrawLine(screen, x+2, y+h-2, w-4, keys)
	inner := w - 4
	textW, asideW := inner, 0
	textH := h - 4
	aside := strings.Split(strings.TrimRight(safetext.Text(c.aside), "\n"), "\n")
	if inner >= 80 {
		asideW = min(inner/2, 50)
		textW = inner - asideW - 2
	} else {
		textH = max(3, (h-4)/2)
	}
	c.edit.SetTextStyle(base)
	c.edit.SetRect(x+2, y+1, textW, textH)
	if !c.placed {
		c.placed = true
		c.edit.Draw(screen) // it learns its height
		c.edit.SetText(c.edit.GetText(), true)
	}
	c.edit.Draw(screen)
	dim := base.Foreground(th.Dim)
	if asideW > 0 {
		for i, l := range aside {
			if i >= h-4 {
				break
			}
			render.DrawLine(screen, x+2+textW+2, y+1+i, asideW, render.Line{{Text: l, Style: dim}})
		}
		return
	}
	for i, l := range aside {
		if y+2+textH+i >= y+h-2 {
			break
		}
		render.DrawLine(screen, x+2, y+2+textH+i, inner, render.Line{{Text: l, Style: dim}})
	}
}

// The actions of Edit's box (the commit message /commit drafts).
const (
	ActionEditDone    keymap.Action = "edit_box.done"
	ActionEditNewline keymap.Action = "edit_box.newline"
	ActionEditCancel  keymap.Action = "edit_box.cancel"
)

// EditKeys returns a fresh default table of Edit's box; every other key
// edits the text.
func EditKeys() *keymap.Table {
	return keymap.New("Edit box (a text to edit, such as /commit's message)",
		keymap.Binding{Action: ActionEditDone, Keys: []string{"enter"}, Help: "Take the text"},
		keymap.Binding{Action: ActionEditNewline, Keys: []string{"alt+enter"}, Help: "Start a new line"},
		keymap.Binding{Action: ActionEditCancel, Keys: []string{"esc"}, Help: "Close the box, the text dropped"},
	)
}

// SetEditKeys makes Edit's box take its keys from t.
func (c *Confirm) SetEditKeys(t *keymap.Table) { c.editKeys = t }

// editKey handles a key of Edit's box.
func (c *Confirm) editKey(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
	switch c.editKeys.Action(ev) {
	case ActionEditNewline:
		c.edit.InputHandler()(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), setFocus)
	case ActionEditDone:
		text, done := c.edit.GetText(), c.onEdit
		c.shown, c.edit, c.onEdit = false, nil, nil
		if done != nil {
			done(text)
		}
	case ActionEditCancel:
		c.shown, c.edit, c.onEdit = false, nil, nil
	default:
		c.edit.InputHandler()(ev, setFocus)
	}
}
