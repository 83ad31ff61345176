// Package session owns fawn's session store: every conversation kept on disk
// as it happens, so that closing the window, losing the ssh link or a crash
// loses at most the answer being streamed, and any conversation can be
// resumed exactly as it was.
//
// It imports nothing of fawn; agent, checkpoint, ui, ui/sessions and
// cmd/fawn import it.
//
// # Layout
//
// Sessions are grouped per project directory under the data directory
// (config.Config.DataDir: $FAWN_HOME/data or $XDG_DATA_HOME/fawn):
//
//	<data>/sessions/<project-key>/
//	    project                 the project's absolute path (for people)
//	    <id>.jsonl              one conversation, append-only JSON lines
//	    <id>.meta.json          its summary for listings (derived, rewritten)
//	    <id>/blobs/<aa>/<hex>   content-addressed files of the session
//	                            (images now; file checkpoints later)
//	    recovery/<key>.json     unsaved editor buffers of the project
//
// <project-key> is the directory's base name and a hash of its absolute
// path ("fawn-3f2a9c1d04be"); <id> is 16 random hex digits, so a short
// prefix names a session.
//
// # Format
//
// A transcript is JSON lines: one object per line, each with a "type" and a
// "time" (RFC 3339). The first line is the header; the others are appended
// as the events they record complete, and replayed in order on load:
//
//	session   header: version, id, project, created time, fawn version, parent (forked from)
//	system    the system prompt the model is sent (prompt) and the tools it names (tools)
//	model     the model in use from here on ("openai/gpt-4o")
//	message   one message appended to the conversation: n (its index) and message
//	todos     the to-do list after a change (todos; absent means empty)
//	turn      a turn ended: usage (input, output, cached and context tokens), duration_ms, error
//	compact   the conversation was compacted: reason, focus, summary, tokens_before,
//	          tokens_after and messages, the conversation that replaces it
//	trim      old tool results were shortened: trims, each the index n and its new content
//	history   the conversation replaced whole (messages), e.g. after a repair
//	truncate  the conversation cut to its first keep messages (a rewind)
//	workspace the open editor tabs (tabs: path, line, col, active) and the terminal's cwd
//
// A message has a role (user, assistant, tool), content, reasoning,
// tool_calls (id, name, arguments), tool_call_id and tool_name, and parts
// for messages of text and images (an image part names its blob by its
// SHA-256). Readers ignore record types they do not know; the header's
// version changes only when a reader that does so would misread a file, and
// a file of a newer version is refused with a message saying so.
//
// # Reading
//
// Load and Open replay a transcript whole. OpenLazy, for a resume (and
// LoadLazy, for a chat shown again after a rewind), decodes every record
// but the messages before the last few hundred, which keep their places
// undecoded: the log's state (usage, to-dos, the workspace, the title, the
// counts) is exact at once, its Transcript is the chat's last entries, and
// Messages waits when the conversation reaches back before them; Whole
// decodes the rest from the bytes already read.
//
// # Guarantees
//
// Records are written with one write each, as they complete; the file is
// synced at every tool result and turn end. A line torn by a kill mid-write
// is ignored on load with a warning (and cut off before the next append).
// A writer holds an exclusive lock on its file, so two fawn processes never
// write one session: the second gets ErrLocked and forks (Store.Fork). The
// API keys the Store is told about never reach a file: they are replaced by
// "[redacted]" in every line written.
package session
