package ui

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/config"
)

// startScreen is a simulation screen that, as a terminal's screen does,
// posts a resize at its own size when it starts, and counts the frames
// sent whole (Sync).
type startScreen struct {
	tcell.SimulationScreen
	syncs atomic.Int32
}

func (s *startScreen) Init() error {
	if err := s.SimulationScreen.Init(); err != nil {
		return err
	}
	w, h := s.Size()
	return s.PostEvent(tcell.NewEventResize(w, h))
}

func (s *startScreen) Sync() {
	s.syncs.Add(1)
	s.SimulationScreen.Sync()
}

// runStartup runs an App on a startScreen until the loop has handled the
// screen's first resize and drawn; settle is how long its start-up's
// unseen work waits.
func runStartup(t *testing.T, settle time.Duration, firstFrame func()) (*App, *startScreen, func()) {
	t.Helper()
	s := &startScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	opts := Options{Agent: newScriptAgent(), Screen: s, FirstFrame: firstFrame, Config: &config.Config{DataDir: t.TempDir()}}
	app, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	app.settle = settle
	done := make(chan error, 1)
	go func() { done <- app.Run(context.Background()) }()
	reached := &syncEvent{done: make(chan struct{}), t: time.Now()}
	waitFor(t, "the first frame", func() bool { return app.frames.Load() > 0 })
	if err := s.PostEvent(reached); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reached.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the loop did not reach the event after the start's resize")
	}
	return app, s, func() {
		app.Stop()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestStartupResizeSendsNoFrameTwice: the resize a terminal's screen posts
// as it starts, at the size of the first frame, does not send that frame
// to the terminal again whole (the shell's prompt would wait behind it);
// a real resize does.
func TestStartupResizeSendsNoFrameTwice(t *testing.T) {
	_, s, stop := runStartup(t, 0, nil)
	defer stop()
	if n := s.syncs.Load(); n != 0 {
		t.Fatalf("the start's own resize sent the frame whole %d times", n)
	}
	w, h := s.Size()
	s.SetSize(w+10, h)
	reached := &syncEvent{done: make(chan struct{}), t: time.Now()}
	s.PostEvent(tcell.NewEventResize(w+10, h))
	s.PostEvent(reached)
	select {
	case <-reached.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the loop did not reach the event after the resize")
	}
	if n := s.syncs.Load(); n != 1 {
		t.Fatalf("a real resize sent the frame whole %d times, want once", n)
	}
}

// TestStartupUnseenWorkWaitsToSettle: FirstFrame (fawn restores the
// collector's pace and looks for tasks left open there) and the lexers'
// loading wait until the start-up settles, not beside the frames that
// follow the first, in which the shell paints its prompt.
func TestStartupUnseenWorkWaitsToSettle(t *testing.T) {
	var calls atomic.Int32
	app, _, stop := runStartup(t, time.Hour, func() { calls.Add(1) })
	defer stop()
	app.RequestDraw()
	waitFor(t, "a second frame", func() bool { return app.frames.Load() > 1 })
	if n := calls.Load(); n != 0 {
		t.Fatalf("FirstFrame ran %d times before the start-up settled", n)
	}
}
