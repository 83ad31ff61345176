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
// The protocol library is github.com/coder/acp-go-sdk, the one fawn uses
// on both sides.
//
// Imports from fawn: agent, backend, commands, session, tools. Imported by
// cmd/fawn.
package serve
