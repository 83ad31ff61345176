// Package panes owns the names of the screen's areas (Pane) and the panes
// that draw without the App: the to-do view (TodoView, and the to-do line
// the chat's todo_write card shows too), the Changes tab (ChangesView: the
// files a session changed, newest first, with their counts, and the rows
// it is built from, ChangeRows), the agent terminal tab (AgentTerm: the
// commands a hosted agent runs itself and their output, read only) and the
// status bar (StatusBar). The lists' keys are tables (Keys: todo.*,
// changes.*, agent_terminal.*) the user's bindings override. Each takes
// only what it shows: the theme, a list to set, or a function the App
// answers at draw time (StatusInfo). Everything here runs on the UI
// goroutine.
//
// Imports from fawn: agent (modes and usage), checkpoint (the Changes
// tab's book), internal/safetext, tools (to-dos), ui/editor (diff counts),
// ui/keymap, ui/render, ui/sessions (ages), ui/theme. Imported by: ui,
// ui/chat (pane names), ui/changes (the Changes tab), cmd/fawn (the key
// tables, for config --check).
package panes
