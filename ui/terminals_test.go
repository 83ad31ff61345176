package ui

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/termview"
	"github.com/fawn-ide/fawn/ui/theme"
)

// realTerminal starts a real shell and its view, as cmd/fawn does.
func realTerminal(t *testing.T, dir, name string, redraw func(), onExit func()) (*termview.View, *terminal.Terminal) {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("PS1='$ '\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := terminal.Options{Dir: dir, Env: []string{"HOME=" + home}, OnDamage: redraw}
	if onExit != nil {
		o.OnExit = func(int) { onExit() }
	}
	term, err := terminal.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	v := termview.New(term, theme.Get("dark"), nil)
	v.SetBorder(false)
	v.SetName(name)
	return v, term
}

// Alt-N opens a terminal of the user's own beside the agent's; Alt-T goes
// from one to the other; exit in it closes its tab and the agent's
// terminal has the focus again.
func TestUserOpensAndClosesTheirOwnTerminal(t *testing.T) {
	dir := t.TempDir()
	var live atomic.Pointer[App]
	redraw := func() {
		if a := live.Load(); a != nil {
			a.RequestDraw()
		}
	}
	main, _ := realTerminal(t, dir, "Terminal", redraw, nil)
	var started []*terminal.Terminal // on the UI goroutine
	r := startApp(t, Options{Agent: newScriptAgent(), Root: dir, Terminal: main,
		NewTerminal: func(d, name string, onExit func()) (TerminalPane, func(), error) {
			v, term := realTerminal(t, d, name, redraw, onExit)
			started = append(started, term)
			return v, func() { term.Close() }, nil
		}}, 120, 30)
	app := r.app
	live.Store(app)
	r.key(tcell.KeyRune, 'n', tcell.ModAlt)
	r.waitScreen("Terminal 2")
	r.typeText("echo own-$((40+2))\n")
	r.waitScreen("own-42")
	var focused panes.Pane
	r.onUI(func() { focused = app.focusedPane() })
	if focused != panes.Terminal || !strings.Contains(r.text(), "Terminal │ Terminal 2") {
		t.Fatalf("focus %v, screen:\n%s", focused, r.text())
	}
	// Ctrl-\ Alt-T: the agent's terminal (the pane's keys are its
	// program's but for the escape key); again: back to Terminal 2.
	r.key(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	r.key(tcell.KeyRune, 't', tcell.ModAlt)
	r.onUI(func() {
		if !main.HasFocus() {
			t.Error("Ctrl-\\ Alt-T from Terminal 2 did not focus the agent's terminal")
		}
	})
	r.key(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	r.key(tcell.KeyRune, 't', tcell.ModAlt)
	r.typeText("exit\n")
	deadline := time.Now().Add(20 * time.Second)
	for strings.Contains(r.text(), "Terminal 2") {
		if time.Now().After(deadline) {
			t.Fatalf("the tab stays after exit:\n%s", r.text())
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.onUI(func() {
		if !main.HasFocus() {
			t.Error("the agent's terminal does not have the focus after the other closed")
		}
	})
	if len(started) != 1 {
		t.Fatalf("%d terminals started", len(started))
	}
}

// While the terminal has focus the global keys are its program's (F6,
// Alt-C, Ctrl-Q); after the escape key they are fawn's again, and once
// the focus is elsewhere they work as ever.
func TestTerminalTakesGlobalKeysButTheEscape(t *testing.T) {
	dir := t.TempDir()
	var live atomic.Pointer[App]
	main, term := realTerminal(t, dir, "Terminal", func() {
		if a := live.Load(); a != nil {
			a.RequestDraw()
		}
	}, nil)
	r := startApp(t, Options{Agent: newScriptAgent(), Root: dir, Terminal: main}, 120, 30)
	live.Store(r.app)
	r.key(tcell.KeyRune, 't', tcell.ModAlt)
	r.waitScreen("$")
	r.waitScreen(`Ctrl-\ F1 help · Ctrl-\ Ctrl-Q quit`)
	r.typeText("stty -ixon -echo; echo rea''dy; cat -v\n")
	r.waitScreen("ready")
	r.key(tcell.KeyF6, 0, tcell.ModNone)
	r.key(tcell.KeyRune, 'c', tcell.ModAlt)
	r.key(tcell.KeyCtrlQ, 'q', tcell.ModCtrl)
	r.key(tcell.KeyEnter, 0, tcell.ModNone)
	waitFor(t, "the keys in the terminal", func() bool { return strings.Contains(term.ScreenText(), "^[[17~^[c^Q") })
	focused := func() (p panes.Pane) {
		r.onUI(func() { p = r.app.focusedPane() })
		return p
	}
	if p := focused(); p != panes.Terminal {
		t.Fatalf("focus went to %v", p)
	}
	r.key(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	r.key(tcell.KeyRune, 'c', tcell.ModAlt)
	if p := focused(); p != panes.Chat {
		t.Fatalf("Ctrl-\\ Alt-C: focus on %v, not the chat", p)
	}
	r.key(tcell.KeyF6, 0, tcell.ModNone)
	if p := focused(); p != panes.Editor {
		t.Fatalf("F6 from the chat: focus on %v, not the editor", p)
	}
}

// Quitting while a program runs in a terminal asks first, naming it and
// its terminal — from the terminal pane through the escape key too; Esc
// stays, q quits.
func TestQuitAsksWhileAProgramRuns(t *testing.T) {
	dir := t.TempDir()
	var live atomic.Pointer[App]
	main, term := realTerminal(t, dir, "Terminal", func() {
		if a := live.Load(); a != nil {
			a.RequestDraw()
		}
	}, nil)
	r := startApp(t, Options{Agent: newScriptAgent(), Root: dir, Terminal: main}, 120, 30)
	live.Store(r.app)
	r.key(tcell.KeyRune, 't', tcell.ModAlt)
	r.waitScreen("$")
	r.typeText("sleep 100\n")
	waitFor(t, "sleep to run", func() bool { return len(term.Running()) > 0 })
	r.key(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	r.screen.InjectKey(tcell.KeyCtrlQ, 'q', tcell.ModCtrl)
	r.waitScreen("Quitting ends what runs in the terminals: sleep (Terminal).")
	r.key(tcell.KeyEscape, 0, 0)
	if strings.Contains(r.text(), "Quitting ends") {
		t.Fatal("Esc did not close the question")
	}
	select {
	case err := <-r.done:
		t.Fatalf("fawn quit with sleep running: %v", err)
	default:
	}
	r.key(tcell.KeyRune, 'c', tcell.ModAlt) // Alt-C: the program's, not fawn's
	r.key(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	r.key(tcell.KeyRune, 'c', tcell.ModAlt)
	r.screen.InjectKey(tcell.KeyCtrlQ, 'q', tcell.ModCtrl)
	r.waitScreen("quit and end them")
	r.screen.InjectKey(tcell.KeyRune, 'q', 0)
	if err := <-r.done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	r.done <- nil
}
