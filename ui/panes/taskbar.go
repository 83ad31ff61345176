package panes

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// TaskState is where a task is, as its tab in the task bar says.
type TaskState int

const (
	// TaskIdle: no turn has run yet, or the user has seen how the last one ended.
	TaskIdle TaskState = iota
	// TaskWorking: a turn runs.
	TaskWorking
	// TaskWaiting: the task waits for the user (a permission, a question).
	TaskWaiting
	// TaskDone: its last turn ended, and the user has not looked yet.
	TaskDone
	// TaskFailed: its last turn ended with an error.
	TaskFailed
)

func (s TaskState) String() string {
	switch s {
	case TaskWorking:
		return "working"
	case TaskWaiting:
		return "waiting for you"
	case TaskDone:
		return "done"
	case TaskFailed:
		return "failed"
	}
	return "idle"
}

// TaskTab is one task as the task bar shows it.
type TaskTab struct {
	Name  string
	State TaskState
	// Attention is set while the task needs the user and is not shown: a
	// permission or question waiting, or a turn that ended unseen.
	Attention bool
	Shown     bool
}

// TaskBar is the row above the panes with one tab per task: its number
// (Alt-1…9), its name, its state, and a badge when it wants the user.
// Clicking a tab calls OnSelect with its index.
type TaskBar struct {
	*tview.Box
	th    *theme.Theme
	tabs  func() []TaskTab
	frame func() uint64 // turns the working spinner
	// labels are the columns of the tabs last drawn, for clicks.
	labels   [][2]int
	OnSelect func(i int)
}

// NewTaskBar shows what tabs returns at each draw; frame turns spinners.
func NewTaskBar(th *theme.Theme, tabs func() []TaskTab, frame func() uint64) *TaskBar {
	b := &TaskBar{Box: tview.NewBox(), th: th, tabs: tabs, frame: frame}
	b.SetBackgroundColor(th.Background)
	return b
}

// Draw draws the tabs from the left, each cut to fit when there are many.
func (b *TaskBar) Draw(screen tcell.Screen) {
	x, y, w, h := b.GetRect()
	if w <= 0 || h <= 0 {
		return
	}
	tabs := b.tabs()
	b.labels = b.labels[:0]
	if len(tabs) == 0 {
		return
	}
	// Each tab gets an equal share of the row at most, so the last ones
	// are never pushed off it.
	share := max(8, w/len(tabs))
	lx := x
	for i, t := range tabs {
		label := render.Line{{Text: b.label(i, t), Style: b.style(t)}}
		end := render.DrawLine(screen, lx, y, min(share, x+w-lx), render.TruncateLine(label, max(0, min(share, x+w-lx))))
		b.labels = append(b.labels, [2]int{lx, end})
		lx = end
		if lx >= x+w {
			break
		}
	}
}

func (b *TaskBar) label(i int, t TaskTab) string {
	name := t.Name
	if name == "" {
		name = "project"
	}
	var mark string
	switch t.State {
	case TaskWorking:
		mark = render.Spinner(b.frame()) + " "
	case TaskWaiting:
		mark = "? "
	case TaskDone:
		mark = "✓ "
	case TaskFailed:
		mark = "✗ "
	}
	badge := ""
	if t.Attention {
		badge = " •"
	}
	num := ""
	if i < 9 {
		num = fmt.Sprintf("%d ", i+1)
	}
	return " " + num + mark + safetext.Line(name) + badge + " "
}

func (b *TaskBar) style(t TaskTab) tcell.Style {
	st := tcell.StyleDefault.Foreground(b.th.Dim)
	switch {
	case t.Shown:
		st = tcell.StyleDefault.Foreground(b.th.Foreground).Background(b.th.CursorLine).Bold(true)
	case t.Attention:
		st = tcell.StyleDefault.Foreground(b.th.Warning).Bold(true)
	case t.State == TaskFailed:
		st = tcell.StyleDefault.Foreground(b.th.Error)
	}
	return st
}

// MouseHandler selects the tab clicked.
func (b *TaskBar) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return b.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		if action != tview.MouseLeftClick || !b.InRect(event.Position()) {
			return false, nil
		}
		mx, _ := event.Position()
		for i, l := range b.labels {
			if mx >= l[0] && mx < l[1] && b.OnSelect != nil {
				b.OnSelect(i)
				return true, nil
			}
		}
		return true, nil
	})
}
