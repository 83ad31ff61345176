// Package changes owns what a task shows and does of the files changed in
// its session, by the agent or by the user: the Changes tab's actions
// (Enter a diff, o open, R revert), the user's saves recorded as changes
// "by you", r and R in a diff putting a hunk or a file back, /diff,
// /revert, /rewind and Esc Esc (the pickers, the questions, rewinding the
// conversation), a restore that meets files changed by hand (the three
// versions side by side, file by file), and /task review, which fills the
// Changes tab with a task's branch against its base. Everything goes
// through the session's checkpoints (backend.Rewinder), so /rewind lists
// every revert, to undo it.
//
// A Tracker is one task's: it acts only through Host, the task's side of
// it (its chat's notices, questions, pickers, focus, goroutines), and
// looks for the editor's diff, version and save hooks on the editor it is
// given. Everything here runs on the UI goroutine but the work it starts
// with Host.Go.
//
// Imports from fawn: backend, checkpoint, internal/safetext,
// internal/words, ui/dialogs, ui/editor, ui/panes, ui/picker, ui/sessions.
// Imported by: ui.
package changes
