// Package backend is the contract between a task and the agent that runs its
// turns: Agent (prompt, cancel by context, events out, permission answers in,
// mode, clear) and Services, the struct of small typed interfaces for what a
// backend offers beyond turns — compaction, checkpoints and rewind, sessions,
// skills, subagents, rules, hooks, models, attachments and the
// background work (goal, commit drafts, turn notes) — each optional and
// each compile-checked against fawn's own agent. The UI shell and the slash
// commands (ui/commands) read them; a hosted agent (ACP) implements them.
// Nothing here draws or runs anything.
//
// Imports from fawn: agent, agent/background, checkpoint, config, hooks, rules, session,
// skills, subagent, tools. Imported by: ui, ui/commands, cmd/fawn.
package backend
