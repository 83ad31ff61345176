// Package terminal owns the shell: one persistent bash in a pty (non-blocking
// master, one writer queue, resize, respawn), a terminal emulator wrapper over
// internal/vt (charmbracelet/x/vt with fixes) that is fed off the read path,
// and the runner the agent's bash tool uses to type commands into that same
// visible shell and capture their output between invisible markers. It knows
// nothing of tools or widgets.
//
// Start starts the shell and returns at once. The user's side is Write
// (encoded keys), Paste, Resize and DrawTo, which a view calls from the UI
// goroutine; Options.OnDamage tells it when to redraw, at most once a
// frame, and Options.OnPrompt when the shell shows a prompt, which the
// user waits for, to be drawn at once. The agent's side is
// Run, which types a Command and returns its Result, and Cwd. Close ends the
// shell, everything it started, and the terminal's goroutines. Running
// names what runs in the shell (fawn asks before quitting then), Replaced
// the program a user's exec put in the shell's place (it has no markers:
// Run refuses with the reason), Clipboard a program's last OSC 52 copy
// (the view passes it on only while it has focus).
//
// Output flows reader → marker scanner (+ the agent command's capture) →
// backlog → feeder → emulator, so a slow emulator never slows a command;
// when output floods in faster than it can be drawn, the display skips the
// middle of it and says so. See fawnrc.bash for the shell side of the
// markers.
//
// The UI never waits for the emulator: DrawTo shows the last frame while a
// write holds it, and Modes, Title, Bells, Size and Resize do not take it.
// Around each agent command the shell sets what the command is read and
// run with, and restores the user's own afterwards: pagers that do not
// wait, interactive_comments on and set -k off (as the permission rules
// read a line) and, with Options.GuardGit (a project fawn does not trust),
// GIT_CONFIG_* entries that make git ignore a monitor, hooks and bare
// repositories the repository's own configuration brings.
//
// With Options.Start each shell starts confined (the sandbox package
// starts bash from a thread it confined), so whatever runs in it — the
// agent's commands and the user's own typing — runs under the same policy.
//
// A panic while parsing output does not end fawn: the emulator is replaced
// by a new one of the same size (the scrollback stays, the screen starts
// blank with a notice) and the shell, which never noticed, goes on.
//
// It imports internal/vt and internal/proc and nothing of the UI; tools (for
// the bash tool), ui/termview and cmd/fawn import it.
package terminal
