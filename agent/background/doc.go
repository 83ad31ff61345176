// Package background owns the work fawn does beside a session's turns, on
// the background entries of models (models.background) so that the
// foreground model's prompt cache stays warm:
//
//   - the turn notes: after each turn a structured note of it (goal,
//     constraints, progress, decisions, next steps, critical context),
//     kept in the session, which compaction takes instead of asking for a
//     summary ([Notes]);
//   - the commit drafter: while the working tree differs from HEAD, a
//     draft commit message for git diff HEAD, refreshed after a turn that
//     changed it, which /commit offers ([Drafter], [DraftCommitMessage]);
//   - the goal: a stop condition judged after each turn by a call of its
//     own, which starts the next turn with what is missing ([Goal]).
//
// [Work] ties them to one session. With no background entry, the work
// queues on chat_model's slot (and shares its cache). Nothing here commits
// on its own.
//
// It imports agent, internal/gitcmd and internal/words; backend,
// ui/commands, ui/chat and cmd/fawn import it.
package background
