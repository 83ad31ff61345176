package editor

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// InputHandler handles the editor's keys.
func (t *Tabs) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return t.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		t.HandleKey(ev)
	})
}

// HandleKey handles one key: the finder or a prompt first, then the tab
// actions, then the active view. It reports whether the key was used.
func (t *Tabs) HandleKey(ev *tcell.EventKey) bool {
	t.box.drain()
	if t.finder != nil {
		t.handleFinder(ev)
		return true
	}
	tb := t.current()
	tb.flash = ""
	action := t.keys.Action(ev)
	if t.tabAction(action) {
		return true
	}
	if tb.prompt != nil {
		p := tb.prompt
		return p.handle(ev, t.keyset.Prompt, action, func() {
			if tb.prompt == p {
				tb.prompt = nil
			}
		})
	}
	switch action {
	case actSave:
		t.save(tb, nil)
		return true
	case actDiff:
		t.toggleDiff(tb)
		return true
	case actFind:
		t.openFind(tb)
		return true
	case actFindNext, actFindPrev:
		t.findStep(tb, tb.shown().findText, action == actFindNext)
		return true
	case actGotoLine:
		t.openGoto(tb)
		return true
	case actNextProblem, actPrevProblem:
		if tb.diff == nil && tb.versions == nil && !tb.welcome {
			t.stepProblem(tb, action == actNextProblem)
			return true
		}
	case actDefinition, actHover:
		if tb.diff == nil && tb.versions == nil && tb.path != "" && !tb.binary {
			if t.codeNav == nil {
				tb.flash, tb.flashErr = "no language server serves this file (/lsp shows them)", true
				return true
			}
			c := tb.view.cursor
			text := tb.buf.Line(c.Line)
			col := utf8.RuneCountInString(text[:min(c.Col, len(text))]) + 1
			what := "definition"
			if action == actHover {
				what = "hover"
			}
			t.codeNav(what, tb.path, c.Line+1, col)
			return true
		}
	}
	if tb.versions != nil && t.versionsKey(tb, ev) {
		return true
	}
	if tb.diff != nil && t.keyset.Diff.Action(ev) == actDiffClose {
		tb.diff = nil
		return true
	}
	if tb.diff != nil && t.reviewKey(tb, ev) {
		return true
	}
	if v := tb.shown(); v.findText != "" && action == actClearFind {
		v.findText = ""
		return true
	}
	return tb.shown().HandleKey(ev)
}

// tabAction handles the actions that work whatever the tab is doing.
func (t *Tabs) tabAction(action keymap.Action) bool {
	switch action {
	case actFinder:
		t.openFinder()
	case actClose:
		t.closeTab(t.current(), false)
	case actNextTab:
		t.activate((t.active + 1) % len(t.tabs))
	case actPrevTab:
		t.activate((t.active + len(t.tabs) - 1) % len(t.tabs))
	default:
		n, ok := strings.CutPrefix(string(action), string(actTab))
		if !ok {
			return false
		}
		i, err := strconv.Atoi(n)
		if err != nil {
			return false
		}
		t.activate(i - 1)
	}
	return true
}

// PasteHandler sends pasted text to the finder, a prompt or the view.
func (t *Tabs) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return t.WrapPasteHandler(func(text string, _ func(p tview.Primitive)) {
		t.Paste(text)
	})
}

// Paste inserts text where the user is typing.
func (t *Tabs) Paste(text string) {
	if f := t.finder; f != nil {
		f.query += strings.SplitN(text, "\n", 2)[0]
		f.filter()
		return
	}
	tb := t.current()
	if tb.prompt != nil {
		tb.prompt.paste(text)
		return
	}
	tb.shown().insertText(text, "")
}

// MouseHandler switches tabs from the strip, drives the finder, and passes
// the rest to the active view.
func (t *Tabs) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return t.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		v := t.current().shown()
		if !t.InRect(mx, my) && !v.dragging {
			return false, nil
		}
		if t.finder != nil {
			switch action {
			case tview.MouseLeftClick:
				if !t.finderClick(mx, my) {
					t.closeFinder()
				}
			case tview.MouseScrollUp:
				t.finder.move(-3)
			case tview.MouseScrollDown:
				t.finder.move(3)
			}
			return true, nil
		}
		if my == t.stripY && !v.dragging {
			switch action {
			case tview.MouseLeftDown, tview.MouseMiddleClick:
				setFocus(t)
				for _, p := range t.stripPos {
					if mx >= p[0] && mx < p[1] {
						if action == tview.MouseMiddleClick {
							t.closeTab(t.tabs[p[2]], false)
						} else {
							t.activate(p[2])
						}
					}
				}
			case tview.MouseScrollUp:
				t.activate((t.active + len(t.tabs) - 1) % len(t.tabs))
			case tview.MouseScrollDown:
				t.activate((t.active + 1) % len(t.tabs))
			}
			return true, nil
		}
		if h := v.MouseHandler(); h != nil {
			consumed, capture := h(action, ev, func(tview.Primitive) { setFocus(t) })
			if capture != nil {
				capture = t
			}
			return consumed, capture
		}
		return false, nil
	})
}
