package tools

import "context"

// The payloads a tool may Emit while it runs. The agent forwards each one,
// tagged with the tool-call ID, to whatever the UI has attached to that ID.

// FileViewed: text_editor view read Path; Start/End are 1-based lines (End -1 = to the end).
type FileViewed struct {
	Path       string
	Start, End int
}

// FileChanged: an edit landed on disk. Before is nil when the file was created;
// After is nil when undo_edit removed a file the agent had created. Command is
// the text_editor command that made it (create, str_replace, insert, undo_edit).
type FileChanged struct {
	Path          string
	Before, After []byte
	Command       string
}

// CodeReport: what the language servers said of an edit (appended to the
// tool's result), for the card.
type CodeReport struct {
	Text string
}

// TodosChanged: todo_write replaced the list.
type TodosChanged struct {
	Items []Todo
}

// Output: a chunk of a running command's output (already ANSI-free), for the
// chat card's live view. Skipped says output before this chunk came faster
// than the live view keeps and was left out of it (the result has it).
type Output struct {
	Text    string
	Skipped bool
}

// CommandDone: a command ended. Output is its output as the model gets it:
// all of it, or its first HeadLines lines, a line saying what was left out,
// and its last lines. TotalLines counts every line the command printed,
// OmittedLines those that are only in the terminal. ExitCode is its exit
// status as the model is told it; -1 when it has none (it was killed, or
// bash could not parse it and nothing ran).
type CommandDone struct {
	Output       string
	TotalLines   int
	OmittedLines int
	HeadLines    int
	Binary       bool
	ExitCode     int
	// Refused is the line of the output by which the OS sandbox refused
	// the command ("touch: cannot touch '../x': Permission denied"), or "".
	Refused string
	// Outside: the command ran once outside the sandbox, as the user let it.
	Outside bool
	// Spill is the file that keeps the whole output, when the result left
	// some of it out (view_output reads it), or "".
	Spill string
}

// CommandTerminal: the command runs in a terminal an editor made for it
// (fawn acp, a client that offers terminals), known there as ID. The
// editor shows its output live.
type CommandTerminal struct {
	ID string
}

type emitterKey struct{}

// Emitter receives a tool's progress events.
type Emitter func(ev any)

// WithEmitter returns a context whose tools send their events to fn.
func WithEmitter(ctx context.Context, fn Emitter) context.Context {
	return context.WithValue(ctx, emitterKey{}, fn)
}

// Emit sends ev to the context's emitter, if there is one.
func Emit(ctx context.Context, ev any) {
	if fn, ok := ctx.Value(emitterKey{}).(Emitter); ok && fn != nil {
		fn(ev)
	}
}
