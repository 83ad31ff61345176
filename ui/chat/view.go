package chat

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// View is the chat pane's content: the message list above, the input below,
// the command popup between them when it is open.
type View struct {
	*tview.Box
	th    *theme.Theme
	list  *MessageList
	input *Input
	// Busy, when set, says whether a turn runs (the prompt mark shows it).
	Busy func() bool
	// Pending is what "!cmd" ran for the next message, shown on a row
	// above the input.
	Pending *Pending
}

func NewView(th *theme.Theme, list *MessageList, input *Input) *View {
	c := &View{Box: tview.NewBox(), th: th, list: list, input: input, Pending: &Pending{}}
	c.SetBackgroundColor(th.Background)
	return c
}

func (c *View) Draw(screen tcell.Screen) {
	x, y, w, h := c.GetRect()
	if w <= 0 || h <= 0 {
		return
	}
	const prompt = 2 // "› "
	rows := c.input.Rows(w - prompt)
	if rows > h-2 {
		rows = max(1, h-2)
	}
	pend := c.Pending.rows()
	if rows+pend > h-2 {
		pend = 0
	}
	listH := h - rows - pend - 1
	if listH > 0 {
		c.list.SetRect(x, y, w, listH)
		c.list.Draw(screen)
		sep := tcell.StyleDefault.Foreground(c.th.Border)
		for i := 0; i < w; i++ {
			screen.Put(x+i, y+listH, "─", sep)
		}
	}
	if buf, ok := screen.(*render.Buffer); ok && buf.Partial {
		// Drawn over the last frame: the list clears the rows it redraws,
		// the separator covers its row, and the input's rows are cleared
		// here.
		buf.FillRect(x, y+h-rows, w, rows, ' ', tcell.StyleDefault.Background(c.th.Background))
	}
	if pend > 0 {
		c.Pending.draw(screen, c.th, x, y+h-rows-pend, w)
	}
	mark := tcell.StyleDefault.Foreground(c.th.Accent).Bold(true)
	if c.Busy != nil && c.Busy() {
		mark = tcell.StyleDefault.Foreground(c.th.Dim)
	}
	render.DrawText(screen, x, y+h-rows, prompt, "› ", mark)
	c.input.fitPlaceholder(w - prompt)
	c.input.SetRect(x+prompt, y+h-rows, w-prompt, rows)
	c.input.keepTop(w-prompt, rows)
	c.input.Draw(screen)
	if c.input.HasFocus() && c.input.drawCompletion(screen, x, y+listH, w, listH) {
		c.list.forgetRows() // the popup covers some of its rows
	}
}

func (c *View) Focus(delegate func(p tview.Primitive)) {
	if c.list.HasFocus() {
		return
	}
	delegate(c.input)
}

func (c *View) HasFocus() bool { return c.input.HasFocus() || c.list.HasFocus() }

func (c *View) Blur() {
	c.input.Blur()
	c.list.Blur()
}

func (c *View) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		if c.list.HasFocus() {
			c.list.InputHandler()(ev, setFocus)
			return
		}
		c.input.InputHandler()(ev, setFocus)
	}
}

func (c *View) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return func(text string, setFocus func(p tview.Primitive)) {
		if !c.input.HasFocus() {
			setFocus(c.input)
		}
		c.input.PasteHandler()(text, setFocus)
	}
}

func (c *View) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !c.InRect(mx, my) {
			return false, nil
		}
		if c.list.InRect(mx, my) {
			if ok, capture := c.list.MouseHandler()(action, ev, setFocus); ok || capture != nil {
				return ok, capture
			}
		}
		if c.input.InRect(mx, my) {
			return c.input.MouseHandler()(action, ev, setFocus)
		}
		if action == tview.MouseLeftDown {
			setFocus(c.input)
			return true, nil
		}
		return false, nil
	}
}
