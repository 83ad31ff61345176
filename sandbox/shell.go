package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"sync/atomic"
)

// Shell is the sandbox of one session's shared shell: the policy, whether
// this system can confine at all, and whether the user turned it off for
// the session (/sandbox). Safe for concurrent use.
type Shell struct {
	policy  Policy
	missing error // why the policy cannot be enforced here, or nil
	off     atomic.Bool
}

// NewShell is the sandbox of a shell under p, on this system.
func NewShell(p Policy) *Shell {
	s := &Shell{policy: p}
	if p.Mode != Off {
		s.missing = Available()
	}
	return s
}

// Policy is the configured policy.
func (s *Shell) Policy() Policy { return s.policy }

// Missing says why the configured sandbox cannot be enforced on this
// system (nil when it can, or when none is configured).
func (s *Shell) Missing() error { return s.missing }

// Configured says why the sandbox cannot be turned on here: nil when
// the configuration sets one this system enforces.
func (s *Shell) Configured() error {
	if s.policy.Mode == Off {
		return errors.New("sandbox.mode is off in your config: set it to workspace-write or read-only to have one")
	}
	if s.missing != nil {
		return fmt.Errorf("no sandbox here: %w", s.missing)
	}
	return nil
}

// Explain says the policy in full, for /sandbox.
func (s *Shell) Explain() string { return s.policy.Explain() }

// On says whether a shell started now is confined.
func (s *Shell) On() bool {
	return s.policy.Mode != Off && s.missing == nil && !s.off.Load()
}

// SetOff turns the sandbox off (or back on) for the session; it applies
// to the next shell started.
func (s *Shell) SetOff(off bool) { s.off.Store(off) }

// Start starts cmd, confined when the sandbox is on
// (terminal.Options.Start).
func (s *Shell) Start(cmd *exec.Cmd) error {
	if !s.On() {
		return cmd.Start()
	}
	return s.policy.Start(cmd)
}

// Describe says the state in a few words for the pane's title.
func (s *Shell) Describe() string {
	switch {
	case s.On():
		return s.policy.Describe()
	case s.policy.Mode == Off:
		return "not sandboxed"
	case s.missing != nil:
		return "not sandboxed: unavailable here, commands ask"
	}
	return "not sandboxed: off for this session"
}

// Refusal is the policy's Refusal while the sandbox is on.
func (s *Shell) Refusal(output string) (string, bool) {
	if !s.On() {
		return "", false
	}
	return s.policy.Refusal(output)
}
