// Package chat owns a task's conversation on screen: the message list and
// its items (the user's messages, answers, reasoning, notices, compaction
// cards), the tool-call cards and the registry of tool kinds that says
// what each card shows and which pane its tool drives, the Markdown
// renderer that highlights code while it streams, the input with its
// history, /command completion and @-mentions, the "!cmd" runs — how each
// ended (ShellRun.End) and their output waiting above it for the next
// message (Pending), and the Router, which reads
// one turn's ordered event stream and sends every event of a tool call, by
// its ID, to that call's card and to the pane its kind drives — through
// Workspace, the task's side of it. A resumed session's chat shows its
// last entries first and the older ones above them after the first frame
// (Backfill). The App (package ui) builds one of
// each per task and lays them out; nothing here knows the App.
//
// Imports from fawn: agent, agent/background (a goal's card), hooks (a hook's run in a card), internal/safetext,
// internal/words, session, terminal (a "!cmd" run's result), tools, trust, ui/commands (the
// registry the input completes from), ui/keymap, ui/panes (pane names),
// ui/picker, ui/render, ui/theme. Imported by: ui, cmd/fawn (tests).
package chat
