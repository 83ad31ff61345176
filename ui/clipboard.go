package ui

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/internal/proc"
)

// copyToTmux also hands text to tmux when fawn runs inside it. tmux does not
// pass an application's OSC 52 to the outer terminal unless set-clipboard is
// on; `tmux load-buffer -w` both fills tmux's paste buffer and forwards the
// text to the outer terminal's clipboard (tmux ≥ 3.2), which reaches the
// user's machine over ssh.
func copyToTmux(a *App, text string) {
	if os.Getenv("TMUX") == "" {
		return
	}
	a.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		cmd := proc.Command(ctx, "tmux", "load-buffer", "-w", "-")
		cmd.Stdin = strings.NewReader(text)
		if cmd.Run() != nil {
			// tmux older than 3.2 has no -w: fill its buffer at least.
			cmd = proc.Command(ctx, "tmux", "load-buffer", "-")
			cmd.Stdin = strings.NewReader(text)
			_ = cmd.Run()
		}
	})
}
