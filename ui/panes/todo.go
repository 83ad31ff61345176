package panes

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// TodoView shows the agent's to-do list: a status glyph per item (☐ pending,
// ◐ in progress and highlighted, ☑ completed, ☒ cancelled and struck
// through) and its priority. Its title carries the counts ("To-do 2/5").
type TodoView struct {
	*tview.Box
	th     *theme.Theme
	items  []tools.Todo
	offset int
	height int
	keys   *keymap.Table
}

// NewTodoView is an empty to-do list in th's colours; keys is its table
// (nil: TodoKeys).
func NewTodoView(th *theme.Theme, keys *keymap.Table) *TodoView {
	if keys == nil {
		keys = TodoKeys()
	}
	v := &TodoView{Box: tview.NewBox(), th: th, keys: keys}
	v.SetBackgroundColor(th.Background)
	return v
}

// SetItems replaces the list.
func (v *TodoView) SetItems(items []tools.Todo) {
	v.items = append([]tools.Todo(nil), items...)
	v.offset = 0
}

// Items returns the list shown.
func (v *TodoView) Items() []tools.Todo { return v.items }

// Title is the tab title with the counts: "To-do 2/5", or "To-do".
func (v *TodoView) Title() string {
	if len(v.items) == 0 {
		return "To-do"
	}
	done, total := TodoCounts(v.items)
	return fmt.Sprintf("To-do %d/%d", done, total)
}

func (v *TodoView) lines(width int) []render.Line {
	var out []render.Line
	for _, it := range v.items {
		l := TodoLine(it, v.th)
		st := tcell.StyleDefault
		if it.Status == "in_progress" {
			// The item being worked on stands out across the whole row.
			st = st.Background(v.th.CursorLine)
			for i := range l {
				l[i].Style = l[i].Style.Background(v.th.CursorLine)
			}
		}
		for _, wl := range render.WrapLine(l[1:], width, render.Line{l[0]}, render.Line{{Text: "  ", Style: st}}) {
			if it.Status == "in_progress" {
				wl = render.PadTo(wl, width, st)
			}
			out = append(out, wl)
		}
	}
	return out
}

// Draw draws the items that fit, from the scroll offset.
func (v *TodoView) Draw(screen tcell.Screen) {
	x, y, w, h := v.GetInnerRect()
	v.height = h
	if w <= 2 || h <= 0 {
		return
	}
	if len(v.items) == 0 {
		render.DrawText(screen, x+1, y, w-1, "No to-dos yet. The agent keeps its plan here.", tcell.StyleDefault.Foreground(v.th.Dim))
		return
	}
	lines := v.lines(w - 1)
	if v.offset > len(lines)-h {
		v.offset = max(0, len(lines)-h)
	}
	for i := 0; i < h && v.offset+i < len(lines); i++ {
		render.DrawLine(screen, x+1, y+i, w-1, lines[v.offset+i])
	}
}

// InputHandler scrolls with the arrows and page keys.
func (v *TodoView) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		switch v.keys.Action(ev) {
		case ActionTodoUp:
			v.offset = max(0, v.offset-1)
		case ActionTodoDown:
			v.offset++
		case ActionTodoPageUp:
			v.offset = max(0, v.offset-max(1, v.height-1))
		case ActionTodoPageDown:
			v.offset += max(1, v.height-1)
		case ActionTodoTop:
			v.offset = 0
		}
	})
}

// MouseHandler scrolls with the wheel.
func (v *TodoView) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return v.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		if !v.InRect(ev.Position()) {
			return false, nil
		}
		switch action {
		case tview.MouseScrollUp:
			v.offset = max(0, v.offset-1)
		case tview.MouseScrollDown:
			v.offset++
		case tview.MouseLeftDown:
			setFocus(v)
		default:
			return false, nil
		}
		return true, nil
	})
}

// TodoCounts is completed over the items that are not cancelled.
func TodoCounts(items []tools.Todo) (done, total int) {
	for _, it := range items {
		switch it.Status {
		case "completed":
			done++
			total++
		case "cancelled":
		default:
			total++
		}
	}
	return done, total
}

// todoGlyph is the status mark of a to-do item.
func todoGlyph(status string) string {
	switch status {
	case "in_progress":
		return "◐"
	case "completed":
		return "☑"
	case "cancelled":
		return "☒"
	default:
		return "☐"
	}
}

// TodoLine is one item as the card and the to-do view show it: glyph,
// title, priority (the view wraps it; the card truncates it).
func TodoLine(it tools.Todo, th *theme.Theme) render.Line {
	st := tcell.StyleDefault.Foreground(th.Foreground)
	g := st
	switch it.Status {
	case "in_progress":
		g = st.Foreground(th.Accent).Bold(true)
		st = st.Bold(true)
	case "completed":
		g = st.Foreground(th.Success)
		st = st.Foreground(th.Dim)
	case "cancelled":
		g = st.Foreground(th.Dim)
		st = st.Foreground(th.Dim).StrikeThrough(true)
	}
	l := render.Line{{Text: todoGlyph(it.Status) + " ", Style: g}, {Text: render.Sanitize(it.Title, 1), Style: st}}
	if p := priorityTag(it.Priority, th); p.Text != "" {
		l = append(l, render.Span{Text: " ", Style: st.StrikeThrough(false)}, p)
	}
	return l
}

func priorityTag(p string, th *theme.Theme) render.Span {
	st := tcell.StyleDefault
	switch p {
	case "high":
		return render.Span{Text: "!high", Style: st.Foreground(th.Error)}
	case "medium":
		return render.Span{Text: "!med", Style: st.Foreground(th.Warning)}
	case "low":
		return render.Span{Text: "!low", Style: st.Foreground(th.Dim)}
	}
	return render.Span{}
}
