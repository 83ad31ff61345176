package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
)

// appWithShell is an App on a script agent whose terminal is a real bash
// in dir.
func appWithShell(t *testing.T, ag *scriptAgent, dir string) *running {
	t.Helper()
	var live atomic.Pointer[App]
	tv, _ := realTerminal(t, dir, "Terminal", func() {
		if a := live.Load(); a != nil {
			a.RequestDraw()
		}
	}, nil)
	r := startApp(t, Options{Agent: ag, Root: dir, Terminal: tv}, 140, 36)
	live.Store(r.app)
	return r
}

// "!cmd" runs cmd in the task's terminal, in sight; its output waits
// above the input and goes with the next message, after what the user
// typed; the message shows a chip for it.
func TestBangRunsInTheTerminalAndGoesWithTheNextMessage(t *testing.T) {
	ag := newScriptAgent()
	r := appWithShell(t, ag, t.TempDir())
	r.typeText("!echo hello-$((6*7))")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("⎘ !echo hello-$((6*7)) · exit 0 · 1 line — sent with your")
	r.waitScreen("hello-42") // the terminal pane shows the command's output
	if got := ag.promptList(); len(got) != 0 {
		t.Fatalf("!cmd started a turn: %q", got)
	}
	r.typeText("what does it print?")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the message to be sent", func() bool { return len(ag.promptList()) == 1 })
	p := ag.promptList()[0]
	if !strings.HasPrefix(p, "what does it print?\n\n") || !strings.Contains(p, `<shell command="echo hello-$((6*7))" ended="exit 0">`+"\nhello-42\n</shell>") {
		t.Fatalf("the agent was sent:\n%s", p)
	}
	r.waitScreen("!echo hello-$((6*7)) · exit 0 · 1 line") // the chip on the message
	if s := r.text(); strings.Contains(s, "sent with your next message") {
		t.Fatalf("the output still waits after it was sent:\n%s", s)
	}

	// Esc drops what waits; the next message goes alone.
	r.typeText("!echo dropped")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("⎘ !echo dropped · exit 0")
	r.key(tcell.KeyEscape, 0, 0)
	r.waitScreen("dropped: the output of 1 command will not be sent")
	r.typeText("again")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the second message", func() bool { return len(ag.promptList()) == 2 })
	if p := ag.promptList()[1]; p != "again" {
		t.Fatalf("after Esc the agent was sent %q", p)
	}
}

// While a turn runs, "!cmd" does not run (the agent's commands use that
// shell): it says so and stays in the input.
func TestBangWaitsForNoTurn(t *testing.T) {
	ag := newScriptAgent(func(ctx context.Context, emit func(agent.Event)) { <-ctx.Done() })
	dir := t.TempDir()
	r := appWithShell(t, ag, dir)
	r.typeText("work")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the turn", func() bool { return len(ag.promptList()) == 1 })
	r.typeText("!touch made")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("a turn is running: send !touch made again when it has ended")
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "!touch made" {
			t.Errorf("the input holds %q", got)
		}
	})
	r.key(tcell.KeyEscape, 0, 0) // ends the turn
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "made")); err == nil {
		t.Fatal("!cmd ran while a turn was running")
	}
}

// A command's text submitted through the Host (a custom command's file,
// which a project may carry) is a message: "!" and "#" there run nothing
// and write nothing.
func TestSubmittedTextRunsNoShell(t *testing.T) {
	ag := newScriptAgent(nil, nil)
	dir := t.TempDir()
	r := appWithShell(t, ag, dir)
	r.onUI(func() { r.app.Submit("!touch pwned") })
	waitFor(t, "the message", func() bool { return len(ag.promptList()) == 1 })
	r.onUI(func() { r.app.Submit("#a note") })
	waitFor(t, "the second message", func() bool { return len(ag.promptList()) == 2 })
	if got := ag.promptList(); got[0] != "!touch pwned" || got[1] != "#a note" {
		t.Fatalf("sent %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Fatal("a submitted !cmd ran in the shell")
	}
	if _, err := os.Stat(filepath.Join(dir, "AGENTS.md")); err == nil {
		t.Fatal("a submitted #note was written")
	}
}

// While "!cmd" runs, a message sent waits for it and takes its output;
// Esc stops a command that runs.
func TestAMessageWaitsForTheRunningBang(t *testing.T) {
	ag := newScriptAgent()
	r := appWithShell(t, ag, t.TempDir())
	r.typeText("!sleep 1; echo late")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("!sleep 1; echo late · running…")
	r.typeText("and now?")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the message", func() bool { return len(ag.promptList()) == 1 })
	if p := ag.promptList()[0]; !strings.Contains(p, `ended="exit 0">`+"\nlate\n</shell>") {
		t.Fatalf("the message did not take the output of the command it waited for:\n%s", p)
	}
	r.waitTurnEnded() // while the agent works, "!" is refused

	r.typeText("!sleep 30")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("!sleep 30 · running…")
	r.waitScreen("$ sleep 30") // typed in the terminal: Esc interrupts it
	r.key(tcell.KeyEscape, 0, 0)
	r.waitScreen("!sleep 30 · interrupted")
}
