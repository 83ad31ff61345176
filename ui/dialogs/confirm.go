package dialogs

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
)

// Choice is one answer of a confirm box: a key and what it does.
type Choice struct {
	Key   string // keymap spec: "s", "esc"
	Label string
	Do    func()
}

// Confirm is a small modal question ("2 files have unsaved changes…").
type Confirm struct {
	*tview.Box
	ctx     *chat.Ctx
	title   string
	text    string
	choices []Choice
	shown   bool
	// edit, when set, is the text being edited (Edit): Enter takes it,
	// Alt-Enter starts a new line, Esc drops it (as editKeys binds them);
	// aside is shown beside it.
	edit   *tview.TextArea
	aside  string
	onEdit func(string)
	// placed is set once the text was drawn: the cursor goes to its end
	// then, when the box's size is known (before, it would scroll the
	// text out of a box of no height).
	placed bool
	// editKeys are Edit's keys (EditKeys; the user's bindings apply).
	editKeys *keymap.Table
}

func NewConfirm(ctx *chat.Ctx) *Confirm {
	return &Confirm{Box: tview.NewBox(), ctx: ctx, editKeys: EditKeys()}
}

func (c *Confirm) Visible() bool { return c.shown }
func (c *Confirm) Modal() bool   { return true }

// Ask shows the question.
func (c *Confirm) Ask(title, text string, choices ...Choice) {
	c.title, c.text, c.choices, c.shown = title, text, choices, true
	c.edit, c.onEdit = nil, nil
}

// Edit shows text to edit, aside beside it (or below it when narrow):
// Enter (edit_box.done) gives the text as it is then to done, Esc
// (edit_box.cancel) closes the box.
func (c *Confirm) Edit(title, text, aside string, done func(string)) {
	first := func(a keymap.Action) string {
		if k := c.editKeys.Keys(a); len(k) > 0 {
			return k[0]
		}
		return "" // unbound: shown as nothing
	}
	// The foot shows the keys as bound; editKey acts on them.
	c.Ask(title, "", Choice{Key: first(ActionEditDone), Label: "ok"}, Choice{Key: first(ActionEditNewline), Label: "new line"}, Choice{Key: first(ActionEditCancel), Label: "cancel", Do: func() {}})
	c.edit = tview.NewTextArea()
	c.edit.SetText(safetext.Text(text), false) // a model may have written it
	c.placed = false
	c.edit.Focus(func(tview.Primitive) {}) // its cursor shows
	c.aside, c.onEdit = aside, done
}

// Editing reports whether the box edits a text.
func (c *Confirm) Editing() bool { return c.shown && c.edit != nil }

func (c *Confirm) Draw(screen tcell.Screen) {
	if !c.shown {
		return
	}
	if c.edit != nil {
		c.drawEdit(screen)
		return
	}
	th := c.ctx.Th
	sx, sy, sw, sh := c.GetRect()
	w := min(sw-2, 70)
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	body := render.WrapText(c.text, base, w-4, nil, nil)
	var keys render.Line
	for i, ch := range c.choices {
		if i > 0 {
			keys = append(keys, render.Span{Text: "   ", Style: base})
		}
		keys = append(keys, render.Span{Text: keymap.Display(ch.Key), Style: base.Foreground(th.Accent).Bold(true)}, render.Span{Text: " " + ch.Label, Style: base})
	}
	foot := render.WrapLine(keys, w-4, nil, nil)
	h := min(sh, len(body)+len(foot)+3)
	x, y := sx+(sw-w)/2, sy+(sh-h)/2
	render.Fill(screen, x, y, w, h, base)
	render.DrawBorder(screen, x, y, w, h, base.Foreground(th.Warning), render.Line{{Text: " " + c.title + " ", Style: base.Foreground(th.Warning).Bold(true)}})
	row := y + 1
	for _, l := range body {
		if row < y+h-1-len(foot) {
			render.DrawLine(screen, x+2, row, w-4, l)
			row++
		}
	}
	for i, l := range foot {
		render.DrawLine(screen, x+2, y+h-1-len(foot)+i, w-4, l)
	}
}

func (c *Confirm) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		got := keymap.FromEvent(ev)
		if c.edit != nil {
			c.editKey(ev, setFocus)
			return
		}
		for _, ch := range c.choices {
			if k, err := keymap.Parse(ch.Key); err == nil && k == got {
				c.shown = false
				ch.Do()
				return
			}
		}
	}
}

func (c *Confirm) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
		return true, nil
	}
}
