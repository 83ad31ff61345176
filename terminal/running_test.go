package terminal

import (
	"slices"
	"testing"
	"time"
)

// Running names the foreground job and the background jobs of the shell,
// and nothing once they are gone: what fawn names before it quits.
func TestRunningNamesTheShellsJobs(t *testing.T) {
	term := startTerm(t, Options{})
	mustRun(t, term, "true") // the first prompt is up
	waitRunning := func(what string, cond func([]string) bool) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			got := term.Running()
			if cond(got) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("Running() = %q, want %s", got, what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitRunning("nothing at the prompt", func(n []string) bool { return len(n) == 0 })
	_, _ = term.Write([]byte("sleep 100\r"))
	waitRunning("[sleep]", func(n []string) bool { return slices.Equal(n, []string{"sleep"}) })
	_, _ = term.Write([]byte{0x03})
	waitRunning("nothing after Ctrl-C", func(n []string) bool { return len(n) == 0 })
	_, _ = term.Write([]byte("tail -f /dev/null &\r"))
	waitRunning("[tail] in the background", func(n []string) bool { return slices.Equal(n, []string{"tail"}) })
	_, _ = term.Write([]byte("kill %1\r"))
	waitRunning("nothing after kill", func(n []string) bool { return len(n) == 0 })
}
