// Package tools owns the agent's tools: one file per tool (text_editor, bash,
// grep, glob, ls, tree, todo_write, web_fetch, web_search, and the code
// tools diagnostics,
// definition, references, hover and symbols, which ask the language servers
// through [CodeIntel]), each with its description to the model in a .md file
// beside it, and the skill tool, whose description lists the skills found.
// The MCP servers' tools are made in package mcp, the task tool (a
// subagent) in package agent.
//
// Tools know nothing of widgets or of the agent graph. They talk to the rest
// of fawn through three small things defined here: [Env] (the project root and
// the state tools share within a session), [Plan] (what a call would do, so the
// agent can ask permission before it runs), and [Emit] (typed progress events,
// such as a file that changed, which the agent forwards tagged with the
// tool-call ID).
//
// Every tool is confined to the project ([Env.Resolve] refuses any path that
// resolves outside the root, symlinks included) and bounded (results are cut
// with [Truncate] or capped with a note saying how to see more). The walking
// tools walk with package project, which honours .gitignore, .ignore and
// .git/info/exclude as git and ripgrep do; they pass it the user's read-deny
// rules to leave out. text_editor writes with project.WriteFile. [Builtin]
// returns the tools that need nothing but an [Env].
//
// web_fetch and web_search reach the web through package web; their
// results put what came from the web between <web_content> markers that
// say it is untrusted.
//
// Two seams let fawn acp hand work to the editor that hosts it, and are
// left empty everywhere else: [Env.Buffers], where text_editor reads and
// writes file content (the editor's buffers) under the same freshness,
// confinement and checkpoint rules as on disk, and the [Runner] the bash
// tool runs commands with (the shared shell, *terminal.Terminal, or the
// editor's terminals).
//
// It imports project, skills, terminal and web; agent, lsp, mcp, ui, ui/editor,
// ui/panes and cmd/fawn import it.
package tools
