package commands

import "strings"

// The checkpoint machinery behind these (the pickers, restoring files,
// conflicts, the Changes tab) is ui/changes', one Tracker per task; the
// commands only ask the Host for it.

// Rewind is /rewind: go back to before a prompt. It needs the Rewind
// service.
func Rewind() Command {
	return Command{Name: "rewind", Help: "Go back to before a prompt: its files, the conversation, or both (also Esc Esc on an empty input)", Run: func(h Host, _ string) {
		h.PickRewind()
	}}
}

// Diff is /diff: the files changed in this session. It needs the Rewind
// service.
func Diff() Command {
	return Command{Name: "diff", Help: "List the files changed in this session, by whom, with +/- counts; Enter shows the diff", Run: func(h Host, _ string) {
		h.PickChange()
	}}
}

// Revert is /revert PATH: a file back as it was before this session
// changed it. It needs the Rewind service.
func Revert() Command {
	return Command{Name: "revert", Args: "PATH", Help: "Put a file back as it was before this session changed it", Run: func(h Host, path string) {
		h.RevertFile(strings.TrimSpace(path))
	}}
}
