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
