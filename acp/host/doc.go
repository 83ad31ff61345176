// Package host runs an agent that speaks the Agent Client Protocol (ACP v1:
// JSON-RPC 2.0 over the agent's stdin and stdout) as a fawn agent backend:
// Claude Code through its ACP adapter, Gemini CLI (--acp), opencode (acp),
// Codex through its adapter, any other. A [Host] implements backend.Agent.
// It owns the agent's process (started through internal/proc in a process
// group of its own, its stderr written to a log file, never the screen, its
// environment fawn's minus the model keys plus what the agent's
// configuration names), the client side of the protocol (initialize,
// session/new, session/prompt, session/cancel), and the mapping of what the
// agent reports onto fawn's event stream: message and thought chunks become
// text and reasoning deltas; tool_call and tool_call_update become a tool
// call's start, output and end under the agent's toolCallId, named so the
// UI's router sends an edit to the editor tab (text_editor), a command to a
// card (execute) or to the shared terminal (bash, for terminal/*), and a
// plan to the to-do view (todo_write). session/request_permission becomes a
// permission ask answered by fawn's rules and mode first (deny wins) and by
// the user otherwise; fs/read_text_file and fs/write_text_file are served
// inside the project (writes through project.WriteFile, under the same
// rules and mode); terminal/* runs in fawn's shared shell when one is given.
//
// Beyond turns it offers (as backend services) the slash commands the
// agent advertises (available_commands_update), sent to it as prompts;
// signing in where the agent asks (its initialize's authMethods: its own
// way through authenticate, an env key its environment sets used without
// asking); loading a past conversation (session/load, Load), its history
// replayed as a resumed session's transcript; and @-mentions sent as
// resources of the prompt (embedded or linked, as the agent's
// promptCapabilities take them). Its log keeps the protocol both ways
// beside its stderr, secrets hidden.
//
// An agent that exits, stops answering a cancel or writes something that is
// not JSON-RPC ends the turn with an error event that says what happened
// and what to do; the next message starts it again.
//
// The protocol library is github.com/coder/acp-go-sdk (both sides; fawn's
// own ACP agent, package acp/serve, uses its agent side).
//
// Imports from fawn: agent, backend, checkpoint, config, internal/proc,
// internal/safetext, project, rules, secret, session, terminal, tools.
// Imported by: cmd/fawn.
package host
