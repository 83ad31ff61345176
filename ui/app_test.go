package ui

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/theme"
)

// demoTurn plays a short turn: reasoning, text, a bash call, a to-do list.
func demoTurn(ctx context.Context, emit func(agent.Event)) {
	emit(agent.Event{Type: agent.EventReasoning, Text: "The user greets me.\nI should look at the files."})
	emit(agent.Event{Type: agent.EventText, Text: "Hello **there**. Let me look."})
	emit(agent.Event{Type: agent.EventToolCallStarted, ID: "c1", Name: "bash"})
	emit(agent.Event{Type: agent.EventToolCallReady, ID: "c1", Name: "bash", Args: `{"command":"go test ./..."}`})
	emit(agent.Event{Type: agent.EventToolRunStarted, ID: "c1", Name: "bash", Action: &tools.Action{Kind: tools.KindExec, Command: "go test ./..."}})
	emit(agent.Event{Type: agent.EventToolOutput, ID: "c1", Text: "ok  pkg/a 0.1s\nFAIL pkg/b\n"})
	emit(agent.Event{Type: agent.EventToolRunEnded, ID: "c1", Name: "bash", Result: "exit code 1", Duration: 1200 * time.Millisecond})
	emit(agent.Event{Type: agent.EventToolCallStarted, ID: "c2", Name: "todo_write"})
	emit(agent.Event{Type: agent.EventToolCallReady, ID: "c2", Name: "todo_write", Args: `{}`})
	emit(agent.Event{Type: agent.EventToolRunStarted, ID: "c2", Name: "todo_write"})
	emit(agent.Event{Type: agent.EventToolUpdate, ID: "c2", Data: tools.TodosChanged{Items: []tools.Todo{
		{ID: "1", Title: "Fix pkg/b", Status: "in_progress", Priority: "high"},
		{ID: "2", Title: "Run the tests", Status: "pending"},
		{ID: "3", Title: "Read the code", Status: "completed"},
	}}})
	emit(agent.Event{Type: agent.EventToolRunEnded, ID: "c2", Name: "todo_write", Result: "ok", Duration: time.Millisecond})
	emit(agent.Event{Type: agent.EventText, Text: "Done."})
}

func TestAppRunsATurnAcrossThePanes(t *testing.T) {
	ag := newScriptAgent(demoTurn)
	r := startApp(t, Options{Agent: ag, Root: "/proj", Notices: []string{"running on the demo model"}}, 120, 30)
	r.waitScreen("running on the demo model")
	for _, want := range []string{"Chat", "Editor", "Terminal", "To-do", "test/model", "ask", "idle"} {
		r.waitScreen(want)
	}
	r.typeText("hi there")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Done.")
	r.sync()
	text := r.text()
	for _, want := range []string{"› hi there", "Hello there. Let me look.", "$ go test ./...", "FAIL pkg/b",
		"To-do 1/3", "◐ Fix pkg/b", "Thought for"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
	if got := ag.promptList(); len(got) != 1 || got[0] != "hi there" {
		t.Errorf("prompts sent = %q, want [hi there]", got)
	}
	// The terminal had just printed: the strip kept it and marked the to-do tab.
	if r.app.task.strip.Active() != panes.Terminal || !strings.Contains(text, "To-do 1/3 •") {
		t.Errorf("strip shows %v, want the terminal with the to-do tab marked", r.app.task.strip.Active())
	}
}

func TestCtrlCNeverQuitsAndCtrlQDoes(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 100, 30)
	r.typeText("draft")
	r.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	select {
	case err := <-r.done:
		t.Fatalf("Ctrl-C ended Run (%v)", err)
	default:
	}
	// In the chat, Ctrl-C clears the input; Up brings the text back.
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "" {
			t.Errorf("Ctrl-C left %q in the input", got)
		}
	})
	r.key(tcell.KeyUp, 0, 0)
	r.waitScreen("draft")
	r.screen.InjectKey(tcell.KeyCtrlQ, 0, tcell.ModCtrl)
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("Run returned %v after Ctrl-Q", err)
		}
		r.done <- nil // for the cleanup
	case <-time.After(20 * time.Second):
		t.Fatal("Ctrl-Q did not end Run")
	}
}

func TestSignalsEndRunCleanly(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			r := startApp(t, Options{Agent: newScriptAgent()}, 100, 30)
			r.sync()
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-r.done:
				// The signal comes back, so that fawn exits with 128+N.
				var se *SignalError
				if !errors.As(err, &se) || se.Signal != sig {
					t.Errorf("Run returned %v after %v", err, sig)
				}
				r.done <- nil
			case <-time.After(20 * time.Second):
				t.Fatalf("%v did not end Run", sig)
			}
		})
	}
}

func TestLightTheme(t *testing.T) {
	cfg := &config.Config{DataDir: t.TempDir()}
	cfg.UI.Theme = "light"
	a, s := newDrawnApp(t, Options{Config: cfg, Notices: []string{"hello"}}, 120, 30)
	a.draw()
	if a.th.Name != "light" {
		t.Fatalf("theme = %q", a.th.Name)
	}
	x, y := findText(s, "Chat")
	if _, st := cellAt(s, x, y); fgOf(st) != theme.Get("light").Accent {
		t.Error("the focused pane's title is not in the light theme's accent")
	}
}

func TestRedrawBindsLater(t *testing.T) {
	var rd Redraw
	rd.Request() // before the App exists: dropped, no panic
	r := startApp(t, Options{Agent: newScriptAgent(), Redraw: &rd}, 100, 30)
	r.sync()
	before := r.app.frames.Load()
	rd.Request()
	waitFor(t, "a frame requested through Redraw", func() bool { return r.app.frames.Load() > before })
}

func TestNoGoroutineOutlivesRun(t *testing.T) {
	release := make(chan struct{})
	ag := newScriptAgent(demoTurn, slowTurn(release))
	s := tcell.NewSimulationScreen("UTF-8")
	a, err := New(Options{Agent: ag, Screen: s, Config: &config.Config{DataDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(context.Background()) }()
	waitFor(t, "the first frame", func() bool { return a.frames.Load() > 0 })
	a.post(func() { a.task.submit("one") })
	waitFor(t, "the first turn", func() bool { return len(ag.promptList()) == 1 })
	waitFor(t, "the first turn to end", func() bool {
		ch := make(chan bool)
		a.post(func() { ch <- a.task.turnRunning() })
		return !<-ch
	})
	// Quit in the middle of the second turn: it is cancelled, its reader ends.
	a.post(func() { a.task.submit("two") })
	waitFor(t, "the second turn", func() bool { return len(ag.promptList()) == 2 })
	a.Stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The only newcomer allowed is os/signal's own loop, which the runtime
	// starts on the first Notify and never stops.
	var left []string
	deadline := time.Now().Add(10 * time.Second)
	for {
		left = left[:0]
		buf := make([]byte, 1<<20)
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if (strings.Contains(g, "fawn-ide/fawn/ui.") || strings.Contains(g, "gdamore/tcell")) &&
				!strings.Contains(g, "TestNoGoroutineOutlivesRun") {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Fatalf("goroutines outlived Run:\n%s", strings.Join(left, "\n\n"))
	}
}

func TestNotifyFromAnotherGoroutine(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 120, 30)
	go r.app.Notify("mcp: github connected (12 tools)", false)
	go r.app.Notify("mcp: jira failed to start: exit status 1 — check tools.mcp_servers.jira.command", true)
	r.waitScreen("github connected")
	r.waitScreen("jira failed to start")
	r.onUI(func() {
		x, y := findText(r.screen, "mcp: jira")
		if _, st := cellAt(r.screen, x, y); fgOf(st) != r.app.th.Error {
			t.Error("an error notice is not red")
		}
	})
}

// TestFirstFrameCalledOnceAfterTheFirstFrame: FirstFrame runs once, with
// the first frame already on the screen, and not again for later frames.
func TestFirstFrameCalledOnceAfterTheFirstFrame(t *testing.T) {
	var calls atomic.Int32
	var framesThen atomic.Uint64
	var app *App
	opts := Options{Agent: newScriptAgent(), FirstFrame: func() {
		if calls.Add(1) == 1 {
			framesThen.Store(app.frames.Load())
		}
	}}
	opts.Screen = tcell.NewSimulationScreen("UTF-8")
	opts.Config = &config.Config{DataDir: t.TempDir()}
	app, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Run(context.Background()) }()
	waitFor(t, "the first frame", func() bool { return calls.Load() > 0 })
	app.RequestDraw()
	waitFor(t, "a second frame", func() bool { return app.frames.Load() > 1 })
	app.Stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 || framesThen.Load() < 1 {
		t.Errorf("FirstFrame called %d times, after %d frames; want once, after the first", calls.Load(), framesThen.Load())
	}
}

// A draw asked for with RequestDrawNow (a shell's prompt) is drawn at
// once, where a RequestDraw right after a frame waits for the frame's
// interval.
func TestDrawNowIsNotPaced(t *testing.T) {
	a, _ := newDrawnApp(t, Options{}, 100, 30)
	// A frame was just drawn: lastDraw in the future holds any paced one.
	l := loopState{lastDraw: time.Now().Add(time.Hour)}
	defer l.stop()
	before := a.frames.Load()
	a.RequestDraw()
	a.frame(&l, false, 0)
	if a.frames.Load() != before || l.drawTimer == nil {
		t.Fatalf("a RequestDraw right after a frame was drawn at once (frames %d → %d)", before, a.frames.Load())
	}
	a.RequestDrawNow()
	a.frame(&l, false, 0)
	if a.frames.Load() != before+1 {
		t.Fatalf("RequestDrawNow right after a frame was not drawn at once (frames %d → %d)", before, a.frames.Load())
	}
	if l.drawTimer != nil {
		t.Error("the held frame's timer is still set after the frame drawn at once")
	}
}
