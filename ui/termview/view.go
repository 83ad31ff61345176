// Package termview owns the terminal pane: a tview primitive that draws a
// terminal.Terminal's cells, sends the user's keys, pastes and mouse events
// to its shell when focused, scrolls its scrollback, resizes its pty with
// the pane and titles itself with what the agent runs in it.
//
// Keys: while the pane has focus every key goes to its program (xterm
// encodings, application cursor mode, modifiers) — F1, F6, Alt-letters,
// Ctrl-Q included — but the escape key (terminal.escape, Ctrl-\): the key
// after it is fawn's (the host's global keys, then the pane's own table:
// scrolling, search, selection). The host asks CaptureKey before its own
// tables (see escape.go); a host that gives keys only to the input handler
// gets the old behaviour: the table's bindings act, Ctrl-Q is dropped, the
// rest is sent.
//
// It imports terminal, ui/keymap and ui/theme, never ui; cmd/fawn imports it
// and hands it to ui as the terminal pane.
package termview

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Actions of the terminal's key table.
const (
	ActionScrollUp   keymap.Action = "terminal.scroll_up"
	ActionScrollDown keymap.Action = "terminal.scroll_down"
	ActionInterrupt  keymap.Action = "terminal.interrupt"
	ActionFind       keymap.Action = "terminal.find"
	ActionOpenLink   keymap.Action = "terminal.open_link"
	ActionSelect     keymap.Action = "terminal.select"
	ActionEscape     keymap.Action = "terminal.escape"
)

// DefaultKeys returns the terminal pane's key table.
func DefaultKeys() *keymap.Table {
	return keymap.New("Terminal (every key goes to the program; the keys below and the global ones act after the escape key)",
		keymap.Binding{Action: ActionEscape, Keys: []string{"ctrl+\\"}, Help: "The escape key: the next key is fawn's (F6, Alt-C, Ctrl-Q, PgUp…); pressed twice it is sent to the program"},
		keymap.Binding{Action: ActionScrollUp, Keys: []string{"shift+pgup", "pgup"}, Help: "Scroll back"},
		keymap.Binding{Action: ActionScrollDown, Keys: []string{"shift+pgdn", "pgdn"}, Help: "Scroll forward"},
		keymap.Binding{Action: ActionInterrupt, Keys: []string{"ctrl+c"}, Help: "Interrupt the running command (sent to the shell)"},
		keymap.Binding{Action: ActionOpenLink, Keys: []string{"alt+l"}, Help: "Open the last hyperlink on the screen (OSC 8; Ctrl-click opens the one clicked)"},
		keymap.Binding{Action: ActionFind, Keys: []string{"alt+/"}, Help: "Search the scrollback (its keys: \"Terminal: searching the scrollback\")"},
		keymap.Binding{Action: ActionSelect, Keys: []string{"alt+v"}, Help: "Select with the keyboard (its keys: \"Terminal: selecting with the keyboard\")"},
	)
}

// wheelLines is how far one wheel notch scrolls.
const wheelLines = 3

// View is the terminal pane.
type View struct {
	*tview.Box
	term   *terminal.Terminal
	theme  theme.Theme
	keys   *keymap.Table // keyset.Pane
	keyset *Keys

	cols, rows int    // size last given to the terminal
	back       int    // lines scrolled back; 0 follows the live screen
	anchor     uint64 // Drawn.Pushed that back refers to
	lines      int    // scrollback lines at the last draw
	held       mouseButton
	bellsSeen  uint64 // Terminal.Bells when the pane last had focus
	find       *finder
	pushed     uint64 // Drawn.Pushed at the last draw: the line of the screen's first row
	sel        *selection
	ksel       *keySelect // keyboard selection, while it is on
	curX, curY int        // the terminal's cursor in the pane at the last draw
	onCopy     func(text string)
	onLink     func(url string)
	name       string // "Terminal", "Terminal 2"…
	tag        func() string
	// escaped: the escape key was pressed, the next key is fawn's;
	// afterEscape: the host is handling that key (see CaptureKey).
	escaped, afterEscape bool
	clipSeen             uint64 // the terminal's Clipboard.Seq last looked at
}

// SetName names the view on its tab ("Terminal" by default).
func (v *View) SetName(name string) { v.name = name }

// SetTag sets what the title says after the name, read at every draw
// (the shell's sandbox: "Terminal · sandboxed: project, no network").
func (v *View) SetTag(fn func() string) { v.tag = fn }

// SetOnLink sets what opens a hyperlink the user asks for.
func (v *View) SetOnLink(fn func(url string)) { v.onLink = fn }

// openLink opens url, when there is one and an opener.
func (v *View) openLink(url string) {
	if url != "" && v.onLink != nil {
		v.onLink(url)
	}
}

// selection is text the user marks with the mouse, in Spots, which stay
// on their text as output arrives.
type selection struct {
	from, to Spot
	dragging bool
	// lastWord is when a double click selected a word: a click soon after
	// at the same place selects the line (a triple click).
	lastWord time.Time
}

// Spot is terminal.Spot.
type Spot = terminal.Spot

// SetOnCopy sets what gets the text the user selects (the clipboard).
func (v *View) SetOnCopy(fn func(text string)) { v.onCopy = fn }

// spotAt is the terminal spot under the pane's cell cx, cy.
func (v *View) spotAt(cx, cy int) Spot {
	return Spot{Line: int64(v.pushed) - int64(v.back) + int64(cy), Col: cx}
}

// selected says whether the spot is in the selection.
func (v *View) selected(p Spot) bool {
	if v.sel == nil {
		return false
	}
	a, b := v.sel.from, v.sel.to
	if b.Before(a) {
		a, b = b, a
	}
	return !p.Before(a) && !b.Before(p)
}

// copySelection hands the selected text to the clipboard.
func (v *View) copySelection() {
	if v.sel == nil || v.onCopy == nil {
		return
	}
	if text := v.term.Text(v.sel.from, v.sel.to); text != "" {
		v.onCopy(text)
	}
}

// selectMouse handles the left button when the mouse is the user's (the
// program did not ask for it, or Shift is held): drag to select, double
// click for a word, triple click for the line; the selection is copied
// when the button is released.
func (v *View) selectMouse(action tview.MouseAction, at Spot) {
	switch action {
	case tview.MouseLeftDown:
		if v.sel != nil && !v.sel.lastWord.IsZero() && time.Since(v.sel.lastWord) < 500*time.Millisecond && v.sel.from.Line == at.Line {
			// The third click: the whole line.
			v.sel = &selection{from: Spot{Line: at.Line}, to: Spot{Line: at.Line, Col: 1 << 20}}
			v.copySelection()
			return
		}
		v.sel = &selection{from: at, to: at, dragging: true}
	case tview.MouseMove:
		if v.sel != nil && v.sel.dragging {
			v.sel.to = at
		}
	case tview.MouseLeftUp:
		if v.sel != nil && v.sel.dragging {
			v.sel.dragging = false
			v.sel.to = at
			if v.sel.from == v.sel.to {
				v.sel = nil // a click, not a selection
				return
			}
			v.copySelection()
		}
	case tview.MouseLeftDoubleClick:
		if from, to, ok := v.term.WordAt(at); ok {
			v.sel = &selection{from: from, to: to, lastWord: time.Now()}
			v.copySelection()
		}
	}
}

// finder is the scrollback search: its query, whether it is being typed,
// and the matches (oldest first) with the current one.
type finder struct {
	query   string
	typing  bool
	matches []terminal.Match
	lines   int    // lines searched
	cur     int    // index in matches; -1: none
	pushed  uint64 // Drawn.Pushed the matches were found at
	started bool   // searched at least once
}

// New returns a view of t drawn in th's colours; keys may be nil for
// DefaultKeySet.
func New(t *terminal.Terminal, th theme.Theme, keys *Keys) *View {
	if keys == nil {
		keys = DefaultKeySet()
	}
	v := &View{Box: tview.NewBox(), term: t, theme: th, keys: keys.Pane, keyset: keys, held: noButton, name: "Terminal"}
	v.SetBorder(true).SetTitle(" Terminal ").SetTitleAlign(tview.AlignLeft)
	v.SetBackgroundColor(th.Background)
	return v
}

// Title is what the pane's border says: "Terminal", "Terminal — running:
// go test ./..." while the agent runs a command, or the window title the
// shell's program set.
func (v *View) Title() string {
	title := v.name
	if v.tag != nil {
		if tag := v.tag(); tag != "" {
			title += " · " + tag
		}
	}
	if cmd := v.term.AgentCommand(); cmd != "" {
		title += " — running: " + oneLine(cmd, 60)
	} else if r := v.term.Replaced(); r != "" {
		title += " — " + oneLine(r, 20) + " (exec'd: no fawn markers)"
	} else if t := v.term.Title(); t != "" {
		title += " — " + oneLine(t, 60)
	}
	if v.rang() {
		title += " " + BellMark
	}
	return title
}

// Running names the programs running in the pane's shell, which would end
// with it (terminal.Terminal.Running).
func (v *View) Running() []string { return v.term.Running() }

// BellMark is added to the title while a bell the user has not seen
// rang: one rung while the pane did not have focus.
const BellMark = "🔔"

// rang says whether a program rang the bell since the pane last had focus.
func (v *View) rang() bool {
	n := v.term.Bells()
	if v.HasFocus() {
		v.bellsSeen = n
	}
	return n > v.bellsSeen
}

// oneLine shortens s to its first line and at most n runes.
func oneLine(s string, n int) string {
	s = strings.TrimSpace(s)
	first, rest, more := strings.Cut(s, "\n")
	first = strings.TrimSpace(first)
	if utf8.RuneCountInString(first) > n {
		first = string([]rune(first)[:n-1])
		more = true
	}
	if more || strings.TrimSpace(rest) != "" {
		first += " …"
	}
	return first
}

// Draw draws the border, then the terminal's cells; a change of the inner
// size resizes the pty first.
func (v *View) Draw(screen tcell.Screen) {
	v.SetTitle(" " + v.Title() + " ")
	if v.HasFocus() {
		v.SetBorderColor(v.theme.Accent)
		v.SetTitleColor(v.theme.Accent)
	} else {
		v.SetBorderColor(v.theme.Border)
		v.SetTitleColor(v.theme.Foreground)
	}
	v.DrawForSubclass(screen, v)
	x, y, w, h := v.GetInnerRect()
	if w <= 0 || h <= 0 {
		return
	}
	if w != v.cols || h != v.rows {
		if w != v.cols {
			// The lines reflow to the new width: a selection's places
			// no longer hold its text.
			v.sel, v.ksel = nil, nil
		}
		v.term.Resize(w, h)
		v.cols, v.rows = w, h
	}
	base := tcell.StyleDefault.Foreground(v.theme.Foreground).Background(v.theme.Background)
	d := v.term.DrawTo(screen, x, y, w, h, terminal.DrawOptions{ScrollBack: v.back, Anchor: v.anchor, Style: base})
	v.back, v.anchor, v.lines = d.ScrollBack, d.Pushed, d.Lines
	v.takeClipboard()
	v.pushed = d.Pushed
	v.curX, v.curY = d.CursorX, d.CursorY
	if v.ksel != nil {
		// The selection cursor: a reversed cell.
		cx, cy := v.ksel.at.Col, int(v.ksel.at.Line-int64(v.pushed)+int64(v.back))
		if cy >= 0 && cy < h && cx >= 0 && cx < w {
			r, comb, st, _ := screen.GetContent(x+cx, y+cy)
			screen.SetContent(x+cx, y+cy, r, comb, st.Reverse(true))
		}
	}
	if v.sel != nil {
		for cy := 0; cy < h; cy++ {
			for cx := 0; cx < w; cx++ {
				if v.selected(v.spotAt(cx, cy)) {
					r, comb, st, _ := screen.GetContent(x+cx, y+cy)
					screen.SetContent(x+cx, y+cy, r, comb, st.Background(v.theme.Selection))
				}
			}
		}
	}
	v.drawEscapeHint(screen, x, y+h, w)
	tag := ""
	if v.ksel != nil {
		tag = v.keySelectHint()
	}
	if v.back > 0 {
		tag += fmt.Sprintf(" ↑ %d/%d ", v.back, v.lines)
	}
	if tag != "" {
		tview.Print(screen, tag, x, y, w, tview.AlignRight, v.theme.Accent)
	}
	if v.find != nil {
		v.drawFind(screen, x, y, w, h, d)
		return
	}
	if v.HasFocus() && d.CursorVisible && v.ksel == nil {
		screen.ShowCursor(x+d.CursorX, y+d.CursorY)
		screen.SetCursorStyle(d.CursorShape)
	}
}

// findKey handles a key while the search is open (FindKeys): typing the
// query, or stepping through the matches.
func (v *View) findKey(ev *tcell.EventKey) {
	f := v.find
	switch a := v.keyset.Find.Action(ev); {
	case a == ActionFindClose:
		v.find = nil
	case f.typing && a == ActionFindDone:
		f.typing = false
	case f.typing && a == ActionFindBackspace:
		if r := []rune(f.query); len(r) > 0 {
			f.query = string(r[:len(r)-1])
			v.search(true)
		}
	case f.typing && isTyping(ev):
		f.query += string(ev.Rune())
		v.search(true)
	case a == ActionFindOlder:
		v.step(-1)
	case a == ActionFindNewer:
		v.step(1)
	case !f.typing && a == ActionFindEdit:
		f.typing = true
	}
}

// findHint is the key of a search action as the status line shows it.
func (v *View) findHint(a keymap.Action) string { return tview.Escape(v.keyset.Find.Hint(a)) }

// search finds the query again; jump goes to the newest match.
func (v *View) search(jump bool) {
	f := v.find
	f.matches, f.lines = v.term.Find(f.query)
	f.started = true
	if jump || f.cur >= len(f.matches) {
		f.cur = len(f.matches) - 1
	}
	v.reveal()
}

// step goes to the older (-1) or newer (+1) match, around the ends.
func (v *View) step(dir int) {
	f := v.find
	if len(f.matches) == 0 {
		return
	}
	f.cur = (f.cur + dir + len(f.matches)) % len(f.matches)
	v.reveal()
}

// reveal scrolls so that the current match is in view, near the middle.
func (v *View) reveal() {
	f := v.find
	if f.cur < 0 || f.cur >= len(f.matches) {
		return
	}
	rows := max(v.rows-1, 1) // the last row is the search bar
	sbLen := f.lines - v.rows
	line := f.matches[f.cur].Line
	if line >= sbLen && line-sbLen < rows {
		v.back = 0
		return
	}
	v.back = max(0, min(sbLen-line+rows/2, sbLen))
}

// drawFind highlights the matches in view and draws the search bar on the
// last row.
func (v *View) drawFind(screen tcell.Screen, x, y, w, h int, d terminal.Drawn) {
	f := v.find
	if f.started && d.Pushed != f.pushed {
		// Output arrived: the lines moved.
		v.search(false)
	}
	f.pushed = d.Pushed
	top := f.lines - h - d.ScrollBack // the line drawn on the first row
	for i, m := range f.matches {
		// A match in a line autowrap split runs on into the next rows.
		for k := 0; k < m.Len; k++ {
			c := m.Col + k
			row := m.Line - top + c/w
			c %= w
			if row < 0 || row >= h-1 {
				continue
			}
			r, comb, st, _ := screen.GetContent(x+c, y+row)
			if i == f.cur {
				st = st.Background(v.theme.Warning).Foreground(tcell.ColorBlack)
			} else {
				st = st.Background(v.theme.Selection)
			}
			screen.SetContent(x+c, y+row, r, comb, st)
		}
	}
	bar := tcell.StyleDefault.Background(v.theme.CursorLine).Foreground(v.theme.Foreground)
	for c := 0; c < w; c++ {
		screen.SetContent(x+c, y+h-1, ' ', nil, bar)
	}
	status := ""
	switch {
	case f.query == "":
		status = "type to search the scrollback · " + v.findHint(ActionFindClose) + " closes"
	case len(f.matches) == 0:
		status = "no match"
	default:
		status = fmt.Sprintf("%d of %d", f.cur+1, len(f.matches))
		if len(f.matches) >= 10000 {
			status += "+"
		}
		if f.typing {
			status += " · " + v.findHint(ActionFindDone) + ": done · " + v.findHint(ActionFindClose) + ": close"
		} else {
			status += " · " + v.findHint(ActionFindOlder) + "/" + v.findHint(ActionFindNewer) + ": older/newer · " +
				v.findHint(ActionFindEdit) + ": edit · " + v.findHint(ActionFindClose) + ": close"
		}
	}
	label := "find: " + tview.Escape(f.query)
	_, end := tview.Print(screen, label, x+1, y+h-1, w-2, tview.AlignLeft, v.theme.Accent)
	if f.typing && v.HasFocus() {
		screen.ShowCursor(x+1+end, y+h-1)
	}
	tview.Print(screen, status, x+1, y+h-1, w-2, tview.AlignRight, v.theme.Dim)
}

// scroll moves the view n lines back (n > 0) or forward.
func (v *View) scroll(n int) {
	v.back = max(0, min(v.back+n, v.lines))
}

// InputHandler sends keys to the shell, except the view's own bindings and
// Ctrl-Q.
func (v *View) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		if v.find != nil {
			v.findKey(ev)
			return
		}
		if v.ksel != nil {
			v.selectKey(ev)
			return
		}
		own := v.afterEscape
		v.afterEscape = false
		switch v.keys.Action(ev) {
		case ActionSelect:
			v.startKeySelect()
			return
		case ActionFind:
			v.find = &finder{typing: true, cur: -1}
			return
		case ActionOpenLink:
			v.openLink(v.term.LastLink())
			return
		case ActionScrollUp:
			v.scroll(max(v.rows-1, 1))
			return
		case ActionScrollDown:
			v.scroll(-max(v.rows-1, 1))
			return
		case ActionInterrupt:
			v.back = 0
			_, _ = v.term.Write([]byte{0x03})
			return
		}
		if own || isQuitKey(ev) {
			return // after the escape key only fawn's keys act
		}
		v.sendKey(ev)
	})
}

func isQuitKey(ev *tcell.EventKey) bool {
	return ev.Key() == tcell.KeyCtrlQ || (ev.Key() == tcell.KeyRune && ev.Modifiers()&tcell.ModCtrl != 0 && (ev.Rune() == 'q' || ev.Rune() == 'Q'))
}

// PasteHandler sends pasted text, bracketed when the program asked for it.
func (v *View) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return v.WrapPasteHandler(func(text string, _ func(p tview.Primitive)) {
		v.back = 0
		v.term.Paste(text)
	})
}

// MouseHandler focuses the view on a click, reports mouse events to
// programs that asked for them, and otherwise scrolls with the wheel (in
// the alternate screen, where there is no scrollback, the wheel sends
// arrow keys, as xterm does).
func (v *View) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return v.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !v.InRect(mx, my) && v.held == noButton {
			return false, nil
		}
		x, y, w, h := v.GetInnerRect()
		cx := min(max(mx-x, 0), w-1)
		cy := min(max(my-y, 0), h-1)
		modes := v.term.Modes()
		if action == tview.MouseLeftDown && ev.Modifiers()&tcell.ModCtrl != 0 {
			if url := v.term.LinkAt(v.spotAt(cx, cy)); url != "" {
				setFocus(v)
				v.openLink(url)
				return true, nil
			}
		}
		// The mouse is the user's, to select text, unless the program asked
		// for it; Shift takes it back from the program, as in xterm.
		if modes.Mouse == 0 || v.back > 0 || ev.Modifiers()&tcell.ModShift != 0 || (v.sel != nil && v.sel.dragging) {
			if done, capture := v.selectionMouse(action, v.spotAt(cx, cy), setFocus); done {
				return true, capture
			}
		}
		btn, release, motion, ok := mouseButtonOf(action, v.held)
		if !ok {
			// Clicks and double clicks are reported as their downs and ups.
			return true, nil
		}
		if btn >= 0 && btn <= 2 && !release {
			setFocus(v)
		}
		if modes.Mouse != 0 && v.back == 0 {
			if btn == noButton && release {
				btn = 0
			}
			if b := encodeMouse(btn, release, motion, cx, cy, ev.Modifiers(), modes); b != nil {
				_, _ = v.term.Write(b)
			}
		} else if btn == 64 || btn == 65 {
			v.wheel(btn == 64, modes)
		}
		return true, v.holdMouse(btn, release)
	})
}

// selectionMouse gives the mouse to selecting text: it reports whether
// the action was handled so, and whether the pane keeps the mouse after.
func (v *View) selectionMouse(action tview.MouseAction, at Spot, setFocus func(p tview.Primitive)) (done bool, capture tview.Primitive) {
	switch action {
	case tview.MouseLeftDown, tview.MouseLeftUp, tview.MouseLeftDoubleClick:
		if action == tview.MouseLeftDown {
			setFocus(v)
		}
		v.selectMouse(action, at)
		if action == tview.MouseLeftDown && v.sel != nil && v.sel.dragging {
			v.held = 0
			return true, v
		}
		v.held = noButton
		return true, nil
	case tview.MouseMove:
		if v.sel != nil && v.sel.dragging {
			v.selectMouse(action, at)
			return true, v
		}
	case tview.MouseLeftClick:
		return true, nil
	}
	return false, nil
}

// mouseButtonOf is the button an action reports to a program (held is the
// one held down, for a release or a drag), and whether it is a release or
// a motion; ok is false for an action reported only as its down and up.
func mouseButtonOf(action tview.MouseAction, held mouseButton) (btn mouseButton, release, motion, ok bool) {
	switch action {
	case tview.MouseLeftDown:
		return 0, false, false, true
	case tview.MouseMiddleDown:
		return 1, false, false, true
	case tview.MouseRightDown:
		return 2, false, false, true
	case tview.MouseLeftUp, tview.MouseMiddleUp, tview.MouseRightUp:
		return held, true, false, true
	case tview.MouseScrollUp:
		return 64, false, false, true
	case tview.MouseScrollDown:
		return 65, false, false, true
	case tview.MouseScrollLeft:
		return 66, false, false, true
	case tview.MouseScrollRight:
		return 67, false, false, true
	case tview.MouseMove:
		return held, false, true, true
	}
	return noButton, false, false, false
}

// holdMouse notes the button held down after btn was pressed or released,
// and returns the pane while one is, to keep receiving the drag and the
// release outside it.
func (v *View) holdMouse(btn mouseButton, release bool) tview.Primitive {
	switch {
	case release:
		v.held = noButton
		return nil
	case btn >= 0 && btn <= 2:
		v.held = btn
		return v
	case v.held != noButton:
		return v
	}
	return nil
}

func (v *View) wheel(up bool, m terminal.Modes) {
	if m.AltScreen {
		key := tcell.KeyDown
		if up {
			key = tcell.KeyUp
		}
		seq := encodeKey(tcell.NewEventKey(key, 0, tcell.ModNone), m)
		_, _ = v.term.Write([]byte(strings.Repeat(string(seq), wheelLines)))
		return
	}
	if up {
		v.scroll(wheelLines)
	} else {
		v.scroll(-wheelLines)
	}
}

// Focus reports focus to programs that asked for it (vim's FocusGained).
func (v *View) Focus(delegate func(p tview.Primitive)) {
	v.Box.Focus(delegate)
	if v.term.Modes().Focus {
		_, _ = v.term.Write([]byte("\x1b[I"))
	}
}

// Blur reports the loss of focus likewise.
func (v *View) Blur() {
	v.Box.Blur()
	if v.term.Modes().Focus {
		_, _ = v.term.Write([]byte("\x1b[O"))
	}
}
