package terminal

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startBlocked starts a Background terminal whose shell's start waits
// (in Start) until the returned function is called; it fails the test
// when Start itself waits for it.
func startBlocked(t *testing.T, startErr error) (*Terminal, func()) {
	t.Helper()
	release := make(chan struct{})
	home := t.TempDir()
	opts := Options{
		Dir:        t.TempDir(),
		Env:        []string{"HOME=" + home, "HISTFILE=" + filepath.Join(home, ".bash_history")},
		Background: true,
		Start: func(cmd *exec.Cmd) error {
			<-release
			if startErr != nil {
				return startErr
			}
			return cmd.Start()
		},
	}
	started := make(chan *Terminal, 1)
	go func() {
		term, err := Start(opts)
		if err != nil {
			t.Error(err)
		}
		started <- term
	}()
	var term *Terminal
	select {
	case term = <-started:
	case <-time.After(20 * time.Second):
		close(release)
		t.Fatal("Start waited for the shell to start")
	}
	if term == nil {
		t.FailNow()
	}
	t.Cleanup(func() { term.Close() })
	var once bool
	return term, func() {
		if !once {
			once = true
			close(release)
		}
	}
}

// TestBackgroundShellStartsBesideTheCaller: with Background, Start returns
// while bash is still being started; what the view does meanwhile (draw
// its title, size the pane, take keys) does not wait for it; the keys
// reach the shell once it runs, at the pane's size.
func TestBackgroundShellStartsBesideTheCaller(t *testing.T) {
	term, release := startBlocked(t, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = term.AgentCommand()
		_ = term.Replaced()
		term.Resize(101, 31)
		term.Write([]byte("echo typed-$((20+19))\r"))
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		release()
		t.Fatal("the view waited for the shell to start")
	}
	release()
	if err := term.Started(); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, term, "typed-39")
	if res := mustRun(t, term, "stty size"); strings.TrimSpace(res.Output) != "31 101" {
		t.Fatalf("stty size in the shell: %q, want the pane's 31 101", res.Output)
	}
}

// TestBackgroundShellThatCannotStart: Started says why, the pane says it
// and how to try again, and the agent's commands get the error.
func TestBackgroundShellThatCannotStart(t *testing.T) {
	term, release := startBlocked(t, errors.New("no sandbox here"))
	release()
	if err := term.Started(); err == nil || !strings.Contains(err.Error(), "no sandbox here") {
		t.Fatalf("Started: %v", err)
	}
	waitScreen(t, term, "cannot start the shell")
	if _, err := term.Run(t.Context(), Command{Text: "true", Timeout: time.Minute}, nil); err == nil || !strings.Contains(err.Error(), "no sandbox here") {
		t.Fatalf("Run on a shell that cannot start: %v", err)
	}
}

// TestBackgroundShellClosedWhileStarting: Close while bash starts waits
// for it and ends it.
func TestBackgroundShellClosedWhileStarting(t *testing.T) {
	term, release := startBlocked(t, nil)
	closed := make(chan struct{})
	go func() {
		term.Close()
		close(closed)
	}()
	release()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return")
	}
	if err := term.Started(); err != nil {
		t.Fatal(err)
	}
}
