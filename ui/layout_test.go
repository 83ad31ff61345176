package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/panes"
)

// paneRects returns the chat's, the editor's and the strip's rectangles.
func paneRects(a *App) (chat, editor, strip [4]int) {
	r := func(p interface{ GetRect() (int, int, int, int) }) [4]int {
		x, y, w, h := p.GetRect()
		return [4]int{x, y, w, h}
	}
	return r(a.layout.chat), r(a.layout.editor), r(a.layout.strip)
}

func TestLayoutResizes(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 140, 40)

	// Wide: chat left (about 3/7), editor over the strip on the right.
	var chat, editor, strip [4]int
	r.onUI(func() { chat, editor, strip = paneRects(r.app) })
	if chat[2] != 60 || chat[3] != 39 || editor[0] != 60 || strip[1] != editor[1]+editor[3] || editor[3] < strip[3] {
		t.Errorf("wide layout: chat %v editor %v strip %v", chat, editor, strip)
	}

	// Narrow: stacked, each pane the full width.
	r.resize(80, 40)
	r.onUI(func() { chat, editor, strip = paneRects(r.app) })
	if chat[2] != 80 || editor[2] != 80 || strip[2] != 80 || editor[1] != chat[1]+chat[3] || strip[1] != editor[1]+editor[3] {
		t.Errorf("narrow layout: chat %v editor %v strip %v", chat, editor, strip)
	}
	if strip[3] < 5 {
		t.Errorf("the stacked terminal is too short to use: %v", strip)
	}
	for _, want := range []string{"Chat", "Editor", "Terminal"} {
		r.waitScreen(want)
	}

	// Below the minimum size a message says so.
	r.resize(30, 8)
	r.waitScreen("fawn needs at least 40×10")
	r.waitScreen("30×8")
	// Keys other than quit do nothing meanwhile.
	r.typeText("abc")

	// Growing back restores the panes and what was typed is not lost.
	r.resize(140, 40)
	r.waitScreen("Editor")
	r.onUI(func() { chat, editor, strip = paneRects(r.app) })
	if chat[2] != 60 {
		t.Errorf("after growing back: chat %v", chat)
	}
}

func TestLayoutZoomAndSplitKeys(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 140, 40)
	var chat, editor, strip [4]int
	r.key(tcell.KeyRune, 'm', tcell.ModAlt) // zoom the chat
	r.onUI(func() { chat, _, _ = paneRects(r.app) })
	if chat[2] != 140 || chat[3] != 39 {
		t.Errorf("zoomed chat = %v, want the whole screen above the status bar", chat)
	}
	if strings.Contains(r.text(), "Editor") {
		t.Error("the editor shows while the chat is zoomed")
	}
	r.key(tcell.KeyRune, 'm', tcell.ModAlt)
	r.waitScreen("Editor")

	r.key(tcell.KeyRune, '>', tcell.ModAlt)
	r.onUI(func() { chat, editor, strip = paneRects(r.app) })
	if chat[2] <= 60 {
		t.Errorf("Alt-> did not widen the chat: %v", chat)
	}
	before := editor[3]
	r.key(tcell.KeyRune, '-', tcell.ModAlt)
	r.onUI(func() { chat, editor, strip = paneRects(r.app) })
	if editor[3] >= before || strip[3] <= 39-before {
		t.Errorf("Alt-- did not give the terminal more height: editor %v strip %v", editor, strip)
	}

	// Focus moves with the keys, and a zoom follows the focused pane.
	r.key(tcell.KeyRune, 't', tcell.ModAlt)
	r.onUI(func() {
		if r.app.focusPane != panes.Terminal || r.app.task.strip.Active() != panes.Terminal {
			t.Errorf("Alt-T: focus %v, strip %v", r.app.focusPane, r.app.task.strip.Active())
		}
	})
	r.key(tcell.KeyRune, 'o', tcell.ModAlt)
	r.onUI(func() {
		if r.app.focusPane != panes.Todo || r.app.task.strip.Active() != panes.Todo {
			t.Errorf("Alt-O: focus %v, strip %v", r.app.focusPane, r.app.task.strip.Active())
		}
	})
	r.key(tcell.KeyF6, 0, 0)
	r.onUI(func() {
		if r.app.focusPane != panes.Changes || r.app.task.strip.Active() != panes.Changes {
			t.Errorf("F6 from the to-do list: focus %v, strip %v; want the Changes tab", r.app.focusPane, r.app.task.strip.Active())
		}
	})
	r.key(tcell.KeyF6, 0, 0)
	r.onUI(func() {
		if r.app.focusPane != panes.Chat {
			t.Errorf("F6 from the Changes tab: focus %v, want the chat", r.app.focusPane)
		}
	})
	r.key(tcell.KeyRune, 'g', tcell.ModAlt)
	r.onUI(func() {
		if r.app.focusPane != panes.Changes || r.app.task.strip.Active() != panes.Changes {
			t.Errorf("Alt-G: focus %v, strip %v", r.app.focusPane, r.app.task.strip.Active())
		}
	})
}

func TestLayoutMouse(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 140, 40)
	var strip [4]int
	r.onUI(func() { _, _, strip = paneRects(r.app) })
	// Click the To-do label in the strip's top border.
	x, y := r.find("To-do")
	if y != strip[1] {
		t.Fatalf("the To-do label is not in the strip's border (row %d, strip %v)", y, strip)
	}
	click(r, x+1, y)
	r.onUI(func() {
		if r.app.task.strip.Active() != panes.Todo || r.app.focusPane != panes.Todo {
			t.Errorf("clicking the To-do label: strip %v focus %v", r.app.task.strip.Active(), r.app.focusPane)
		}
	})
	// Clicking into the editor focuses it; into the chat, the input.
	var editor [4]int
	r.onUI(func() { _, editor, _ = paneRects(r.app) })
	click(r, editor[0]+5, editor[1]+5)
	r.onUI(func() {
		if r.app.focusPane != panes.Editor {
			t.Errorf("clicking the editor: focus %v", r.app.focusPane)
		}
	})
	click(r, 5, 38)
	r.onUI(func() {
		if r.app.focusPane != panes.Chat || !r.app.task.input.HasFocus() {
			t.Errorf("clicking the chat input: focus %v", r.app.focusPane)
		}
	})
}

func click(r *running, x, y int) {
	r.screen.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	r.screen.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
	r.sync()
}
