package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/commands"
)

// TestInputGrowsKeepingItsFirstLine: typing line after line, with a draw
// after every key as the App does, the input grows a row per line and
// shows its first line until the text outgrows maxInputRows; from then on
// it scrolls and keeps the cursor's line in sight.
func TestInputGrowsKeepingItsFirstLine(t *testing.T) {
	ctx := darkCtx()
	in := NewInput(ctx.Th, ChatKeys(), commands.New())
	v := NewView(ctx.Th, NewMessageList(ctx, MessageKeys()), in)
	s := simScreen(t, 40, 24)
	v.SetRect(0, 0, 40, 24)
	in.Focus(nil)
	draw := func() string {
		s.Clear()
		v.Draw(s)
		s.Show()
		return screenText(s)
	}
	draw()
	press := func(ev *tcell.EventKey) {
		in.InputHandler()(ev, func(tview.Primitive) {})
		draw()
	}
	for i := 1; i <= maxInputRows+3; i++ {
		if i > 1 {
			press(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModShift))
		}
		for _, r := range fmt.Sprintf("line %d", i) {
			press(tcell.NewEventKey(tcell.KeyRune, r, 0))
		}
		text := draw()
		_, y, _, h := in.GetRect()
		if want := min(i, maxInputRows); h != want {
			t.Fatalf("%d lines typed: the input has %d rows, want %d", i, h, want)
		}
		last := fmt.Sprintf("line %d", i)
		if !strings.Contains(screenLines(s)[y+h-1], last) {
			t.Fatalf("%d lines typed: the cursor's line %q is not the input's last row:\n%s", i, last, text)
		}
		if i <= maxInputRows && !strings.Contains(screenLines(s)[y], "line 1") {
			t.Fatalf("%d lines typed (they fit): the first line is not the input's first row:\n%s", i, text)
		}
	}
	// Back to a text that fits: the first line shows again.
	for strings.Count(in.GetText(), "\n") >= maxInputRows {
		press(tcell.NewEventKey(tcell.KeyBackspace2, 0, 0))
	}
	_, y, _, _ := in.GetRect()
	if text := draw(); !strings.Contains(screenLines(s)[y], "line 1") {
		t.Fatalf("after deleting back to %d lines the first line is not shown:\n%s", strings.Count(in.GetText(), "\n")+1, text)
	}
}

// A line that wraps grows the input too, its start kept in sight.
func TestInputGrowsForAWrappedLine(t *testing.T) {
	ctx := darkCtx()
	in := NewInput(ctx.Th, ChatKeys(), commands.New())
	v := NewView(ctx.Th, NewMessageList(ctx, MessageKeys()), in)
	s := simScreen(t, 40, 24)
	v.SetRect(0, 0, 40, 24)
	in.Focus(nil)
	words := strings.Fields("start of a long message that goes on and on well past the width of the chat so that it wraps onto several rows")
	for i, w := range words {
		if i > 0 {
			in.InputHandler()(tcell.NewEventKey(tcell.KeyRune, ' ', 0), func(tview.Primitive) {})
			v.Draw(s)
		}
		for _, r := range w {
			in.InputHandler()(tcell.NewEventKey(tcell.KeyRune, r, 0), func(tview.Primitive) {})
			s.Clear()
			v.Draw(s)
		}
	}
	s.Show()
	_, y, _, h := in.GetRect()
	if h < 3 {
		t.Fatalf("the input has %d rows for a line that wraps three times", h)
	}
	if !strings.Contains(screenLines(s)[y], "start of a long") {
		t.Fatalf("the wrapped line's start is not the input's first row:\n%s", screenText(s))
	}
	if !strings.Contains(screenLines(s)[y+h-1], "rows") {
		t.Fatalf("the cursor's row is not the input's last row:\n%s", screenText(s))
	}
}
