// Package dialogs owns what shows over the panes and waits for the user:
// the permission dialog (a tool call's request, its diff or command, the
// answers and the note to the model; the agent's ask_user question and its
// exit_plan plan in the same frame and queue), the question with a few keyed
// choices (Confirm: quit with unsaved files, revert, recover), and the help
// overlay listing every key table and slash command. Each is an overlay
// the layout draws on top and gives the keyboard to while it is visible.
//
// Imports from fawn: agent, internal/safetext, tools, ui/chat (the render context and diff
// colouring), ui/commands, ui/keymap, ui/render, ui/theme. Imported by: ui,
// ui/branch and ui/changes (questions), cmd/fawn (tests).
package dialogs
