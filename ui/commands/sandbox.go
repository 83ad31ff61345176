package commands

import "strings"

// SandboxControl is the shared shell's OS sandbox as /sandbox sees it.
type SandboxControl interface {
	// Describe says the state in a few words (the terminal pane's title);
	// Explain says the policy in full.
	Describe() string
	Explain() string
	// Configured is nil when the configuration sets a sandbox this system
	// enforces, else why there is none to turn on.
	Configured() error
	// On says whether the shell is confined; SetOn turns the sandbox on
	// or off for the session and starts the shell again under it (it may
	// take a moment: call it off the UI goroutine).
	On() bool
	SetOn(on bool)
}

// Sandbox is /sandbox: show the shell's sandbox, or turn it off (after
// asking) or on again for this session.
func Sandbox(sb SandboxControl) Command {
	return Command{Name: "sandbox", Args: "[on|off]", Help: "Show the shell's sandbox, or turn it off or on for this session", Run: func(h Host, args string) {
		switch strings.TrimSpace(args) {
		case "":
			h.Info("Shell: " + sb.Describe() + ".\n" + sb.Explain() + "\n" + sandboxHint(sb))
		case "off":
			if !sb.On() {
				h.Info("The shell is not sandboxed now: " + sb.Describe() + ".")
				return
			}
			if h.TurnRunning() {
				h.Error("/sandbox off starts the shell again, which would end the agent's command: wait for the turn to end, or press Esc first.")
				return
			}
			h.Ask("Turn the sandbox off?",
				"The shell starts again without the sandbox for the rest of this session: the agent's commands then ask before they run, as the permission mode says, and what you type there is no longer confined.",
				Choice{Key: "y", Label: "turn it off", Do: func() { setSandbox(h, sb, false) }},
				Choice{Key: "esc", Label: "keep it", Do: func() {}})
		case "on":
			if err := sb.Configured(); err != nil {
				h.Error("/sandbox on: " + err.Error())
				return
			}
			if sb.On() {
				h.Info("The shell is sandboxed already: " + sb.Describe() + ".")
				return
			}
			if h.TurnRunning() {
				h.Error("/sandbox on starts the shell again, which would end the agent's command: wait for the turn to end, or press Esc first.")
				return
			}
			setSandbox(h, sb, true)
		default:
			h.Error("/sandbox takes on or off, or nothing to show the sandbox")
		}
	}}
}

func setSandbox(h Host, sb SandboxControl, on bool) {
	h.Go(func() {
		sb.SetOn(on)
		h.Post(func() { h.Info("Shell: " + sb.Describe() + " (the shell started again).") })
	})
}

func sandboxHint(sb SandboxControl) string {
	switch {
	case sb.On():
		return "/sandbox off turns it off for this session (sandbox.mode: off in your config, for good)."
	case sb.Configured() == nil:
		return "/sandbox on turns it on again."
	}
	return ""
}
