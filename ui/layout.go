package ui

import (
	"fmt"
	"slices"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Minimum screen size; below it the layout says so instead of drawing panes.
const (
	minWidth  = 40
	minHeight = 10
	// narrowWidth: below it the panes stack instead of sitting side by side.
	narrowWidth = 100
	// chatMinWidth is the narrowest the chat gets beside the editor: 3/7 of
	// 100–139 columns is 43–59, which leaves a command card's command cut
	// after 40 characters; below 140 columns the editor gives way instead,
	// down to editorMinWidth (still room for a line of code, and the
	// explorer still opens beside it). The user's own split (Resize) may
	// widen the chat further, never narrow it below this.
	chatMinWidth   = 60
	editorMinWidth = 40
)

// frame draws a bordered pane around a child primitive; the border is the
// accent colour while the child has focus.
type frame struct {
	*tview.Box
	child tview.Primitive
	th    *theme.Theme
	title func() render.Line
	kept  render.Kept // the border the last frame drew
}

func newFrame(child tview.Primitive, th *theme.Theme, title func() render.Line) *frame {
	f := &frame{Box: tview.NewBox(), child: child, th: th, title: title}
	f.SetBackgroundColor(th.Background)
	return f
}

func (f *frame) borderStyle() tcell.Style {
	if f.child.HasFocus() {
		return tcell.StyleDefault.Foreground(f.th.Accent)
	}
	return tcell.StyleDefault.Foreground(f.th.Border)
}

func (f *frame) Draw(screen tcell.Screen) {
	x, y, w, h := f.GetRect()
	if w <= 0 || h <= 0 {
		return
	}
	var title render.Line
	if f.title != nil {
		title = f.title()
	}
	if style := f.borderStyle(); !render.Keep(screen, &f.kept, [4]int{x, y, w, h}, style, title, nil) {
		render.DrawBorder(screen, x, y, w, h, style, title)
	}
	if w > 2 && h > 2 {
		f.child.SetRect(x+1, y+1, w-2, h-2)
		f.child.Draw(screen)
	}
}

func (f *frame) Focus(delegate func(p tview.Primitive)) { delegate(f.child) }
func (f *frame) HasFocus() bool                         { return f.child.HasFocus() }
func (f *frame) Blur()                                  { f.child.Blur() }

func (f *frame) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return f.child.InputHandler()
}

func (f *frame) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return f.child.PasteHandler()
}

func (f *frame) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		if !f.InRect(ev.Position()) {
			return false, nil
		}
		if h := f.child.MouseHandler(); h != nil {
			if ok, capture := h(action, ev, setFocus); ok || capture != nil {
				return ok, capture
			}
		}
		if action == tview.MouseLeftDown {
			setFocus(f.child)
			return true, nil
		}
		return false, nil
	}
}

// stripTab is one tab of the bottom strip.
type stripTab struct {
	pane  panes.Pane
	prim  tview.Primitive
	title func() string
}

// Strip is the bottom-right tabbed pane: Terminal | To-do. Its tab labels sit
// in its top border; a click on one switches to it.
type Strip struct {
	*tview.Box
	th     *theme.Theme
	tabs   []stripTab
	active int
	labels [][2]int // x range of each label in the last draw
	// marked tabs changed while hidden; their label shows a dot.
	marked map[int]bool
	// used is when the terminal was last in use (output, keys); now is the
	// clock (tests set it).
	used time.Time
	now  func() time.Time
}

// stripIdle is how long the terminal must have been quiet before the agent's
// to-do list may take its place in the strip: output the user may be
// reading is never pulled away from them.
const stripIdle = 10 * time.Second

func newStrip(th *theme.Theme, tabs ...stripTab) *Strip {
	s := &Strip{Box: tview.NewBox(), th: th, tabs: tabs, marked: map[int]bool{}, now: time.Now}
	s.SetBackgroundColor(th.Background)
	return s
}

// Touch records that the terminal is in use now: output arrived, or the
// user typed into it.
func (s *Strip) Touch() { s.used = s.now() }

// Reveal brings p's tab forward unless the tab shown is in use: focused
// (focused is true), or the terminal with output or keys in the last
// stripIdle. Then p's tab only gets a badge. It reports whether it switched.
func (s *Strip) Reveal(p panes.Pane, focused bool) bool {
	if s.Active() == p {
		return false
	}
	if focused || (s.Active() == panes.Terminal && s.now().Sub(s.used) < stripIdle) {
		s.Mark(p)
		return false
	}
	s.Show(p)
	return true
}

// Active returns the pane of the tab shown.
func (s *Strip) Active() panes.Pane { return s.tabs[s.active].pane }

// Show switches to the tab of p (for the terminal, the agent's: the
// first).
func (s *Strip) Show(p panes.Pane) {
	for i, t := range s.tabs {
		if t.pane == p {
			s.active = i
			delete(s.marked, i)
			return
		}
	}
}

// Mark flags p's tab as changed while hidden.
func (s *Strip) Mark(p panes.Pane) {
	for i, t := range s.tabs {
		if t.pane == p {
			if i != s.active {
				s.marked[i] = true
			}
			return
		}
	}
}

// ShowPrim switches to the tab holding prim.
func (s *Strip) ShowPrim(prim tview.Primitive) {
	for i, t := range s.tabs {
		if t.prim == prim {
			s.active = i
			delete(s.marked, i)
			return
		}
	}
}

// AddTerminal adds a terminal tab after the last one.
func (s *Strip) AddTerminal(t stripTab) {
	at := 0
	for i, x := range s.tabs {
		if x.pane == panes.Terminal {
			at = i + 1
		}
	}
	s.tabs = slices.Insert(s.tabs, at, t)
	if s.active >= at {
		s.active++
	}
	marked := map[int]bool{}
	for i := range s.marked {
		if i >= at {
			i++
		}
		marked[i] = true
	}
	s.marked = marked
}

// Remove takes away the tab holding prim; the one before it is shown if
// it was.
func (s *Strip) Remove(prim tview.Primitive) {
	for i, t := range s.tabs {
		if t.prim != prim {
			continue
		}
		s.tabs = slices.Delete(s.tabs, i, i+1)
		marked := map[int]bool{}
		for j := range s.marked {
			switch {
			case j < i:
				marked[j] = true
			case j > i:
				marked[j-1] = true
			}
		}
		s.marked = marked
		if s.active >= i && s.active > 0 {
			s.active--
		}
		return
	}
}

// terminalFocused says whether a terminal tab has the focus.
func (s *Strip) terminalFocused() bool {
	for _, t := range s.tabs {
		if t.pane == panes.Terminal && t.prim.HasFocus() {
			return true
		}
	}
	return false
}

// nextTerminal is the terminal to focus: the one shown, or with next set,
// the one after it (around); the agent's when no terminal tab is shown.
func (s *Strip) nextTerminal(next bool) tview.Primitive {
	var terms []int
	for i, t := range s.tabs {
		if t.pane == panes.Terminal {
			terms = append(terms, i)
		}
	}
	k := slices.Index(terms, s.active)
	switch {
	case k < 0:
		return s.tabs[terms[0]].prim
	case next:
		return s.tabs[terms[(k+1)%len(terms)]].prim
	}
	return s.tabs[s.active].prim
}

func (s *Strip) current() tview.Primitive { return s.tabs[s.active].prim }

func (s *Strip) Draw(screen tcell.Screen) {
	x, y, w, h := s.GetRect()
	if w <= 0 || h <= 0 {
		return
	}
	focused := s.current().HasFocus()
	border := tcell.StyleDefault.Foreground(s.th.Border)
	if focused {
		border = border.Foreground(s.th.Accent)
	}
	render.DrawBorder(screen, x, y, w, h, border, nil)
	s.labels = s.labels[:0]
	lx := x + 2
	for i, t := range s.tabs {
		// A title may be a program's (OSC 2 in the pane) or the agent's
		// command: shown, never raw.
		title := safetext.Line(t.title())
		label := " " + title + " "
		if s.marked[i] {
			label = " " + title + " • "
		}
		st := tcell.StyleDefault.Foreground(s.th.Dim)
		if i == s.active {
			st = tcell.StyleDefault.Foreground(s.th.Foreground).Bold(true)
			if focused {
				st = st.Foreground(s.th.Accent)
			}
		}
		if i > 0 {
			lx = render.DrawText(screen, lx, y, x+w-2-lx, "│", border)
		}
		end := render.DrawLine(screen, lx, y, x+w-2-lx, render.TruncateLine(render.Line{{Text: label, Style: st}}, max(0, x+w-2-lx)))
		s.labels = append(s.labels, [2]int{lx, end})
		lx = end
	}
	if w > 2 && h > 2 {
		p := s.current()
		p.SetRect(x+1, y+1, w-2, h-2)
		p.Draw(screen)
	}
}

func (s *Strip) Focus(delegate func(p tview.Primitive)) { delegate(s.current()) }
func (s *Strip) HasFocus() bool                         { return s.current().HasFocus() }
func (s *Strip) Blur()                                  { s.current().Blur() }

func (s *Strip) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return s.current().InputHandler()
}

func (s *Strip) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return s.current().PasteHandler()
}

// tabAt returns the tab whose label is at x, y, or -1.
func (s *Strip) tabAt(mx, my int) int {
	_, y, _, _ := s.GetRect()
	if my != y {
		return -1
	}
	for i, r := range s.labels {
		if mx >= r[0] && mx < r[1] {
			return i
		}
	}
	return -1
}

func (s *Strip) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !s.InRect(mx, my) {
			return false, nil
		}
		if i := s.tabAt(mx, my); i >= 0 {
			if action == tview.MouseLeftClick || action == tview.MouseLeftDown {
				s.active = i
				delete(s.marked, i)
				setFocus(s.current())
			}
			return true, nil
		}
		if h := s.current().MouseHandler(); h != nil {
			if ok, capture := h(action, ev, setFocus); ok || capture != nil {
				return ok, capture
			}
		}
		if action == tview.MouseLeftDown {
			setFocus(s.current())
			return true, nil
		}
		return false, nil
	}
}

// Layout arranges the panes: the chat on the left (about 3/7 of the width),
// the editor over the Terminal | To-do strip on the right, the status bar
// below. Narrow screens stack the panes; a zoomed pane fills the screen;
// below the minimum size a message says so.
type Layout struct {
	*tview.Box
	th     *theme.Theme
	chat   tview.Primitive
	editor tview.Primitive
	strip  *Strip
	status tview.Primitive
	// explorer, when shown, takes the left part of the editor's place.
	explorer      tview.Primitive
	explorerShown bool
	// tasks is the task bar, the top row while tasksShown says so (more
	// than one task).
	tasks      tview.Primitive
	tasksShown func() bool

	// chatFrac is the chat's share of the width, editorFrac the editor's
	// share of the right column's height (of the height when stacked).
	chatFrac, editorFrac float64
	zoomed               bool
	zoomPane             panes.Pane

	overlays []overlay
}

// overlay is drawn over the panes when visible; a modal one takes all input.
type overlay interface {
	tview.Primitive
	InRect(x, y int) bool
	Visible() bool
	Modal() bool
}

func newLayout(th *theme.Theme, chat, editor tview.Primitive, strip *Strip, status tview.Primitive) *Layout {
	l := &Layout{Box: tview.NewBox(), th: th, chat: chat, editor: editor, strip: strip, status: status,
		chatFrac: 3.0 / 7.0, editorFrac: 0.7}
	return l
}

// pane returns the primitive that holds p.
func (l *Layout) pane(p panes.Pane) tview.Primitive {
	switch p {
	case panes.Chat:
		return l.chat
	case panes.Editor:
		return l.editor
	case panes.Explorer:
		if l.explorer != nil {
			return l.explorer
		}
		return l.editor
	default:
		return l.strip
	}
}

// placeEditor puts the editor (and the explorer, when shown, on its left)
// in the rectangle given.
func (l *Layout) placeEditor(screen tcell.Screen, x, y, w, h int) {
	if l.explorerShown && l.explorer != nil && w >= 40 {
		ew := min(36, max(20, w/3))
		l.explorer.SetRect(x, y, ew, h)
		l.explorer.Draw(screen)
		x, w = x+ew, w-ew
	}
	l.editor.SetRect(x, y, w, h)
	l.editor.Draw(screen)
}

// TooSmall reports whether the screen is below the minimum size.
func (l *Layout) TooSmall() bool {
	_, _, w, h := l.GetRect()
	return w < minWidth || h < minHeight
}

// Narrow reports whether the panes are stacked.
func (l *Layout) Narrow() bool {
	_, _, w, _ := l.GetRect()
	return w < narrowWidth
}

// ToggleZoom zooms p to the whole screen, or back.
func (l *Layout) ToggleZoom(p panes.Pane) {
	if l.zoomed && l.pane(l.zoomPane) == l.pane(p) {
		l.zoomed = false
		return
	}
	l.zoomed, l.zoomPane = true, p
}

// Resize moves the splits: dx grows the chat, dy grows the editor (steps of
// 1/20). The shares stay between 15% and 85%.
func (l *Layout) Resize(dx, dy int) {
	clamp := func(f float64) float64 { return min(0.85, max(0.15, f)) }
	l.chatFrac = clamp(l.chatFrac + float64(dx)*0.05)
	l.editorFrac = clamp(l.editorFrac + float64(dy)*0.05)
}

func (l *Layout) Draw(screen tcell.Screen) {
	x, y, w, h := l.GetRect()
	// The app fills the screen with the background once per frame (one
	// lock, not one per cell); panes draw only their content over it.
	bg := tcell.StyleDefault.Background(l.th.Background)
	if w < minWidth || h < minHeight {
		msg := fmt.Sprintf("fawn needs at least %d×%d; this terminal is %d×%d.", minWidth, minHeight, w, h)
		lines := render.WrapText(msg+" Enlarge it, or press Ctrl-Q to quit.", bg.Foreground(l.th.Warning), w, nil, nil)
		for i, ln := range lines {
			if i < h {
				render.DrawLine(screen, x, y+i, w, ln)
			}
		}
		return
	}
	l.status.SetRect(x, y+h-1, w, 1)
	l.status.Draw(screen)
	h--
	if l.tasks != nil && l.tasksShown != nil && l.tasksShown() {
		l.tasks.SetRect(x, y, w, 1)
		l.tasks.Draw(screen)
		y, h = y+1, h-1
	}
	if l.zoomed {
		p := l.pane(l.zoomPane)
		p.SetRect(x, y, w, h)
		p.Draw(screen)
	} else if w < narrowWidth {
		ch := max(3, h*45/100)
		rest := h - ch
		eh := min(max(int(float64(rest)*l.editorFrac*0.75+0.5), 3), rest-3)
		l.chat.SetRect(x, y, w, ch)
		l.strip.SetRect(x, y+ch+eh, w, h-ch-eh)
		l.chat.Draw(screen)
		l.placeEditor(screen, x, y+ch, w, eh)
		l.strip.Draw(screen)
	} else {
		cw := chatWidth(w, l.chatFrac)
		eh := int(float64(h)*l.editorFrac + 0.5)
		eh = min(max(eh, 3), h-3)
		l.chat.SetRect(x, y, cw, h)
		l.strip.SetRect(x+cw, y+eh, w-cw, h-eh)
		l.chat.Draw(screen)
		l.placeEditor(screen, x+cw, y, w-cw, eh)
		l.strip.Draw(screen)
	}
	for _, o := range l.overlays {
		if o.Visible() {
			o.SetRect(x, y, w, h)
			o.Draw(screen)
		}
	}
}

// chatWidth is the chat's width beside the editor on a screen w wide: its
// share, but never under chatMinWidth unless the editor would drop under
// editorMinWidth.
func chatWidth(w int, frac float64) int {
	cw := int(float64(w)*frac + 0.5)
	return max(cw, min(chatMinWidth, w-editorMinWidth))
}

// chatAlone reports whether the chat and the status bar can be redrawn on
// their own (DrawChat): not when the screen is too small, nor while an
// overlay is shown (it may cover the chat, or close over another pane).
func (l *Layout) chatAlone() bool {
	if l.TooSmall() {
		return false
	}
	for _, o := range l.overlays {
		if o.Visible() {
			return false
		}
	}
	return true
}

// DrawChat redraws only the chat and the status bar, where the last full
// Draw put them, over what buf holds from the last frame; the caller has
// checked chatAlone.
func (l *Layout) DrawChat(buf *render.Buffer) {
	for _, p := range []tview.Primitive{l.status, l.chat} {
		if p == l.chat && l.zoomed && l.pane(l.zoomPane) != l.chat {
			continue // another pane fills the screen
		}
		// The status bar fills its row, the chat's frame draws its border
		// and the chat every cell inside it; each skips what is as the
		// last frame drew it.
		p.Draw(buf)
	}
}

// modalOverlay returns the topmost visible modal overlay, or nil.
func (l *Layout) modalOverlay() overlay {
	for i := len(l.overlays) - 1; i >= 0; i-- {
		if o := l.overlays[i]; o.Visible() && o.Modal() {
			return o
		}
	}
	return nil
}

func (l *Layout) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		if l.TooSmall() {
			return false, nil
		}
		if o := l.modalOverlay(); o != nil {
			if h := o.MouseHandler(); h != nil {
				h(action, ev, setFocus)
			}
			return true, nil // a modal dialog swallows clicks elsewhere
		}
		for i := len(l.overlays) - 1; i >= 0; i-- {
			o := l.overlays[i]
			if o.Visible() && o.InRect(ev.Position()) {
				if h := o.MouseHandler(); h != nil {
					return h(action, ev, setFocus)
				}
			}
		}
		prims := []tview.Primitive{l.chat, l.editor, l.strip}
		if l.tasks != nil && l.tasksShown != nil && l.tasksShown() {
			prims = append(prims, l.tasks)
		}
		if l.explorerShown && l.explorer != nil {
			prims = append(prims, l.explorer)
		}
		for _, prim := range prims {
			if l.zoomed && prim != l.pane(l.zoomPane) && prim != l.tasks {
				continue
			}
			if h := prim.MouseHandler(); h != nil {
				if ok, capture := h(action, ev, setFocus); ok || capture != nil {
					return ok, capture
				}
			}
		}
		return false, nil
	}
}

// EditorPane is what the app needs of the editor tabs (*editor.Tabs): what
// the chat's router drives.
type EditorPane = chat.Editor

// TerminalPane is the terminal view (*termview.View). The bottom strip draws
// its border: a pane with a border of its own has it turned off, and its
// Title() (or, failing that, its Box title) is shown on the strip's tab.
type TerminalPane interface {
	tview.Primitive
}

// placeholder stands in for a pane that was not provided.
type placeholder struct {
	*tview.Box
	text string
	th   *theme.Theme
}

func newPlaceholder(text string, th *theme.Theme) *placeholder {
	p := &placeholder{Box: tview.NewBox(), text: text, th: th}
	p.SetBackgroundColor(th.Background)
	return p
}

func (p *placeholder) Draw(screen tcell.Screen) {
	x, y, w, h := p.GetInnerRect()
	if h > 0 {
		render.DrawText(screen, x+1, y, w-1, p.text, tcell.StyleDefault.Foreground(p.th.Dim))
	}
}

func (p *placeholder) AgentViewed(tools.FileViewed)   {}
func (p *placeholder) AgentChanged(tools.FileChanged) {}
func (p *placeholder) Open(string, int) error         { return nil }

// The file explorer (ui/explorer) sits at the left of the editor while it
// is shown. It is built the first time it is asked for, so it costs nothing
// at start-up; the paths changed before that are marked when it comes.

// explorerPane returns the explorer, building it on first use.
func (a *App) explorerPane() *explorer.Explorer {
	if a.task.explorer != nil {
		return a.task.explorer
	}
	a.task.explorer = explorer.New(a.task.root, a.th, a.keys.explorer, a.post, explorer.WithWatcher(a.task.opts.Watcher), explorer.WithPromptKeys(a.keys.explorerAsk))
	a.task.explorer.OnOpen = func(path string) {
		if ed := a.task.EditorPane(); ed != nil {
			if err := ed.Open(path, 0); err != nil {
				a.flash("could not open " + render.RelPath(a.task.root, path) + ": " + err.Error())
				return
			}
			a.focusOn(panes.Editor)
		}
	}
	for _, p := range a.task.changedPaths {
		a.task.explorer.MarkChanged(p)
	}
	a.task.changedPaths = nil
	ex := a.task.explorer
	a.task.explorerFrame = newFrame(ex, &a.th, func() render.Line { return a.paneTitle("Files", ex) })
	a.layout.explorer = a.task.explorerFrame
	return ex
}

// toggleExplorer is Alt-X: show the explorer and focus it; focused, hide it.
func (a *App) toggleExplorer() {
	if a.task.root == "" {
		a.flash("no project directory to show")
		return
	}
	ex := a.explorerPane()
	switch {
	case !a.layout.explorerShown:
		a.layout.explorerShown = true
		a.focusOn(panes.Explorer)
	case ex.HasFocus():
		a.layout.explorerShown = false
		a.focusOn(panes.Editor)
	default:
		a.focusOn(panes.Explorer)
	}
}

// FileChanged marks a file the agent changed in the explorer.
func (t *Task) FileChanged(path string) {
	if t.explorer != nil {
		t.explorer.MarkChanged(path)
		return
	}
	if len(t.changedPaths) < 10_000 {
		t.changedPaths = append(t.changedPaths, path)
	}
}

// explorerFocused reports whether the explorer has the keyboard.
func (a *App) explorerFocused() bool { return a.task.explorer != nil && a.task.explorer.HasFocus() }
