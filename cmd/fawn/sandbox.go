package main

import (
	"context"
	"fmt"
	"os"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/sandbox"
	"github.com/fawn-ide/fawn/terminal"
)

// newSandbox builds the shared shell's sandbox from the configuration:
// the user's secrets and fawn's own directories stay unreadable.
func newSandbox(cfg *config.Config, root string, environ []string) (*sandbox.Shell, error) {
	home, _ := os.UserHomeDir()
	s := cfg.Sandbox
	p, err := sandbox.New(sandbox.Settings{Mode: s.Mode, Network: s.Network, Writable: s.Writable, DenyRead: s.DenyRead},
		root, home, environ, cfg.ConfigDir, cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("%w (check the sandbox section of your config)", err)
	}
	return sandbox.NewShell(p), nil
}

// sandboxNotice says, at the start, that the configured sandbox cannot
// confine the shell here, so its commands ask; "" when there is nothing
// to say.
func sandboxNotice(sb *sandbox.Shell) string {
	if err := sb.Missing(); err != nil {
		return fmt.Sprintf("The shell is not sandboxed: %v. The agent's commands ask before they run, as the permission mode says (sandbox.mode: off in your config stops this notice).", err)
	}
	return ""
}

// sandboxNotices is sandboxNotice as a list, empty when there is nothing
// to say.
func sandboxNotices(sb *sandbox.Shell) []string {
	if n := sandboxNotice(sb); n != "" {
		return []string{n}
	}
	return nil
}

// shellSandbox is the shared shell's sandbox as the bash tool sees it
// (tools.Sandbox): its state, the reading of refusals, and a shell of its
// own, not confined, where a command the user lets out runs once.
type shellSandbox struct {
	*sandbox.Shell
	opts terminal.Options // the shared shell's, without Start
}

// RunOutside runs c once in a new shell in dir, not confined, and ends
// that shell. Its output reaches the command's card as it comes.
func (s *shellSandbox) RunOutside(ctx context.Context, dir string, c terminal.Command, onOutput func(string)) (terminal.Result, error) {
	o := s.opts
	o.Dir, o.Start, o.OnDamage, o.OnPrompt = dir, nil, nil, nil
	o.OnExit = func(int) {} // one command: no new shell if it exits
	t, err := terminal.Start(o)
	if err != nil {
		return terminal.Result{}, fmt.Errorf("cannot start a shell outside the sandbox: %w", err)
	}
	defer t.Close()
	c.ResetCwd = false
	return t.Run(ctx, c, onOutput)
}

// sandboxSwitch is /sandbox's hold on the shared shell's sandbox: turning
// it on or off starts the shell again, under the new state.
type sandboxSwitch struct {
	*sandbox.Shell
	term *terminal.Terminal
}

func (s sandboxSwitch) SetOn(on bool) {
	s.SetOff(!on)
	s.term.Restart()
}
