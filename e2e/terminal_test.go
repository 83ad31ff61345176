package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// startTerminal opens the IDE with the terminal pane focused and zoomed.
func startTerminal(t *testing.T) *Term {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startIDE(t, srv, "")
	tm.Keys("M-t")
	tm.Keys(`C-\`, "M-m") // in the terminal the escape key first: Alt-M is fawn's
	tm.WaitUntil("the zoomed terminal", func(s string) bool { return !strings.Contains(s, "Chat") })
	return tm
}

func (tm *Term) run(cmd string) {
	tm.t.Helper()
	tm.Type(cmd)
	tm.Keys("Enter")
}

// Full-screen programs after a first one draw in the alternate screen and
// leave nothing behind: less, then htop, then mc.
func TestFullScreenProgramsOneAfterAnother(t *testing.T) {
	for _, p := range []string{"less", "htop", "mc"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (apt-get install -y less htop mc)", p)
		}
	}
	tm := startTerminal(t)
	tm.run("PS1='$ '; seq 1 2000 > long.txt; clear")
	tm.run("less long.txt")
	tm.WaitUntil("less's first page", func(s string) bool { return strings.Contains(s, "│1 ") && strings.Contains(s, "│30 ") })
	tm.Keys("q")
	tm.WaitFor("$ less long.txt")

	tm.run("htop")
	tm.WaitFor("PID USER", "F10Quit")
	tm.Keys("q")
	s := tm.WaitFor("$ htop ")
	if strings.Contains(s, "PID USER") {
		t.Fatalf("htop's page stayed on the normal screen:\n%s", s)
	}

	tm.run("mc -u")
	s = tm.WaitFor("Left     File     Command     Options     Right", "10Quit", "UP--DIR")
	if strings.Contains(s, "$ mc -u") {
		t.Fatalf("mc's first frame has the shell's lines in it:\n%s", s)
	}
	tm.Keys("F10")
	s = tm.WaitFor("$ mc -u")
	if strings.Contains(s, "UP--DIR") {
		t.Fatalf("mc's page stayed behind:\n%s", s)
	}
}
