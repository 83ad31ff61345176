// Package agent owns the coding agent: an explicit eino compose.Graph (model
// node ⇄ tools node) whose conversation persists across turns, the system
// prompt, permissions, retries, compaction and headless mode. The model
// clients it runs on (any OpenAI-compatible server, Anthropic, the offline
// demo) are built by package agent/provider. Tools that arrive later (the
// MCP servers', package mcp) join through [Session.AddTools]; images a tool
// emits ([tools.Images]) follow its result to a model that takes them.
//
// A turn produces one ordered stream of [Event]s. Every event about a tool
// call carries that call's ID, so a consumer (the UI's router, headless
// output) can route it without knowing anything about the graph. The agent
// knows no widget: user intent comes back through Session methods (Run,
// Cancel via the run's context, Approve).
//
// While the shared shell is in the OS sandbox (Options.Sandboxed), the
// bash tool's commands run without a dialog unless a rule asks or denies;
// a command to run once outside the sandbox always asks.
//
// Every request holds a slot of its endpoint (package agent/pool), and a
// turn whose endpoint is down after the retries goes on at the entry's
// fallbacks (endpoints.go).
//
// It imports agent/pool, agent/provider, checkpoint, config, hooks, pricing, rules,
// secret, session, skills, subagent, tools, trust, internal/gitcmd and
// internal/words, never ui;
// cmd/fawn and ui import it (ui/panes for modes and usage).
package agent
