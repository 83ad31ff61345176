package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// With the window unfocused (the terminal reports focus out), a turn that
// ends rings the bell, which tmux turns into an alert.
func TestBellWhenTheWindowIsNotFocused(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "All done here."}}})
	tm := startIDE(t, srv, "")
	hit := filepath.Join(t.TempDir(), "bells")
	tm.tmux("set-hook", "-g", "alert-bell", "run-shell 'echo bell >> "+hit+"'")
	tm.tmux("send-keys", "-t", tm.name, "-H", "1b", "5b", "4f") // focus out: ESC [ O
	tm.prompt("finish something")
	tm.WaitFor("All done here.", "idle")
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(hit)
		if strings.Contains(string(b), "bell") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no bell after a turn ended with the window unfocused")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
