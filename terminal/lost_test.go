package terminal

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A shell the user replaced with exec is named, and the agent's Run says
// so instead of taking the user for busy.
func TestShellReplacedByExecIsNamed(t *testing.T) {
	term := startTerm(t, Options{})
	mustRun(t, term, "true")
	if r := term.Replaced(); r != "" {
		t.Fatalf("fawn's own bash reads as replaced by %q", r)
	}
	_, _ = term.Write([]byte("exec sh\r"))
	deadline := time.Now().Add(20 * time.Second)
	for term.Replaced() == "" {
		if time.Now().After(deadline) {
			t.Fatalf("exec sh was not noticed; the screen:\n%s", term.ScreenText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := term.Replaced(); r != "sh" && r != "dash" {
		t.Fatalf("Replaced() = %q, want sh", r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := term.Run(ctx, Command{Text: "echo hi", Timeout: time.Minute}, nil)
	var be *BusyError
	if !errors.As(err, &be) || be.Replaced == "" {
		t.Fatalf("Run: %v, want a BusyError naming the replacement", err)
	}
}

// A shell replaced before fawn has handled its first prompt is still
// noticed: here the user's rc execs sh from PROMPT_COMMAND, so fawn's first
// prompt never comes (as when an exec typed while bash started overtakes
// the prompt's handling on a loaded machine).
func TestShellReplacedBeforeItsFirstPromptIsNamed(t *testing.T) {
	term := startTermWithRC(t, "PROMPT_COMMAND='exec sh'\n")
	deadline := time.Now().Add(20 * time.Second)
	for term.Replaced() == "" {
		if time.Now().After(deadline) {
			t.Fatalf("exec sh was not noticed; the screen:\n%s", term.ScreenText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := term.Replaced(); r != "sh" && r != "dash" {
		t.Fatalf("Replaced() = %q, want sh", r)
	}
}
