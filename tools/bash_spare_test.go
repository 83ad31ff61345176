package tools

import (
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/terminal"
)

// After the user replaced the terminal's shell with exec, the agent's
// command runs in fawn's own bash (started once, on first need) and the
// result says so; the user's shell is left alone.
func TestBashRunsInItsOwnShellAfterExec(t *testing.T) {
	b, term := newBashTool(t, 45*time.Second)
	started := 0
	var spare *terminal.Terminal
	WithSpareShell(func() (*terminal.Terminal, string, error) {
		if spare == nil {
			started++
			var err error
			spare, err = terminal.Start(terminal.Options{Dir: b.env.Root, Env: []string{"HOME=" + t.TempDir()}})
			if err != nil {
				return nil, "", err
			}
			t.Cleanup(func() { spare.Close() })
		}
		return spare, "Agent shell", nil
	})(b)
	invoke(t, b, `{"command":"true"}`) // the first prompt is up
	_, _ = term.Write([]byte("exec sh\r"))
	deadline := time.Now().Add(20 * time.Second)
	for term.Replaced() == "" {
		if time.Now().After(deadline) {
			t.Fatal("exec sh was not noticed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	out := invoke(t, b, `{"command":"echo ran-$((6*7)) in $0"}`)
	if !strings.Contains(out, "ran-42 in bash") || !strings.Contains(out, `fawn's own bash, in the tab "Agent shell"`) {
		t.Fatalf("output:\n%s", out)
	}
	out = invoke(t, b, `{"command":"echo again"}`)
	if !strings.Contains(out, "again") || started != 1 {
		t.Fatalf("second command (%d shells started):\n%s", started, out)
	}
	if term.Replaced() == "" {
		t.Fatal("the user's shell was replaced back")
	}
}
