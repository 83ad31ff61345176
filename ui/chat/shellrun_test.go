package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/terminal"
)

// A "!cmd" that did not run says why as the user would put it: Esc before
// the terminal took it, a busy terminal, or the error itself.
func TestShellRunThatDidNotRunSaysWhy(t *testing.T) {
	for err, want := range map[error]string{
		context.Canceled: "!make was stopped before it started",
		fmt.Errorf("typing it: %w", terminal.ErrBusy): "!make did not run: the terminal is busy",
		fmt.Errorf("the shell exited"):                "!make did not run: the shell exited",
	} {
		r := &ShellRun{Command: "make", Running: true}
		if got := r.End(terminal.Result{}, err); !strings.HasPrefix(got, want) || r.Running {
			t.Errorf("%v: %q (running %v), want %q", err, got, r.Running, want)
		}
	}
}
