package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/branch"
	"github.com/fawn-ide/fawn/ui/changes"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/render"
)

// TaskOptions are the parts of one task: its agent backend and what the
// backend offers, its project directory, editor and terminal, and how its
// session and workspace are kept. Options carries the first task's.
type TaskOptions struct {
	// Name is the task's name in the task bar; "" is the project's.
	Name string
	// Branch is the git branch the task works on, when it has its own;
	// Tree is what /task merge and /task discard do with it.
	Branch string
	Tree   TaskBranch
	// Agent runs the task's turns; required.
	Agent backend.Agent
	// Services are what the agent offers beyond turns; nil ones are not
	// offered.
	Services backend.Services
	// Root is the task's project directory.
	Root string
	// Editor and Terminal are the task's panes; nil shows a placeholder.
	Editor   EditorPane
	Terminal TerminalPane
	// Watcher is the project's one watcher, shared with the explorer.
	Watcher *project.Watcher
	// Resumed is a saved session the task carries on.
	Resumed *agent.Resumed
	// Cwd and Chdir read and set the terminal's directory; either may be nil.
	Cwd   func() string
	Chdir func(dir string)
	// NewTerminal starts another terminal for the user in dir (Alt-N).
	NewTerminal func(dir, name string, onExit func()) (pane TerminalPane, close func(), err error)
	// Recovery keeps the task's unsaved editor buffers; nil turns that off.
	Recovery *session.Recovery
	// LSP and MCP are the task's language and MCP servers; nil when there
	// are none.
	LSP commands.LSPView
	MCP commands.MCPView
	// Close stops what was started for the task (its shell, session,
	// language servers) when the App ends; nil: the caller stops them.
	Close func()
}

// TaskBranch is what a task working on a git branch of its own (in a
// worktree) can do with it; cmd/fawn gives one over package worktree:
// merge it (/task merge, package branch), review it (/task review,
// package changes: every file it changed against its base, relative to
// the task's directory, and one file's text on the base and now), and
// Discard it, removing the task's worktree and its branch. Its methods
// may take a while: the App calls them off the UI goroutine.
type TaskBranch interface {
	branch.Branch
	changes.Branch
	Discard(ctx context.Context) error
}

// MergePlan is how a task's branch would merge (TaskBranch.Plan).
type MergePlan = branch.Plan

// A Task is one conversation and everything it drives: its agent backend
// and services, its chat (messages, input, the router from the agent's
// events to its widgets), its editor and terminals, its to-dos and
// changes, the permission requests waiting for the user, and the turn
// running and those queued behind it. The App is the frame that shows one
// task at a time; a task not shown goes on working, and its widgets catch
// up when it is shown again. Everything here runs on the UI goroutine.
type Task struct {
	app  *App
	opts TaskOptions
	name string
	root string
	// agent and svc are the backend (opts.Agent, opts.Services).
	agent backend.Agent
	svc   backend.Services

	rctx    *chat.Ctx // the task's root for relative paths; the App's theme and Markdown
	list    *chat.MessageList
	input   *chat.Input
	chat    *chat.View
	todos   *panes.TodoView
	changes *panes.ChangesView
	// tracker keeps the Changes tab and does /diff, /revert, /rewind and
	// /task review.
	tracker       *changes.Tracker
	strip         *Strip
	dialog        *dialogs.PermissionDialog
	editor        EditorPane
	terminal      TerminalPane
	router        *chat.Router
	files         *project.Index // the project's paths, for @ completion
	explorer      *explorer.Explorer
	explorerFrame *frame
	// chatFrame and editorFrame are the chat and editor in their borders,
	// as the layout shows them while the task is shown.
	chatFrame, editorFrame *frame
	// changedPaths are files the agent changed before the explorer was built.
	changedPaths []string
	recovery     *recovery // nil: unsaved buffers are not kept
	lastEsc      time.Time // the last Esc in the input with nothing running (Esc Esc: /rewind)
	// userTerms are the terminals the user opened beside the agent's.
	userTerms []*userTerm
	// agentTerm is the agent terminal tab, nil until a hosted agent runs
	// a command of its own (AgentTerminal).
	agentTerm *panes.AgentTerm
	termSeq   int

	// The turn running (turnCancel set) and the messages queued behind it.
	turnCancel context.CancelFunc
	queued     []*chat.User

	// ended is how the last turn ended (panes.TaskDone or TaskFailed), until
	// the next starts; attention is set while the task is not shown and
	// wants the user (a permission asked, a turn ended).
	ended     panes.TaskState
	attention bool
}

// state is where the task is, for its tab in the task bar.
func (t *Task) state() panes.TaskState {
	switch {
	case t.dialog.Visible():
		return panes.TaskWaiting
	case t.turnRunning():
		return panes.TaskWorking
	}
	return t.ended
}

// Name is the task's name ("" for the project's own).
func (t *Task) Name() string { return t.name }

// Root is the task's project directory.
func (t *Task) Root() string { return t.root }

// newTask builds a task's widgets and wires them to the App; it shows
// nothing (show does).
func (a *App) newTask(o TaskOptions) *Task {
	t := &Task{app: a, opts: o, name: o.Name, root: o.Root, agent: o.Agent, svc: o.Services}
	t.rctx = &chat.Ctx{Th: &a.th, MD: a.rctx.MD, Root: o.Root}
	t.list = chat.NewMessageList(t.rctx, a.keys.messages)
	t.input = chat.NewInput(&a.th, a.keys.chat, a.commands)
	t.input.SetVimKeyTable(a.keys.chatVim)
	t.input.SetVimKeys(a.cfg.Chat.Keys == "vim")
	t.chat = chat.NewView(&a.th, t.list, t.input)
	t.chat.Busy = t.turnRunning
	t.todos = panes.NewTodoView(&a.th, a.keys.lists.Todo)
	t.changes = panes.NewChangesView(&a.th, a.keys.lists.Changes)
	t.dialog = dialogs.NewPermissionDialog(t.rctx, a.keys.dialog)
	t.dialog.SetAskKeys(a.keys.ask)
	if o.Recovery != nil {
		t.recovery = &recovery{rc: o.Recovery}
	}
	t.editor = o.Editor
	if t.editor == nil {
		t.editor = newPlaceholder("No editor.", &a.th)
	}
	t.terminal = o.Terminal
	if t.terminal == nil {
		t.terminal = newPlaceholder("No terminal.", &a.th)
	}
	// The strip draws the terminal's border and its title on the tab.
	if b, ok := t.terminal.(interface{ SetBorder(bool) *tview.Box }); ok {
		b.SetBorder(false)
	}
	if bg := o.Services.Background; bg != nil {
		bg.Watch(a.RequestDraw) // the status bar says what runs in the background
	}
	// Panes whose background work needs a redraw get the App's.
	for _, p := range []tview.Primitive{t.editor, t.terminal} {
		if r, ok := p.(interface{ SetRedraw(func()) }); ok {
			r.SetRedraw(a.RequestDraw)
		}
	}
	t.strip = newStrip(&a.th,
		stripTab{pane: panes.Terminal, prim: t.terminal, title: t.terminalTitle},
		stripTab{pane: panes.Todo, prim: t.todos, title: t.todos.Title},
		stripTab{pane: panes.Changes, prim: t.changes, title: t.changes.Title},
	)
	t.chatFrame = newFrame(t.chat, &a.th, func() render.Line { return a.paneTitle("Chat", t.chat) })
	t.editorFrame = newFrame(t.editor, &a.th, func() render.Line { return a.paneTitle("Editor", t.editor) })
	t.router = chat.NewRouter(chat.NewRegistry(), t.list, t)
	a.wireWidgets(t)
	t.tracker = changes.New(taskHost{t}, o.Services.Rewind, t.changes, t.EditorPane(), o.Root)
	a.tasks = append(a.tasks, t)
	return t
}

// show makes t the task on screen: the layout takes its chat, editor and
// strip, and the overlays its permission dialog.
func (a *App) show(t *Task) {
	a.task = t
	l := a.layout
	l.chat, l.editor, l.strip = t.chatFrame, t.editorFrame, t.strip
	l.explorer = nil
	if t.explorer != nil {
		l.explorer = t.explorerFrame
	} else if l.explorerShown {
		a.explorerPane() // the explorer stays open across tasks
	}
	// A permission request shows over a picker; help and questions over both.
	l.overlays = []overlay{a.pickers, t.dialog, a.help, a.ask}
	a.RequestDraw()
}

// switchTo shows t and gives the keyboard to the same pane of it.
func (a *App) switchTo(t *Task) {
	t.attention = false
	if t == a.task {
		return
	}
	p := a.focusPane
	a.show(t)
	a.focusPane = panes.Chat // so that focusOn(PaneTerminal) takes t's first terminal
	a.focusOn(p)
}

func (t *Task) turnRunning() bool { return t.turnCancel != nil }

// terminalTitle is the terminal's own title when it has one ("Terminal —
// running: go test ./..."), else "Terminal".
func (t *Task) terminalTitle() string {
	// A live title ("Terminal — running: go test ./...") wins over the box's static one.
	if tt, ok := t.terminal.(interface{ Title() string }); ok {
		if s := strings.TrimSpace(tt.Title()); s != "" {
			return s
		}
	}
	if tt, ok := t.terminal.(interface{ GetTitle() string }); ok {
		if s := strings.TrimSpace(tt.GetTitle()); s != "" {
			return s
		}
	}
	return "Terminal"
}

// shown reports whether t is the task on screen.
func (t *Task) shown() bool { return t.app.task == t }

// --- the router's view of the task (workspace) ----------------------------------

func (t *Task) EditorPane() EditorPane {
	if _, ok := t.editor.(*placeholder); ok {
		return nil
	}
	return t.editor
}

// Reveal brings p forward in the strip unless the user is working in the
// tab shown or the terminal is busy (then p's tab is only marked); in a
// task not shown it is only marked.
func (t *Task) Reveal(p panes.Pane) {
	fp := t.app.focusPane
	t.strip.Reveal(p, !t.shown() || fp == panes.Terminal || fp == panes.Todo || fp == panes.Changes)
}

// TerminalUsed records output of the agent's commands in the terminal.
func (t *Task) TerminalUsed() { t.strip.Touch() }

// JumpTo focuses p (a card's Enter or click), in the task shown.
func (t *Task) JumpTo(p panes.Pane) {
	if t.shown() {
		t.app.focusOn(p)
	}
}

func (t *Task) SetTodos(items []tools.Todo) { t.todos.SetItems(items) }

// AgentTerminal is the task's agent terminal tab, where a hosted agent's
// own commands show their output as it arrives: added to the strip beside
// the terminal on the first such command, and brought forward for each
// unless the user works in the strip.
func (t *Task) AgentTerminal() chat.AgentOutput {
	if t.agentTerm == nil {
		v := panes.NewAgentTerm(&t.app.th, t.app.keys.lists.AgentTerm)
		t.agentTerm = v
		t.strip.AddTerminal(stripTab{pane: panes.Terminal, prim: v, title: v.Title})
	}
	if !t.strip.HasFocus() {
		t.strip.ShowPrim(t.agentTerm)
	}
	return t.agentTerm
}

func (t *Task) AskPermission(req agent.PermissionRequest) {
	t.dialog.Push(req)
	t.attention = !t.shown()
	t.flashUnseen("waits for your answer")
	who := req.Tool
	if req.Agent != "" {
		who = req.Agent + " agent's " + req.Tool
	}
	t.app.attend(fmt.Sprintf("%s wants to %s", who, dialogs.Verb(req.Action.Kind)))
}

func (t *Task) PermissionDone(id string) { t.dialog.Drop(id) }

// transcript is a saved session's conversation as the task's chat items; a
// card of an edit opens its file in the task's editor.
func (t *Task) transcript(l *session.Log) []chat.Item {
	return chat.Transcript(t.router.Reg, l, cardOpener(t))
}

// taskTabs are the tasks as the task bar shows them.
func (a *App) taskTabs() []panes.TaskTab {
	tabs := make([]panes.TaskTab, len(a.tasks))
	for i, t := range a.tasks {
		tabs[i] = panes.TaskTab{Name: t.name, State: t.state(), Attention: t.attention, Shown: t == a.task}
	}
	return tabs
}

// switchBy shows the task n places after the one shown (before: n < 0).
func (a *App) switchBy(n int) {
	if len(a.tasks) < 2 {
		a.flash("one task: /task new NAME starts another in its own worktree")
		return
	}
	i := slices.Index(a.tasks, a.task)
	a.switchTo(a.tasks[((i+n)%len(a.tasks)+len(a.tasks))%len(a.tasks)])
}

// switchToNumber shows task n (1-based), as Alt-n asks.
func (a *App) switchToNumber(n int) {
	if n < 1 || n > len(a.tasks) {
		a.flash(fmt.Sprintf("no task %d: %s open", n, words.Plural(len(a.tasks), "task", "tasks")))
		return
	}
	a.switchTo(a.tasks[n-1])
}

// flashUnseen tells the user, in the status bar, what a task not shown
// wants, and how to show it.
func (t *Task) flashUnseen(what string) {
	if t.shown() {
		return
	}
	name := t.name
	if name == "" {
		name = "project"
	}
	msg := "task " + name + " " + what
	if i := slices.Index(t.app.tasks, t); i >= 0 && i < 9 {
		msg += fmt.Sprintf(" — Ctrl-Alt-%d shows it", i+1)
	}
	t.app.flash(msg)
}

// taskHost is the task's side of the rooms that act for it (its
// changes.Tracker, a /task merge): its chat, its strip's Changes tab, and
// the frame's questions, pickers and focus while the task is shown.
type taskHost struct{ t *Task }

var (
	_ changes.Host = taskHost{}
	_ branch.Host  = taskHost{}
)

func (h taskHost) Info(text string) {
	h.t.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: text})
}

func (h taskHost) Error(text string) {
	h.t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: text})
}

func (h taskHost) Flash(msg string) { h.t.app.flash(msg) }

func (h taskHost) Ask(title, text string, choices ...dialogs.Choice) {
	h.t.app.ask.Ask(title, text, choices...)
}

func (h taskHost) Pick(title string, items []picker.Item, onPick func(picker.Item)) *picker.Picker {
	return h.t.app.Pick(title, items, onPick)
}

func (h taskHost) Focus(p panes.Pane) {
	if h.t.shown() {
		h.t.app.focusOn(p)
	}
}

func (h taskHost) RevealTab() { h.t.strip.Reveal(panes.Changes, false) }

func (h taskHost) MarkTab() {
	if h.t.strip.Active() != panes.Changes {
		h.t.strip.Mark(panes.Changes)
	}
}

func (h taskHost) Go(f func())              { h.t.app.Go(f) }
func (h taskHost) Post(f func())            { h.t.app.post(f) }
func (h taskHost) Context() context.Context { return h.t.app.runCtx }
func (h taskHost) TurnRunning() bool        { return h.t.turnRunning() }
func (h taskHost) ReloadChat()              { h.t.reloadChat() }
func (h taskHost) SetInput(text string)     { h.t.input.SetText(text, true) }
