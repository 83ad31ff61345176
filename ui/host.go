package ui

import (
	"context"
	"fmt"
	"slices"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/ui/branch"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/picker"
)

// The App is the frame the slash commands run in: this file is all a
// command sees of it.
var _ commands.Host = (*App)(nil)

// Info adds an information notice to the chat.
func (a *App) Info(text string) { a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: text}) }

// Error adds an error notice to the chat.
func (a *App) Error(text string) {
	a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: text})
}

// Flash shows a short message in the status bar.
func (a *App) Flash(msg string) { a.flash(msg) }

// Pick opens a picker over the panes.
func (a *App) Pick(title string, items []picker.Item, onPick func(picker.Item)) *picker.Picker {
	p := picker.New(&a.th, title, items)
	p.OnPick = onPick
	a.openPicker(p)
	return p
}

// Post runs f on the UI goroutine.
func (a *App) Post(f func()) { a.post(f) }

// Context ends when the App stops.
func (a *App) Context() context.Context { return a.runCtx }

// Agent is the agent the chat talks to.
func (a *App) Agent() commands.Agent { return a.task.agent }

// Services are what the agent offers beyond turns.
func (a *App) Services() backend.Services { return a.task.svc }

// SetMode sets the permission mode and says so in the status bar.
func (a *App) SetMode(m agent.Mode) { a.setMode(m) }

// LSP is the language servers, or nil.
func (a *App) LSP() commands.LSPView { return a.task.opts.LSP }

// MCP is the MCP servers, or nil.
func (a *App) MCP() commands.MCPView { return a.task.opts.MCP }

// Root is the project's directory.
func (a *App) Root() string { return a.task.root }

// Config is fawn's configuration.
func (a *App) Config() *config.Config { return a.cfg }

// SetLSP gives the first task the project's language servers. Call it
// before Run.
func (a *App) SetLSP(m commands.LSPView) { a.tasks[0].opts.LSP = m }

// SetMCP gives the app the MCP servers, started after it was built (their
// reports go to Notify). Call it before Run.
func (a *App) SetMCP(m commands.MCPView) { a.tasks[0].opts.MCP = m }

// TurnRunning reports whether a turn is running.
func (a *App) TurnRunning() bool { return a.task.turnRunning() }

// RunTurn starts a turn whose events start returns, unless one runs.
func (a *App) RunTurn(start func(ctx context.Context) <-chan agent.Event) bool {
	if a.task.turnRunning() {
		return false
	}
	ctx, cancel := context.WithCancel(a.runCtx)
	a.task.turnCancel = cancel
	a.task.router.BeginTurn()
	a.task.follow(start(ctx), cancel)
	return true
}

// Submit sends text as if typed in the chat.
func (a *App) Submit(text string) { a.task.submit(text) }

// Prompt sends text to the agent, shown in the chat as shown.
func (a *App) Prompt(shown, text string) { a.task.prompt(shown, text) }

// ClearConversation forgets the conversation and clears what shows it.
func (a *App) ClearConversation() {
	a.task.agent.Clear()
	a.task.list.Clear()
	a.task.todos.SetItems(a.task.agent.Todos())
	a.task.tracker.Refresh()
}

// ShowHelp opens the help overlay at its top.
func (a *App) ShowHelp() {
	a.help.Show()
}

// Quit quits, first asking what to do with unsaved editor files.
func (a *App) Quit() { a.requestQuit() }

// Commands is the slash-command registry.
func (a *App) Commands() *commands.Commands { return a.commands }

// ResetChat clears what shows the conversation, for a fresh one.
func (a *App) ResetChat() {
	a.task.list.Clear()
	a.task.router.ResetUsage()
	a.task.todos.SetItems(a.task.agent.Todos())
	a.task.tracker.Refresh()
}

// Ask shows a small modal question.
func (a *App) Ask(title, text string, choices ...commands.Choice) {
	cs := make([]dialogs.Choice, len(choices))
	for i, c := range choices {
		cs[i] = dialogs.Choice{Key: c.Key, Label: c.Label, Do: c.Do}
	}
	a.ask.Ask(title, text, cs...)
}

// Edit shows text to edit, aside beside it.
func (a *App) Edit(title, text, aside string, done func(string)) {
	a.ask.Edit(title, text, aside, done)
}

// RecordWorkspace keeps the open tabs and the terminal's directory in the
// session.
func (a *App) RecordWorkspace() { a.task.recordWorkspace() }

// Restore shows a resumed session.
func (a *App) Restore(res *agent.Resumed) { a.restore(res) }

// PickRewind is /rewind (and Esc Esc) in the task shown.
func (a *App) PickRewind() { a.task.tracker.PickRewind() }

// PickChange is /diff in the task shown.
func (a *App) PickChange() { a.task.tracker.PickChange() }

// RevertFile is /revert PATH in the task shown.
func (a *App) RevertFile(path string) { a.task.tracker.RevertFile(path) }

// ReviewTask turns the review of the shown task's branch on or off.
func (a *App) ReviewTask() {
	t := a.task
	if t.opts.Tree == nil {
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "this task works in the project itself: only a task opened with /task new NAME has a branch to review"})
		return
	}
	t.tracker.Review(t.opts.Tree, t.opts.Branch)
}

// pickerHost shows one picker at a time over the panes (/mode, /model and
// any other command that asks the user to choose from a list).
type pickerHost struct {
	*tview.Box
	cur *picker.Picker
}

func newPickerHost() *pickerHost { return &pickerHost{Box: tview.NewBox()} }

func (h *pickerHost) Visible() bool { return h.cur != nil && h.cur.Open() }
func (h *pickerHost) Modal() bool   { return true }

func (h *pickerHost) Draw(screen tcell.Screen) {
	if !h.Visible() {
		return
	}
	h.cur.SetRect(h.GetRect())
	h.cur.Draw(screen)
}

func (h *pickerHost) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		if h.Visible() {
			h.cur.HandleKey(ev)
		}
	}
}

func (h *pickerHost) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return func(text string, setFocus func(p tview.Primitive)) {
		if h.Visible() {
			h.cur.PasteHandler()(text, setFocus)
		}
	}
}

func (h *pickerHost) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		if !h.Visible() {
			return false, nil
		}
		return h.cur.MouseHandler()(action, ev, setFocus)
	}
}

// openPicker shows p over the panes until the user picks or backs out.
// Another picker already open is replaced.
func (a *App) openPicker(p *picker.Picker) {
	p.SetKeys(a.keys.picker) // with the user's bindings
	a.pickers.cur = p
}

// Picker returns the open picker, or nil (tests, and commands that fill a
// picker as results arrive).
func (a *App) Picker() *picker.Picker {
	if a.pickers.Visible() {
		return a.pickers.cur
	}
	return nil
}

// Tasks lists the tasks open, in the task bar's order.
func (a *App) Tasks() []commands.TaskInfo {
	out := make([]commands.TaskInfo, len(a.tasks))
	for i, t := range a.tasks {
		out[i] = commands.TaskInfo{Name: t.name, Root: t.root, Branch: t.opts.Branch, State: t.state().String(), Shown: t == a.task}
	}
	return out
}

// ShowTask shows the i-th task.
func (a *App) ShowTask(i int) {
	if i >= 0 && i < len(a.tasks) {
		a.switchTo(a.tasks[i])
	}
}

// NewTask opens a task called name in a worktree of its own, off the UI
// goroutine, then shows it and sends prompt as its first message.
func (a *App) NewTask(name, prompt string) {
	if a.opts.NewTask == nil {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "this fawn cannot start tasks (no project to make worktrees of)"})
		return
	}
	for _, t := range a.tasks {
		if t.name == name {
			a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: fmt.Sprintf("a task called %s is open already — Alt-. shows the next task, /task lists them", name)})
			return
		}
	}
	from := a.task
	from.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: "starting task " + name + " in a worktree of its own…"})
	a.Go(func() {
		o, err := a.opts.NewTask(a.runCtx, name)
		a.post(func() {
			if err != nil {
				from.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "task " + name + " was not started: " + err.Error()})
				return
			}
			o.Name = name
			t := a.newTask(o)
			t.todos.SetItems(o.Agent.Todos())
			a.switchTo(t)
			if o.Resumed != nil {
				a.restore(o.Resumed) // a task reopened carries on its session
			}
			where := o.Root
			if o.Branch != "" {
				where = "branch " + o.Branch + " in " + o.Root
			}
			t.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: fmt.Sprintf("task %s works on %s; its edits, shell and session are its own (Alt-. and Alt-, switch tasks)", name, where)})
			if prompt != "" {
				t.submit(prompt)
			}
		})
	})
}

// OpenTask shows the task called name, or, when none is open, makes its
// parts with build off the UI goroutine, then opens and shows it; about
// says what it works on. It is how /agent opens a task on another agent.
func (a *App) OpenTask(name, about string, build func(ctx context.Context) (TaskOptions, error)) {
	for _, t := range a.tasks {
		if t.name == name {
			a.switchTo(t)
			return
		}
	}
	from := a.task
	from.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: "starting task " + name + "…"})
	a.Go(func() {
		o, err := build(a.runCtx)
		a.post(func() {
			if err != nil {
				from.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "task " + name + " was not started: " + err.Error()})
				return
			}
			o.Name = name
			t := a.newTask(o)
			t.todos.SetItems(o.Agent.Todos())
			t.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: fmt.Sprintf("task %s: %s (Alt-. and Alt-, switch tasks)", name, about)})
			a.switchTo(t)
		})
	})
}

// branchTask is the task shown when it works on a branch of its own and
// no turn runs; otherwise it says why not and returns nil.
func (a *App) branchTask(what string) *Task {
	t := a.task
	switch {
	case t.opts.Tree == nil:
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "this task works in the project itself: only a task opened with /task new NAME has a branch to " + what})
		return nil
	case t.turnRunning():
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "a turn is running in this task: wait for it, or Esc, then /task " + what})
		return nil
	}
	return t
}

// MergeTask merges the branch of the task shown into its base branch in
// the project, first asking to commit what its worktree holds uncommitted.
func (a *App) MergeTask() {
	t := a.branchTask("merge")
	if t == nil {
		return
	}
	branch.Merge(taskHost{t}, t.opts.Tree, t.opts.Branch, t.name)
}

// DiscardTask closes the task shown and, after a yes, removes its worktree
// and its branch.
func (a *App) DiscardTask() {
	t := a.branchTask("discard")
	if t == nil {
		return
	}
	a.ask.Ask("Discard task "+t.name, fmt.Sprintf("Close task %s and remove its worktree %s and its branch %s, with whatever was not merged?", t.name, t.root, t.opts.Branch),
		dialogs.Choice{Key: "d", Label: "discard it", Do: func() { a.discard(t) }},
		dialogs.Choice{Key: "esc", Label: "keep it", Do: func() {}})
}

// discard closes t (its shell, session and servers stop) and removes its
// worktree and branch; the first task is shown.
func (a *App) discard(t *Task) {
	i := slices.Index(a.tasks, t)
	if i <= 0 {
		return
	}
	first := a.tasks[0]
	a.switchTo(first)
	a.tasks = slices.Delete(a.tasks, i, i+1)
	closeTask, br := t.opts.Close, t.opts.Tree
	t.opts.Close = nil
	a.Go(func() {
		for _, ut := range t.userTerms {
			ut.close()
		}
		if closeTask != nil {
			closeTask() // the shell leaves the worktree before it goes
		}
		err := br.Discard(a.runCtx)
		a.post(func() {
			if err != nil {
				first.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "task " + t.name + " is closed, but its worktree was not removed: " + err.Error()})
				return
			}
			first.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: "task " + t.name + " discarded: its worktree and branch " + t.opts.Branch + " are gone"})
		})
	})
}
