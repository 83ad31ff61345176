// Package ui owns the screen: the App and its event loop, the layout of the
// four panes, the chat (message list, Markdown, tool cards, input), the
// Router that sends each tool call's events to the widgets it drives, the
// permission dialog, the Changes tab and the checkpoint machinery behind
// /rewind, the help overlay, the key tables of the global and chat
// contexts, and crash handling. The App is the slash commands' Host
// (host.go). Sub-packages hold what needs no App:
//
//   - commands: the slash commands, one file per command or family, each
//     acting only through the Host interface and the typed services
//     (package backend);
//   - render: the cell buffer a frame is drawn on, styled text (Span, Line),
//     wrapping, truncation, sanitizing and syntax highlighting;
//   - panes: the to-do view and the status bar;
//   - editor: the editor pane (code view and tabs);
//   - termview: the terminal pane;
//   - explorer: the file tree;
//   - picker: the fuzzy picker the file finder and other lists use;
//   - sessions: the /resume picker;
//   - trustprompt: the question asked before opening an untrusted project;
//   - keymap: key bindings as data, one table per context;
//   - theme: the colours.
//
// ui imports those sub-packages (but termview and trustprompt, which
// cmd/fawn builds and shows) and the packages whose state it shows (backend, agent,
// checkpoint, session, tools, mcp, lsp, …); none of those imports ui, and
// only cmd/fawn does.
//
// Data flows one way: agent events → Router → widgets. Widgets never call
// into the graph; user intent goes through the small Agent interface (Run,
// Approve, SetMode, Clear) and the typed Services beside it (compaction,
// checkpoints, sessions, models, …): a field each, not methods looked for
// on the Agent, so the compiler checks that fawn's agent provides them.
//
// Threading: everything here runs on the UI goroutine, the one inside
// App.Run, except the methods documented as safe from any goroutine
// (RequestDraw, QueueUpdate, Stop, Go, Recover, Redraw.Request). The App
// does not use tview.Application: its own loop drains one inbox per
// iteration, draws at most once per frame and not at all when nothing
// changed, never blocks a caller, and hands Ctrl-C to the focused pane.
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
