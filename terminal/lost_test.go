package terminal

import (
	"context"
	"errors"
	"strings"
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
	// The line is typed once bash is back at its prompt with nothing
	// running, and again should the screen not show it typed (under a
	// loaded make test it was once not noticed in 20 s).
	deadline := time.Now().Add(60 * time.Second)
	for len(term.Running()) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	_, _ = term.Write([]byte("exec sh\r"))
	retyped := false
	for term.Replaced() == "" {
		if time.Now().After(deadline) {
			t.Fatalf("exec sh was not noticed; the screen:\n%s", term.ScreenText())
		}
		if !retyped && time.Until(deadline) < 30*time.Second && !strings.Contains(term.ScreenText(), "exec sh") {
			retyped = true
			_, _ = term.Write([]byte("exec sh\r"))
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
