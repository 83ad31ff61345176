// Package serve owns `fawn acp`: fawn's agent as an Agent Client Protocol
// (v1) agent, spoken over a pair of streams (stdin and stdout) to an editor
// — Zed, a JetBrains IDE, Neovim, Emacs — or a command-line client such as
// acpx. The editor is the UI; the agent is fawn's own, built for each
// session by the caller (Options.Open) exactly as the IDE builds it, and
// driven only through its backend contract: one turn's agent.Event stream
// becomes session/update notifications (message and thought chunks, tool
// calls with their kind, title, locations, status, diff and console
// content, the to-do list as a plan), permission asks become
// session/request_permission answered into Approve, session/cancel
// cancels the turn, session/set_mode sets fawn's permission mode, and
// session/load replays a stored session before the agent carries on from
// it. Nothing of the agent is forked here.
//
// What the client offers in initialize reaches the tools through Client:
// with fs/read_text_file and fs/write_text_file, text_editor reads and
// writes the editor's buffers (tools.Buffers); with terminal/*, the bash
// tool runs each command in a terminal of the editor's (tools.Runner),
// embedded in its tool call. Without them, the disk and fawn's own shell.
//
// The protocol library is github.com/coder/acp-go-sdk, the one fawn uses
// on both sides.
//
// Imports from fawn: agent, backend, commands, project, session, terminal,
// tools. Imported by cmd/fawn.
package serve
