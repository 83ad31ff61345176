// Package checkpoint owns what the agent changed in the project during a
// session, and the way back: a Book of turns (one per user prompt, one per
// rewind), each with the files it changed, content before and after.
//
// Changes come in two ways. The agent's tools report each write
// (tools.ChangeRecorder.Changed, with both contents). The agent's shell
// commands are caught by a scan before and after each command: size, mtime
// and inode of every file of the same ignore-aware walk the tools use. With
// the project's watcher (Options.Watch, project.Watcher, shared with the
// editor, the explorer and the file index) the book keeps those stamps and
// each scan stats only what the watcher's journal says was touched since
// the last; without it, or when watching gives up, each scan walks the
// tree, and ScanMode says why. A file whose stamp moved was changed by the
// command; its content after is
// read from disk, its content before comes from the book's own cache (the
// last content it recorded for the file, if the stamp still matches) or, for
// a file git tracks, from the index when the index's stamp of the file is
// the one the scan saw. Anything else is recorded honestly as unknown.
//
// Contents are kept in the session's content-addressed blob store
// (session.Blobs), each once. A file larger than Options.MaxFile, a binary
// file, or any file once the session's blobs reach Options.MaxBytes is
// recorded by its hash and size only, with a note saying why: it can be
// shown as changed but not restored.
//
// The book is kept beside the session as JSON lines (checkpoints.jsonl), so
// a resumed session can still be rewound. Restoring (a file, a turn, a
// rewind) writes byte-exact contents and is itself recorded as a turn, so it
// can be undone; it never overwrites a file the user changed since the
// agent's version: such files come back as conflicts for the caller to ask
// about. Nothing is ever written inside .git/.
//
// It imports project, session and internal/gitcmd; agent and ui import it.
package checkpoint
