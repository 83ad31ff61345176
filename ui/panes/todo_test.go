package panes

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/theme"
)

func TestTodoView(t *testing.T) {
	th := theme.Get("dark")
	v := NewTodoView(&th, nil)
	if v.Title() != "To-do" {
		t.Errorf("empty title = %q", v.Title())
	}
	v.SetItems([]tools.Todo{
		{ID: "1", Title: "Read the failing test", Status: "completed", Priority: "medium"},
		{ID: "2", Title: "Fix the off-by-one in the wrapper that drops the last word of a line", Status: "in_progress", Priority: "high"},
		{ID: "3", Title: "Run the whole suite", Status: "pending", Priority: "low"},
		{ID: "4", Title: "Rewrite everything", Status: "cancelled"},
		{ID: "5", Title: "Write the changelog", Status: "pending"},
	})
	if got := v.Title(); got != "To-do 1/4" {
		t.Errorf("title = %q, want To-do 1/4 (cancelled items do not count)", got)
	}
	s := simScreen(t, 40, 10)
	v.SetRect(0, 0, 40, 10)
	v.Draw(s)
	s.Show()
	golden(t, "todo.golden", screenText(s)+"\n")

	// In progress: highlighted across the row, wrapped under its title.
	_, y := findText(s, "◐ Fix the")
	if _, st := cellAt(s, 30, y); func() tcell.Color { _, bg, _ := st.Decompose(); return bg }() != th.CursorLine {
		t.Error("the item in progress is not highlighted across its row")
	}
	if _, st := cellAt(s, 3, y); attrsOf(st)&tcell.AttrBold == 0 {
		t.Error("the item in progress is not bold")
	}
	// Cancelled: struck through.
	x, y := findText(s, "Rewrite everything")
	if _, st := cellAt(s, x, y); attrsOf(st)&tcell.AttrStrikeThrough == 0 {
		t.Error("the cancelled item is not struck through")
	}
	x, y = findText(s, "!high")
	if _, st := cellAt(s, x, y); fgOf(st) != th.Error {
		t.Error("high priority is not in the error colour")
	}
}

func TestTodoViewScrolls(t *testing.T) {
	th := theme.Get("dark")
	v := NewTodoView(&th, nil)
	var items []tools.Todo
	for i := 0; i < 30; i++ {
		items = append(items, tools.Todo{Title: strings.Repeat("x", i%5+1) + " item", Status: "pending"})
	}
	items[29].Title = "LAST"
	v.SetItems(items)
	s := simScreen(t, 30, 5)
	v.SetRect(0, 0, 30, 5)
	v.Draw(s)
	for i := 0; i < 40; i++ {
		v.InputHandler()(tcell.NewEventKey(tcell.KeyDown, 0, 0), nil)
	}
	v.Draw(s)
	s.Show()
	if !strings.Contains(screenText(s), "LAST") {
		t.Errorf("scrolling does not reach the last item:\n%s", screenText(s))
	}
}
