package e2e

import (
	"fmt"
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
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "All done here."}}})
	tm := startIDE(t, srv, "")
	hit := filepath.Join(t.TempDir(), "bells")
	tm.tmux("set-hook", "-g", "alert-bell", "run-shell 'echo bell >> "+hit+"'")
	// The focus report is three bytes of input; on a loaded machine they
	// can reach fawn in two reads, the ESC alone read as the Esc key (as
	// any terminal program must read it). So the report is sent again
	// before each new turn, three turns at most.
	for turn := 1; ; turn++ {
		tm.tmux("send-keys", "-t", tm.name, "-H", "1b", "5b", "4f") // focus out: ESC [ O
		tm.prompt(fmt.Sprintf("finish something %d", turn))
		tm.WaitFor(fmt.Sprintf("finish something %d", turn), "All done here.", "idle")
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if b, _ := os.ReadFile(hit); strings.Contains(string(b), "bell") {
				if turn > 1 {
					t.Logf("the bell came at turn %d", turn)
				}
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		if turn == 3 {
			t.Fatal("no bell after three turns ended with the window unfocused")
		}
	}
}
