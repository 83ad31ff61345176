package ui

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/display"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
)

// frameInterval bounds drawing to about 60 frames a second.
const frameInterval = time.Second / 60

// streamFrameInterval bounds the frames an answer streaming in causes to 30
// a second: the text reads as smoothly, and each frame costs the terminal
// its fixed bytes (cursor, synchronized output) and fawn a diff of the
// screen. A key pressed meanwhile is still drawn at once.
const streamFrameInterval = time.Second / 30

// spinInterval is how often spinners move while something runs.
const spinInterval = 100 * time.Millisecond

// settleAfter is how long after the first frame the start-up's work that
// nobody sees yet waits (see Run).
const settleAfter = 250 * time.Millisecond

// doubleClick is the longest gap between the clicks of a double click.
const doubleClick = 500 * time.Millisecond

// SignalError is Run's error when a signal (SIGTERM, SIGHUP, SIGINT, SIGQUIT) ended
// it, so the process can exit with 128+N as shells expect.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string { return "stopped by " + e.Signal.String() }

// Redraw forwards draw requests to an App built after the code that makes
// them: create it first, pass its Request as a callback (the terminal's
// OnDamage), and set Options.Redraw. Until the App exists requests are
// dropped; nothing is on screen yet anyway.
type Redraw struct{ app atomic.Pointer[App] }

// Request asks the bound App to draw; safe from any goroutine, never blocks.
func (r *Redraw) Request() {
	if a := r.app.Load(); a != nil {
		a.RequestDraw()
	}
}

// RequestDraw asks for a redraw. It is safe from any goroutine, never blocks,
// and is coalesced: however often it is called, the screen is drawn at most
// once per frame, and not at all when nobody asked.
func (a *App) RequestDraw() {
	a.others.Store(true)
	a.requestFrame()
}

// RequestDrawNow is RequestDraw for what the user waits for and that ends
// a burst (a shell's prompt): the frame is drawn at once, whatever the
// frame before it, as after a key.
func (a *App) RequestDrawNow() {
	a.now.Store(true)
	a.RequestDraw()
}

// requestFrame asks for a frame that redraws the chat and the status bar
// (RequestDraw asks for everything).
func (a *App) requestFrame() {
	a.dirty.Store(true)
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// post queues f to run on the UI goroutine and asks for a draw after it. It
// never blocks; the queue is unbounded so no event is ever dropped.
func (a *App) post(f func()) {
	a.mu.Lock()
	a.inbox = append(a.inbox, f)
	a.mu.Unlock()
	a.RequestDraw()
}

// postChat is post for a function that changes only what the chat and the
// status bar show (a text delta): the frame after it redraws only those.
func (a *App) postChat(f func()) {
	a.mu.Lock()
	a.inbox = append(a.inbox, f)
	a.mu.Unlock()
	a.dirty.Store(true)
	if a.timerSet.Load() {
		return // the frame timer wakes the loop, which drains the inbox first
	}
	a.requestFrame()
}

// QueueUpdate runs f on the UI goroutine (soon, not before it returns) and
// redraws. Safe from any goroutine, including the UI goroutine itself.
func (a *App) QueueUpdate(f func()) { a.post(f) }

// Stop ends Run. Safe from any goroutine.
func (a *App) Stop() {
	a.quitOnce.Do(func() { close(a.quit) })
}

// Run shows the screen and runs until Ctrl-Q, /exit, SIGTERM, SIGHUP,
// SIGINT, SIGQUIT, Stop or ctx is done. It always restores the terminal; a panic (on
// this goroutine or one started with Go) restores it, writes a crash log
// under config.DataDir, prints its path and exits with status 1.
func (a *App) Run(ctx context.Context) (err error) {
	if !a.running.CompareAndSwap(false, true) {
		return errRunning
	}
	if a.screen == nil {
		s, err := newScreen()
		if err != nil {
			return errScreen(err)
		}
		a.screen = s
	}
	if err := a.screen.Init(); err != nil {
		return errScreen(err)
	}
	var cancel context.CancelFunc
	a.runCtx, cancel = context.WithCancel(ctx)
	defer cancel()
	defer a.closeTasks()
	defer func() {
		if p := recover(); p != nil {
			a.crash(p)
			err = errCrashed
		}
	}()
	s := a.screen
	s.EnableMouse(tcell.MouseButtonEvents, tcell.MouseDragEvents)
	s.EnablePaste()
	s.EnableFocus()
	if tty, ok := s.Tty(); ok {
		a.tty = tty
	}
	title := "fawn"
	if a.task.root != "" {
		title = "fawn — " + safetext.Line(filepath.Base(a.task.root))
	}
	s.SetTitle(title)

	sigs := make(chan os.Signal, 1)
	// SIGQUIT too: Go's own handling dumps goroutines and exits at once,
	// leaving the terminal in the alternate screen with the mouse on.
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT)
	defer signal.Stop(sigs)

	events := make(chan tcell.Event, 64)
	stopEvents := make(chan struct{})
	go s.ChannelEvents(events, stopEvents)

	defer func() {
		// Cancel a running turn and give its reader a moment to finish, so
		// the agent sees the cancellation and nothing is left running.
		if a.task.turnCancel != nil {
			a.task.turnCancel()
		}
		if k, ok := a.task.keeper(); ok {
			k.RecordWorkspace(a.task.workspaceState())
		}
		close(stopEvents)
		s.Fini()
		if a.task.explorer != nil {
			a.task.explorer.Close()
		}
		waitTimeout(&a.readers, 3*time.Second)
	}()

	a.draw()
	a.offerRecovery()
	// What nobody sees yet waits until the start-up settles: the shell
	// starts beside fawn and paints its prompt in the frames after the
	// first, and on a busy machine it would wait for a core behind the
	// loading of the lexers (read ahead so that the first file or code
	// block shown does not wait for them), the collection that gives the
	// start-up's garbage back, and FirstFrame (where fawn restores the
	// collector's pace, which starts a collection at once).
	settle := a.settle
	if settle <= 0 {
		settle = settleAfter
	}
	settled := time.AfterFunc(settle, func() {
		if a.opts.FirstFrame != nil {
			a.opts.FirstFrame()
		}
		render.WarmLexers()
		a.releaseMemory()
	})
	defer settled.Stop()
	var l loopState
	defer l.stop()
	// tcell posts a resize at start: at the size of the first frame it
	// is no resize, and drawing that frame again whole would send the
	// terminal the same 10 KiB twice while the shell's prompt waits.
	l.startW, l.startH = s.Size()
	for {
		immediate := false
		select {
		case <-a.quit:
			a.dropUnsaved()
			return nil
		case <-a.runCtx.Done():
			a.keepUnsaved(true)
			return context.Cause(a.runCtx)
		case sig := <-sigs:
			a.keepUnsaved(true)
			return &SignalError{Signal: sig}
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			var skip, quit bool
			immediate, skip, quit = a.event(&l, ev)
			if quit {
				a.dropUnsaved()
				return nil
			}
			if err, ok := ev.(*tcell.EventError); ok {
				return err
			}
			if skip {
				continue
			}
		case <-a.wake:
			a.wakes.Add(1)
		case <-l.drawC:
			l.drawC, l.drawTimer = nil, nil
			a.timerSet.Store(false) // before the drain: see postChat
		case <-l.tickC:
			a.tick()
		}
		a.drain()
		if immediate {
			a.others.Store(true)
			a.dirty.Store(true)
		}
		a.frame(&l, immediate, len(events))
		l.animate(a.animating())
	}
}

// loopState is what Run's loop keeps from one iteration to the next.
type loopState struct {
	lastDraw  time.Time
	drawTimer *time.Timer
	drawC     <-chan time.Time
	ticker    *time.Ticker
	tickC     <-chan time.Time
	m         mouseState
	paste     *strings.Builder // a bracketed paste being gathered
	reached   []eventCallback
	// startW, startH: the first frame's size, until the first resize.
	startW, startH int
}

func (l *loopState) stop() {
	if l.drawTimer != nil {
		l.drawTimer.Stop()
	}
	if l.ticker != nil {
		l.ticker.Stop()
	}
}

// event handles one terminal event: immediate says it should be drawn at
// once, skip that the loop has nothing to drain or draw for it (a
// paste's keys being gathered), quit that the key asked to quit.
func (a *App) event(l *loopState, ev tcell.Event) (immediate, skip, quit bool) {
	switch ev := ev.(type) {
	case *tcell.EventKey:
		if l.paste != nil {
			switch ev.Key() {
			case tcell.KeyRune:
				l.paste.WriteRune(ev.Rune())
			case tcell.KeyEnter:
				l.paste.WriteByte('\n')
			case tcell.KeyTab:
				l.paste.WriteByte('\t')
			}
			return false, true, false
		}
		if !a.handleKey(ev) {
			return false, false, true
		}
		a.scheduleKeep()
		return true, false, false
	case *tcell.EventPaste:
		if ev.Start() {
			l.paste = &strings.Builder{}
			return false, true, false
		}
		if l.paste != nil {
			a.handlePaste(l.paste.String())
			l.paste = nil
		}
		a.scheduleKeep()
		return true, false, false
	case *tcell.EventMouse:
		return a.handleMouse(ev, &l.m), false, false
	case *tcell.EventResize:
		w, h := ev.Size()
		first := w == l.startW && h == l.startH
		l.startW, l.startH = 0, 0
		if first {
			return false, false, false
		}
		a.screen.Sync()
		if a.buf != nil {
			a.buf.Invalidate()
		}
		return true, false, false
	case *tcell.EventFocus:
		a.windowFocused = ev.Focused
	case eventCallback:
		l.reached = append(l.reached, ev)
		return true, false, false
	}
	return false, false, false
}

// frame draws when asked, at most once per frame, or at once when asked
// so (RequestDrawNow); a burst of input (a paste without bracketed paste
// mode, a held key: pending events) is drawn once at its end. Callbacks
// waiting for a drawn frame are called once nothing is left to draw.
func (a *App) frame(l *loopState, immediate bool, pending int) {
	if a.dirty.Load() && pending == 0 {
		interval := frameInterval
		if a.task.router.StreamedSince(l.lastDraw) {
			interval = streamFrameInterval
		}
		now := a.now.Swap(false)
		if since := time.Since(l.lastDraw); immediate || now || since >= interval {
			if l.drawTimer != nil {
				l.drawTimer.Stop()
				l.drawTimer, l.drawC = nil, nil
				a.timerNoLonger()
			}
			a.dirty.Store(false)
			a.drawChanged()
			l.lastDraw = time.Now()
		} else if l.drawTimer == nil {
			l.drawTimer = time.NewTimer(interval - since)
			l.drawC = l.drawTimer.C
			a.timerSet.Store(true)
		}
	}
	if !a.dirty.Load() {
		for _, cb := range l.reached {
			cb.reached()
		}
		l.reached = l.reached[:0]
	}
}

// animate keeps the spinners' ticker while something runs, and only then:
// idle fawn uses no CPU.
func (l *loopState) animate(busy bool) {
	if busy && l.ticker == nil {
		l.ticker = time.NewTicker(spinInterval)
		l.tickC = l.ticker.C
	} else if !busy && l.ticker != nil {
		l.ticker.Stop()
		l.ticker, l.tickC = nil, nil
	}
}

// eventCallback is an event that calls back once the loop has handled every
// event before it and drawn the result (tests wait on it).
type eventCallback interface {
	tcell.Event
	reached()
}

// animating reports whether anything on screen moves by itself: the task
// shown working, or, with the task bar up, any task working.
func (a *App) animating() bool {
	if len(a.tasks) > 1 {
		for _, t := range a.tasks {
			if t.router.Busy() || t.turnRunning() {
				return true
			}
		}
		return false
	}
	return a.task.router.Busy()
}

// tick turns the spinners: every task's (a task shown again spins on), and
// the task bar's, which a frame of the chat alone would not redraw.
func (a *App) tick() {
	a.rctx.Frame++
	for _, t := range a.tasks {
		t.rctx.Frame = a.rctx.Frame
	}
	if len(a.tasks) > 1 {
		a.others.Store(true)
	}
	a.dirty.Store(true)
}

// timerNoLonger is called when the loop stops its frame timer: a delta
// queued after the drain, while the timer was still set, did not wake the
// loop, so it wakes itself for it.
func (a *App) timerNoLonger() {
	a.timerSet.Store(false)
	a.mu.Lock()
	pending := len(a.inbox) > 0
	a.mu.Unlock()
	if pending {
		select {
		case a.wake <- struct{}{}:
		default:
		}
	}
}

// drain runs everything queued for the UI goroutine.
func (a *App) drain() {
	for {
		a.mu.Lock()
		batch := a.inbox
		a.inbox = nil
		a.mu.Unlock()
		if len(batch) == 0 {
			return
		}
		for _, f := range batch {
			f()
		}
		a.dirty.Store(true)
	}
}

// drawChanged is the event loop's frame: when nothing but the chat and the
// status bar changed since the last frame (answer text streaming in,
// spinners turning), it redraws only those two; otherwise everything.
func (a *App) drawChanged() {
	if a.others.Load() || a.buf == nil || a.buf.Screen != a.screen || a.buf.Resized() || !a.layout.chatAlone() {
		a.draw()
		return
	}
	if a.frameStart != nil {
		a.frameStart(false)
	}
	if a.frameHook != nil {
		start := time.Now()
		defer func() { a.frameHook(time.Since(start)) }()
	}
	// The other panes' cells are in the buffer as the last frame left them.
	a.buf.Partial = true
	a.layout.DrawChat(a.buf)
	a.buf.Partial = false
	a.buf.Show()
	a.frames.Add(1)
	a.partialFrames.Add(1)
}

// draw paints the whole screen into the cell buffer, which hands tcell only the
// cells that changed; tcell sends those.
func (a *App) draw() {
	if a.frameStart != nil {
		a.frameStart(true)
	}
	if a.frameHook != nil {
		start := time.Now()
		defer func() { a.frameHook(time.Since(start)) }()
	}
	if a.buf == nil || a.buf.Screen != a.screen {
		a.buf = render.NewBuffer(a.screen)
	}
	s := a.buf
	s.Begin()
	a.others.Store(false)
	w, h := s.Size()
	s.HideCursor()
	s.SetCursorStyle(tcell.CursorStyleDefault) // the terminal pane sets its program's
	s.Fill(' ', tcell.StyleDefault.Background(a.th.Background))
	a.layout.SetRect(0, 0, w, h)
	a.layout.Draw(s)
	s.Show()
	a.frames.Add(1)
}

// handleKey dispatches a key: to a pane that captures keys (the terminal)
// first, then Ctrl-Q, then an open dialog or the help,
// then the global table, then the focused pane. It returns false to quit.
func (a *App) handleKey(ev *tcell.EventKey) bool {
	if a.captured(ev) {
		return true
	}
	action := a.keys.global.Action(ev)
	if action == actAppQuit {
		if a.ask.Visible() {
			return false // a second Ctrl-Q quits without saving
		}
		return !a.requestQuit()
	}
	if a.layout.TooSmall() {
		return true
	}
	if o := a.layout.modalOverlay(); o != nil {
		o.InputHandler()(ev, a.setFocus)
		return true
	}
	switch action {
	case actAppHelp:
		a.help.Toggle()
		return true
	case actPaneNext, actPanePrev:
		order := []panes.Pane{panes.Chat, panes.Editor, panes.Terminal, panes.Todo, panes.Changes}
		if a.layout.explorerShown {
			order = []panes.Pane{panes.Chat, panes.Explorer, panes.Editor, panes.Terminal, panes.Todo, panes.Changes}
		}
		i := 0
		for j, p := range order {
			if p == a.focusPane {
				i = j
			}
		}
		step := 1
		if action == actPanePrev {
			step = len(order) - 1
		}
		a.focusOn(order[(i+step)%len(order)])
		return true
	case actPaneChat:
		a.focusOn(panes.Chat)
		return true
	case actPaneEditor:
		a.focusOn(panes.Editor)
		return true
	case actPaneTerminal:
		a.focusOn(panes.Terminal)
		return true
	case actTerminalNew:
		a.newTerminal()
		return true
	case actPaneTodo:
		a.focusOn(panes.Todo)
		return true
	case actPaneChanges:
		a.focusOn(panes.Changes)
		return true
	case actPaneExplorer:
		a.toggleExplorer()
		return true
	case actPaneZoom:
		a.layout.ToggleZoom(a.focusPane)
		return true
	case actLayoutWider:
		a.layout.Resize(1, 0)
		return true
	case actLayoutNarrower:
		a.layout.Resize(-1, 0)
		return true
	case actLayoutTaller:
		a.layout.Resize(0, 1)
		return true
	case actLayoutShorter:
		a.layout.Resize(0, -1)
		return true
	case actAgentMode:
		a.cycleMode()
		return true
	case actTaskNext:
		a.switchBy(1)
		return true
	case actTaskPrev:
		a.switchBy(-1)
		return true
	case actTaskNumber:
		a.switchToNumber(int(ev.Rune() - '0'))
		return true
	}
	// Everything else — Ctrl-C included — goes to the focused pane; fawn
	// never quits on Ctrl-C (in the terminal it interrupts the command).
	if h := a.layout.pane(a.focusPane).InputHandler(); h != nil {
		h(ev, a.setFocus)
	}
	if a.focusPane == panes.Terminal {
		a.task.strip.Touch()
	}
	a.focusPane = a.focusedPane()
	return true
}

func (a *App) handlePaste(text string) {
	if text == "" {
		return
	}
	if o := a.layout.modalOverlay(); o != nil {
		if h := o.PasteHandler(); h != nil {
			h(text, a.setFocus)
		}
		return
	}
	if h := a.layout.pane(a.focusPane).PasteHandler(); h != nil {
		h(text, a.setFocus)
	}
}

// mouseState turns tcell's button states into tview's mouse actions (down,
// up, click, double click, move, wheel) and remembers which primitive
// captured a drag.
type mouseState struct {
	buttons   tcell.ButtonMask
	downX     int
	downY     int
	lastClick time.Time
	capture   tview.Primitive
}

func (a *App) handleMouse(ev *tcell.EventMouse, m *mouseState) bool {
	x, y := ev.Position()
	b := ev.Buttons()
	var actions []tview.MouseAction
	pressed := b &^ m.buttons
	released := m.buttons &^ b
	if pressed&tcell.Button1 != 0 {
		actions = append(actions, tview.MouseLeftDown)
		m.downX, m.downY = x, y
	}
	if pressed&tcell.Button2 != 0 {
		actions = append(actions, tview.MouseMiddleDown)
	}
	if pressed&tcell.Button3 != 0 {
		actions = append(actions, tview.MouseRightDown)
	}
	if released&tcell.Button1 != 0 {
		actions = append(actions, tview.MouseLeftUp)
		if x == m.downX && y == m.downY {
			if time.Since(m.lastClick) < doubleClick {
				actions = append(actions, tview.MouseLeftDoubleClick)
				m.lastClick = time.Time{}
			} else {
				actions = append(actions, tview.MouseLeftClick)
				m.lastClick = time.Now()
			}
		}
	}
	if released&tcell.Button3 != 0 {
		actions = append(actions, tview.MouseRightUp, tview.MouseRightClick)
	}
	if released&tcell.Button2 != 0 {
		actions = append(actions, tview.MouseMiddleUp, tview.MouseMiddleClick)
	}
	if b&tcell.WheelUp != 0 {
		actions = append(actions, tview.MouseScrollUp)
	}
	if b&tcell.WheelDown != 0 {
		actions = append(actions, tview.MouseScrollDown)
	}
	if b&tcell.WheelLeft != 0 {
		actions = append(actions, tview.MouseScrollLeft)
	}
	if b&tcell.WheelRight != 0 {
		actions = append(actions, tview.MouseScrollRight)
	}
	if len(actions) == 0 && b == m.buttons {
		actions = append(actions, tview.MouseMove)
	}
	m.buttons = b &^ (tcell.WheelUp | tcell.WheelDown | tcell.WheelLeft | tcell.WheelRight)

	consumed := false
	for _, act := range actions {
		var handler func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive)
		if m.capture != nil {
			handler = m.capture.MouseHandler()
		} else {
			handler = a.layout.MouseHandler()
		}
		if handler == nil {
			continue
		}
		ok, capture := handler(act, ev, func(p tview.Primitive) {
			a.setFocus(p)
			consumed = true
		})
		if ok {
			consumed = true
		}
		m.capture = capture
	}
	if consumed {
		a.focusPane = a.focusedPane()
	}
	return consumed
}

// waitTimeout waits for wg, at most d.
func waitTimeout(wg interface{ Wait() }, d time.Duration) {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// newScreen returns the terminal's screen, guarded (package display).
func newScreen() (tcell.Screen, error) { return display.Open() }
