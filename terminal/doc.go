// Package terminal owns the shell: one persistent bash in a pty (non-blocking
// master, one writer queue, resize, respawn), a terminal emulator wrapper over
// charmbracelet/x/vt that is fed off the read path, and the runner the agent's
// bash tool uses to type commands into that same visible shell and capture
// their output between invisible markers. It knows nothing of tools or widgets.
package terminal
