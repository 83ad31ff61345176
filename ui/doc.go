// Package ui is the frame: the App, its event loop (loop.go), the layout
// and the strip (layout.go), focus, overlays, the keys of its own table
// (keys.go), crash handling (crash.go) and the recovery of unsaved
// buffers (recovery.go), when to call the user back (attend), and the
// tasks it hosts. A Task (task.go) is one conversation and everything it
// drives — its agent backend and services, its chat, editor, terminals
// (terminals.go), to-dos, changes, permission requests, turns and "!cmd"
// runs (turns.go), its session shown again (restore.go) — and the App
// shows one task at a time; one not shown goes on working, its events
// routed to its own widgets. The App is the slash commands' Host
// (host.go). What a task does that needs no App lives in the rooms below,
// each against a narrow interface the task or the frame implements (a
// changes.Host, a branch.Host, a sessions.SearchHost, a chat.Workspace, a
// commands.Host):
//
//   - branch: /task merge of a task's own git branch into its base;
//   - chat: the message list, its items and tool cards, the kind registry,
//     Markdown, the input with completion and @-mentions, and the Router
//     from a turn's events to the widgets each tool call drives;
//   - changes: a task's changes — the Changes tab's actions, /diff,
//     /revert, /rewind and Esc Esc, restores that meet hand edits (three
//     versions), and /task review of a task's branch (a Tracker per task);
//   - desktop: what fawn hands the desktop — a notification's escape
//     sequence, the clipboard through tmux, a terminal's links opened;
//   - dialogs: the permission dialog, keyed questions, the help overlay;
//   - commands: the slash commands, one file per command or family, each
//     acting only through the Host interface and the typed services
//     (package backend), offered per task by the services they need;
//   - panes: the pane names, the to-do view, the Changes tab and the
//     status bar;
//   - render: the cell buffer a frame is drawn on, styled text (Span, Line),
//     wrapping, truncation, sanitizing, borders and syntax highlighting;
//   - editor: the editor pane (code view and tabs);
//   - termview: the terminal pane;
//   - explorer: the file tree;
//   - picker: the fuzzy picker and matching the finder and @ use;
//   - sessions: the /resume picker and the prompt history search (Ctrl-R);
//   - trustprompt: the question asked before opening an untrusted project;
//   - keymap: key bindings as data, one table per context;
//   - theme: the colours;
//   - syntax: the lexers, read on first use;
//   - display: the terminal screen, guarded against control characters.
//
// Imports from fawn: agent, backend, config, internal/proc,
// internal/safetext, internal/words, project, session, terminal, tools and
// those sub-packages (but termview and trustprompt, which cmd/fawn builds and
// shows). Imported by:
// cmd/fawn only.
//
// Data flows one way: agent events → Router → widgets. Widgets never call
// into the graph; user intent goes through the small backend.Agent interface (Run,
// Approve, SetMode, Clear) and the typed Services beside it (compaction,
// checkpoints, sessions, models, …): a field each, not methods looked for
// on the Agent, so the compiler checks that fawn's agent provides them.
//
// Threading: everything here runs on the UI goroutine, the one inside
// App.Run, except the methods documented as safe from any goroutine
// (RequestDraw, QueueUpdate, Stop, Go, Recover, Redraw.Request,
// ShowTerminal). The App does not use tview.Application: its own loop
// drains one inbox per iteration, draws at most once per frame and not at
// all when nothing changed, never blocks a caller, and hands Ctrl-C to the
// focused pane; a pane that captures keys (the terminal: every key but its
// escape key) gets them before the global table (terminals.go).
//
// Wiring, as cmd/fawn does it:
//
//	app, err := ui.New(ui.Options{Agent: sess, Services: backend.SessionServices(sess),
//		Config: cfg, Root: root,
//		Editor: tabs, Terminal: view, Keys: []*keymap.Table{edKeys, termKeys},
//		Notices: notices})
//	...
//	err = app.Run(ctx) // until Ctrl-Q, /exit, SIGTERM, SIGHUP or ctx is done
package ui
