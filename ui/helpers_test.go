package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/render/screentest"
	"github.com/fawn-ide/fawn/ui/theme"
)

func linesText(lines []render.Line) string { return screentest.LinesText(lines) }

// waitFor polls cond until it holds or a generous deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func darkCtx() *chat.Ctx {
	th := theme.Get("dark")
	return &chat.Ctx{Th: &th, MD: chat.NewMarkdown(&th), Root: "/proj"}
}

// scriptAgent is an Agent whose turns play a script: each Run calls the
// next turn function with the run's context and an emit function. It stands
// in for *agent.Session in tests of the app shell, which need exact control
// over event order and timing.
type scriptAgent struct {
	mu        sync.Mutex
	turns     []func(ctx context.Context, emit func(agent.Event))
	prompts   []string
	approvals map[string]agent.Answer
	approved  chan string
	mode      agent.Mode
	todos     []tools.Todo
	cleared   int
}

func newScriptAgent(turns ...func(ctx context.Context, emit func(agent.Event))) *scriptAgent {
	return &scriptAgent{turns: turns, approvals: map[string]agent.Answer{}, approved: make(chan string, 16), mode: agent.ModeAsk}
}

func (s *scriptAgent) Run(ctx context.Context, prompt string) <-chan agent.Event {
	s.mu.Lock()
	s.prompts = append(s.prompts, prompt)
	var turn func(ctx context.Context, emit func(agent.Event))
	if len(s.turns) > 0 {
		turn, s.turns = s.turns[0], s.turns[1:]
	}
	s.mu.Unlock()
	ch := make(chan agent.Event, 16)
	go func() {
		defer close(ch)
		emit := func(ev agent.Event) {
			select {
			case ch <- ev:
			case <-ctx.Done():
				// Must-deliver: still hand it over; the reader drains to the end.
				ch <- ev
			}
		}
		emit(agent.Event{Type: agent.EventTurnStarted, Text: prompt})
		if turn != nil {
			turn(ctx, emit)
		}
		end := agent.Event{Type: agent.EventTurnEnded, Usage: &agent.Usage{OutputTokens: 10, Duration: time.Second, TokensPerSecond: 10}}
		if ctx.Err() != nil {
			end.Err = ctx.Err()
		}
		emit(end)
	}()
	return ch
}

func (s *scriptAgent) Approve(id string, a agent.Answer) {
	s.mu.Lock()
	s.approvals[id] = a
	s.mu.Unlock()
	s.approved <- id
}

func (s *scriptAgent) answer(id string) (agent.Answer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.approvals[id]
	return a, ok
}

func (s *scriptAgent) Mode() agent.Mode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

func (s *scriptAgent) SetMode(m agent.Mode) {
	s.mu.Lock()
	s.mode = m
	s.mu.Unlock()
}

func (s *scriptAgent) ModelName() string { return "test/model" }

func (s *scriptAgent) Clear() {
	s.mu.Lock()
	s.cleared++
	s.mu.Unlock()
}

func (s *scriptAgent) Todos() []tools.Todo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.todos
}

func (s *scriptAgent) Usage() agent.Usage { return agent.Usage{} }

func (s *scriptAgent) ToolNames() []string { return []string{"bash", "text_editor", "todo_write"} }

func (s *scriptAgent) promptList() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.prompts...)
}

// running is an App under Run on a simulation screen.
type running struct {
	t      *testing.T
	app    *App
	screen tcell.SimulationScreen
	done   chan error
}

// startApp builds an App on a w×h simulation screen and runs it until the
// test ends.
func startApp(t *testing.T, opts Options, w, h int) *running {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	opts.Screen = s
	if opts.Config == nil {
		opts.Config = &config.Config{DataDir: t.TempDir()}
	}
	app, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	r := &running{t: t, app: app, screen: s, done: make(chan error, 1)}
	go func() { r.done <- app.Run(context.Background()) }()
	waitFor(t, "the first frame", func() bool { return app.frames.Load() > 0 })
	r.resize(w, h)
	t.Cleanup(func() {
		app.Stop()
		select {
		case <-r.done:
		case <-time.After(20 * time.Second):
			t.Error("Run did not return after Stop")
		}
	})
	return r
}

// resize changes the screen size and waits for the redraw.
func (r *running) resize(w, h int) {
	r.t.Helper()
	before := r.app.frames.Load()
	r.screen.SetSize(w, h)
	r.screen.PostEventWait(tcell.NewEventResize(w, h))
	waitFor(r.t, "a redraw after resize", func() bool {
		_, sw, sh := r.screen.GetContents()
		return r.app.frames.Load() > before && sw == w && sh == h
	})
	// A frame begun before SetSize may end after it, drawn at the old
	// size: the frame drawn once the resize event is handled is the one.
	r.sync()
}

// key injects a key and waits until it has been handled and drawn.
func (r *running) key(k tcell.Key, ch rune, mod tcell.ModMask) {
	r.t.Helper()
	r.sync()
	r.screen.InjectKey(k, ch, mod)
	r.sync()
}

// typeText types text rune by rune.
func (r *running) typeText(text string) {
	r.t.Helper()
	for _, c := range text {
		r.screen.InjectKey(tcell.KeyRune, c, tcell.ModNone)
	}
	r.sync()
}

// sync waits until every event injected so far has been handled and the
// result drawn: it queues a marker behind them and waits for it.
func (r *running) sync() {
	r.t.Helper()
	done := make(chan struct{})
	r.screen.PostEventWait(&syncEvent{done: done, t: time.Now()})
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		r.t.Fatal("the UI did not handle events within 20 s")
	}
}

// text reads the screen on the UI goroutine (the simulation screen's cells
// must not be read while a draw writes them).
func (r *running) text() string {
	r.t.Helper()
	var s string
	r.onUI(func() { s = screenText(r.screen) })
	return s
}

// find locates text on the screen, on the UI goroutine.
func (r *running) find(text string) (x, y int) {
	r.t.Helper()
	r.onUI(func() { x, y = findText(r.screen, text) })
	return x, y
}

// waitScreen waits until the screen shows text.
func (r *running) waitScreen(text string) {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := r.text()
		if strings.Contains(got, text) {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("timed out waiting for %q on screen:\n%s", text, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// onUI runs f on the UI goroutine and waits for it.
func (r *running) onUI(f func()) {
	r.t.Helper()
	done := make(chan struct{})
	r.app.post(func() { f(); close(done) })
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		r.t.Fatal("the UI goroutine did not run the function within 20 s")
	}
}

// waitTurnEnded waits until the shown task runs no turn.
func (r *running) waitTurnEnded() {
	r.t.Helper()
	waitFor(r.t, "the turn to end", func() bool {
		done := false
		r.onUI(func() { done = !r.app.task.turnRunning() })
		return done
	})
}

// syncEvent closes done when the loop reaches it.
type syncEvent struct {
	done chan struct{}
	t    time.Time
}

func (e *syncEvent) When() time.Time { return e.t }
func (e *syncEvent) reached()        { close(e.done) }

// newDrawnApp builds an App on an initialised w×h simulation screen without
// running its loop: the test calls the router and draw itself, on its own
// goroutine.
func newDrawnApp(t *testing.T, opts Options, w, h int) (*App, tcell.SimulationScreen) {
	t.Helper()
	s := simScreen(t, w, h)
	opts.Screen = s
	if opts.Agent == nil {
		opts.Agent = newScriptAgent()
	}
	if opts.Config == nil {
		opts.Config = &config.Config{DataDir: t.TempDir()}
	}
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	a.draw()
	return a, s
}

// recordingEditor is an EditorPane that draws what the agent last showed it.
type recordingEditor struct {
	*tview.Box
	viewed  []tools.FileViewed
	changed []tools.FileChanged
	opened  []string
}

func newRecordingEditor() *recordingEditor { return &recordingEditor{Box: tview.NewBox()} }

func (e *recordingEditor) AgentViewed(ev tools.FileViewed)   { e.viewed = append(e.viewed, ev) }
func (e *recordingEditor) AgentChanged(ev tools.FileChanged) { e.changed = append(e.changed, ev) }
func (e *recordingEditor) Open(path string, line int) error {
	e.opened = append(e.opened, fmt.Sprintf("%s:%d", path, line))
	return nil
}
func (e *recordingEditor) Draw(screen tcell.Screen) {
	e.DrawForSubclass(screen, e)
	x, y, w, _ := e.GetInnerRect()
	if n := len(e.changed); n > 0 {
		render.DrawText(screen, x, y, w, "changed "+e.changed[n-1].Path, tcell.StyleDefault)
	} else if n := len(e.viewed); n > 0 {
		render.DrawText(screen, x, y, w, "viewing "+e.viewed[n-1].Path, tcell.StyleDefault)
	}
}

func fgOf(st tcell.Style) tcell.Color       { return screentest.Fg(st) }
func attrsOf(st tcell.Style) tcell.AttrMask { return screentest.Attrs(st) }

// The screen helpers the ui tests share (ui/render/screentest).
func simScreen(t testing.TB, w, h int) tcell.SimulationScreen { return screentest.New(t, w, h) }
func screenLines(s tcell.SimulationScreen) []string           { return screentest.Lines(s) }
func screenText(s tcell.SimulationScreen) string              { return screentest.Text(s) }
func cellAt(s tcell.SimulationScreen, x, y int) (string, tcell.Style) {
	return screentest.CellAt(s, x, y)
}
func findText(s tcell.SimulationScreen, text string) (int, int) { return screentest.Find(s, text) }
func golden(t *testing.T, name, got string)                     { t.Helper(); screentest.Golden(t, name, got) }
