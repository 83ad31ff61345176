package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/desktop"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/sessions"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Options configure the App.
type Options struct {
	// Agent runs the turns; required.
	Agent backend.Agent
	// Services are what the agent offers beyond turns (compaction,
	// checkpoints, sessions, …); backend.SessionServices gives fawn's agent's.
	// Those left nil are not offered.
	Services backend.Services
	// Config is the effective configuration; nil means defaults.
	Config *config.Config
	// Root is the project directory (titles, relative paths in cards).
	Root string
	// Editor is the editor tabs (*editor.Tabs); nil shows a placeholder.
	Editor EditorPane
	// Watcher is the project's watcher, given to the editor too, so the
	// explorer watches through the same one; nil: the explorer makes its own.
	Watcher *project.Watcher
	// Terminal is the terminal view (*termview.View); nil shows a placeholder.
	Terminal TerminalPane
	// Keys are the key tables of the panes passed in (the tables given to
	// editor.New and termview.New). ui.keys overrides are applied to them as
	// to the app's own, and the help overlay lists them.
	Keys []*keymap.Table
	// Screen is the screen to draw on; nil means the real terminal. A screen
	// given here must not be initialised yet: Run initialises and finalises it.
	Screen tcell.Screen
	// Notices are shown in the chat at start ("running on the demo model…").
	Notices []string
	// Redraw, when set, is bound to the App, so callbacks made before it
	// existed (the terminal's OnDamage) can ask it to draw.
	Redraw *Redraw

	// Resumed is a saved session the agent carries on (--continue,
	// --resume ID): the chat, to-dos, tabs and terminal directory are
	// shown as they were. PickSession opens the /resume picker at start.
	Resumed     *agent.Resumed
	PickSession bool
	// Cwd reports the terminal's directory and Chdir changes it, for the
	// session to keep and bring back; either may be nil.
	Cwd   func() string
	Chdir func(dir string)
	// NewTerminal, when set, starts another terminal for the user (Alt-N)
	// in dir, named name: its pane, and what closes it. onExit is called,
	// from any goroutine, when its shell exits (the tab then closes).
	NewTerminal func(dir, name string, onExit func()) (pane TerminalPane, close func(), err error)
	// NewTask, when set, makes the parts of another task called name (a
	// git worktree of the project, a session, a shell, an editor): /task
	// new. It runs off the UI goroutine and may take a while.
	NewTask func(ctx context.Context, name string) (TaskOptions, error)
	// Recovery keeps unsaved editor buffers for a fawn that ends without
	// saving them; nil turns that off.
	Recovery *session.Recovery
	// FirstFrame, when set, is called once, when the start-up has settled
	// a moment after the first frame (fawn restores the garbage
	// collector's pace there), on a goroutine of its own.
	FirstFrame func()
	// FrameTime, when set, receives each frame's drawing time, on the UI
	// goroutine after the frame is shown (FAWN_FRAMELOG); FrameStart, as
	// each starts to draw, whether it draws the whole screen or only the
	// chat (so the log can tell fawn's work in a frame from its wait).
	FrameTime  func(time.Duration)
	FrameStart func(full bool)

	// Stderr receives the crash-log message; nil means os.Stderr.
	Stderr io.Writer
	// Exit ends the process after a crash; nil means os.Exit.
	Exit func(code int)
}

// App is fawn's screen: four panes, a status bar, dialogs, and the loop that
// feeds them events. Build it with New, then call Run.
type App struct {
	opts   Options
	cfg    *config.Config
	th     theme.Theme
	screen tcell.Screen
	buf    *render.Buffer // what the widgets draw on, diffed into screen

	rctx     *chat.Ctx // the frame's own widgets' (help, questions)
	status   *panes.StatusBar
	help     *dialogs.Help
	ask      *dialogs.Confirm
	pickers  *pickerHost
	layout   *Layout
	commands *commands.Commands

	// tasks are the conversations the App hosts, the first the project's
	// own; task is the one shown. Everything of a conversation lives in
	// its Task, nothing in the App.
	tasks []*Task
	task  *Task

	keys struct {
		global, chat, messages, dialog, help, explorer, picker *keymap.Table
		chatVim                                                *keymap.Table
		explorerAsk                                            *explorer.PromptKeys
		lists                                                  *panes.Keys
		ask                                                    *dialogs.AskKeys
		editBox                                                *keymap.Table
	}

	// focus is the primitive that has keyboard focus; focusPane its pane.
	focus     tview.Primitive
	focusPane panes.Pane

	// The event loop's inbox: functions to run on the UI goroutine, queued
	// from any goroutine and drained in order, all at once, before a draw.
	mu    sync.Mutex
	inbox []func()
	wake  chan struct{}
	dirty atomic.Bool
	// timerSet is set while the loop waits on a frame timer: it wakes by
	// itself then, drains the inbox and draws, so a text delta queued
	// meanwhile (postChat) does not wake it. An answer streams in about
	// a thousand deltas a second and is drawn thirty times.
	timerSet atomic.Bool
	wakes    atomic.Uint64 // times the loop woke for the wake channel (tests)
	// others is set when something besides the chat and the status bar
	// may have changed since the last frame; while it is not (answer
	// text streaming in, spinners turning), a frame redraws only those
	// two (chatFrame). partialFrames counts such frames (tests).
	others        atomic.Bool
	partialFrames atomic.Uint64
	// now: the next frame is drawn at once, not paced (RequestDrawNow).
	now atomic.Bool
	// frames counts draws (tests and benchmarks read it); frameHook, when
	// set before Run, receives each draw's duration (benchmarks).
	frames     atomic.Uint64
	releasing  atomic.Bool   // releaseMemory's collection is running
	settle     time.Duration // settleAfter; tests lengthen it
	frameHook  func(time.Duration)
	frameStart func(full bool)

	// windowFocused is the terminal window's focus as the terminal reports
	// it (true until it says otherwise); tty receives notifications;
	// attentions counts the bells and notifications sent (tests).
	windowFocused bool
	tty           io.Writer
	attentions    int
	// runCtx is the context turns run in (cancelled when the App stops);
	// readers are the goroutines following turns' events.
	runCtx  context.Context
	readers sync.WaitGroup

	crashOnce sync.Once
	quit      chan struct{}
	quitOnce  sync.Once
	running   atomic.Bool
}

// New builds the App and its widgets. It starts nothing: Run does.
func New(opts Options) (*App, error) {
	if opts.Agent == nil {
		return nil, errors.New("ui: Options.Agent is nil; fawn needs an agent to talk to")
	}
	cfg := opts.Config
	if cfg == nil {
		cfg = &config.Config{}
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if opts.Exit == nil {
		opts.Exit = os.Exit
	}
	a := &App{
		opts:   opts,
		cfg:    cfg,
		th:     theme.Get(cfg.UI.Theme),
		screen: opts.Screen,
		wake:   make(chan struct{}, 1),
		quit:   make(chan struct{}),
		runCtx: context.Background(),

		windowFocused: true,
		frameHook:     opts.FrameTime,
		frameStart:    opts.FrameStart,
	}
	a.keys.global = GlobalKeys()
	a.keys.chat = chat.ChatKeys()
	a.keys.messages = chat.MessageKeys()
	a.keys.dialog = dialogs.DialogKeys()
	a.keys.help = dialogs.HelpKeys()
	a.keys.explorer = explorer.DefaultKeys()
	a.keys.picker = picker.DefaultKeys()
	a.keys.chatVim = chat.ChatVimKeys()
	a.keys.explorerAsk = explorer.DefaultPromptKeys()
	a.keys.lists = panes.DefaultKeys()
	a.keys.ask = dialogs.DefaultAskKeys()
	a.keys.editBox = dialogs.EditKeys()

	a.rctx = &chat.Ctx{Th: &a.th, MD: chat.NewMarkdown(&a.th), Root: opts.Root}
	a.rctx.MD.Async = func(work func() func()) { a.Go(func() { a.post(work()) }) }
	a.commands = commands.New()
	a.commands.SetServices(func() backend.Services { return a.task.svc })
	a.status = panes.NewStatusBar(&a.th, a.statusInfo)
	a.help = dialogs.NewHelp(a.rctx, a.keys.help, a.keyTables, a.commands)
	a.ask = dialogs.NewConfirm(a.rctx)
	a.ask.SetEditKeys(a.keys.editBox)
	a.pickers = newPickerHost()
	if opts.Redraw != nil {
		opts.Redraw.app.Store(a)
	}
	a.layout = newLayout(&a.th, nil, nil, nil, a.status)
	taskbar := panes.NewTaskBar(&a.th, a.taskTabs, func() uint64 { return a.rctx.Frame })
	taskbar.OnSelect = func(i int) { a.switchTo(a.tasks[i]) }
	a.layout.tasks = taskbar
	a.layout.tasksShown = func() bool { return len(a.tasks) > 1 }

	t := a.newTask(TaskOptions{
		Agent: opts.Agent, Services: opts.Services, Root: opts.Root,
		Editor: opts.Editor, Terminal: opts.Terminal, Watcher: opts.Watcher,
		Resumed: opts.Resumed, Cwd: opts.Cwd, Chdir: opts.Chdir,
		NewTerminal: opts.NewTerminal, Recovery: opts.Recovery,
	})
	a.show(t)

	commands.AddBuiltin(a.commands)
	commands.AddCustom(a)
	commands.AddMCPPrompts(a)
	a.applyKeyOverrides()
	if opts.Resumed != nil {
		a.restore(opts.Resumed)
	}
	if k, ok := a.task.keeper(); ok && opts.PickSession {
		commands.PickSession(a, k)
	}
	for _, n := range opts.Notices {
		t.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: n})
	}
	t.todos.SetItems(opts.Agent.Todos())
	a.task.tracker.Refresh()
	a.setFocus(t.chat)
	a.focusPane = panes.Chat
	return a, nil
}

func (a *App) paneTitle(name string, p tview.Primitive) render.Line {
	st := tcell.StyleDefault.Foreground(a.th.Dim)
	if p.HasFocus() {
		st = tcell.StyleDefault.Foreground(a.th.Accent).Bold(true)
	}
	return render.Line{{Text: " " + name + " ", Style: st}}
}

func (a *App) wireWidgets(t *Task) {
	if tc, ok := t.terminal.(interface{ SetOnCopy(func(string)) }); ok {
		tc.SetOnCopy(a.copy) // text selected with the mouse in the terminal pane
	}
	if tl, ok := t.terminal.(interface{ SetOnLink(func(string)) }); ok {
		tl.SetOnLink(a.openLink)
	}
	t.input.OnSubmit = t.typed
	t.input.OnCancel = a.escape
	t.input.Busy = t.turnRunning
	t.input.OnScroll = t.list.ScrollPages
	t.input.OnMessages = func() {
		if t.list.Len() > 0 {
			a.setFocus(t.list)
			t.list.SelectLast()
			a.flash("↑↓ select · y copy · Space expand · Enter open · Esc back")
		}
	}
	t.input.OnOpenFile = a.openFinder
	t.input.OnHistorySearch = func() {
		var store sessions.PromptStore
		if k, ok := t.keeper(); ok {
			store = k.Store()
		}
		sessions.SearchPrompts(a, t.input.History(), store, func(text string) {
			t.input.SetText(text, true)
			t.input.UpdateCompletion()
		})
	}
	if t.svc.Attach != nil {
		t.files = project.NewIndex(t.root, t.opts.Watcher)
		var mentions picker.Matcher // narrows as the @-token grows
		t.input.MentionFiles = func(q string) ([]string, bool) {
			t.files.Refresh(a.runCtx, a.Go, func() {
				a.post(func() {
					if t.input.MentionAt >= 0 {
						t.input.UpdateMentions()
					}
				})
			})
			paths, done := t.files.Paths()
			best := mentions.Best(paths, q, 50)
			if rs := commands.WithResources(t.opts.MCP, nil); len(rs) > 0 {
				// The best of all are among the resources and the
				// files' best.
				best = picker.Best(append(rs, best...), q, 50)
			}
			return best, !done
		}
		t.input.HintWidth = -1 // the hint offers @ now
		t.input.ImagePath = func(text string) (string, bool) {
			p, ok := chat.PastedImagePath(text, t.root)
			return render.RelPath(t.root, p), ok
		}
	}
	t.list.OnLeave = func() { a.setFocus(t.input) }
	t.list.OnTypeThrough = func(ev *tcell.EventKey) {
		a.setFocus(t.input)
		t.input.InputHandler()(ev, a.setFocus)
	}
	t.list.OnCopy = func(it chat.Item, text string) { a.copy(text) }
	t.dialog.OnAnswer = func(id string, ans agent.Answer) {
		ag := t.agent
		// Approve may take a lock the agent holds while it emits; never let
		// the UI goroutine wait on it.
		a.Go(func() { ag.Approve(id, ans) })
	}
}

// keyTables returns every table in force, the app's first.
func (a *App) keyTables() []*keymap.Table {
	t := []*keymap.Table{a.keys.global, a.keys.chat, a.keys.chatVim, a.keys.messages}
	t = append(t, a.opts.Keys...)
	t = append(append(t, a.keys.explorer), a.keys.explorerAsk.Tables()...)
	t = append(t, a.keys.lists.Tables()...)
	t = append(append(t, a.keys.dialog), a.keys.ask.Tables()...)
	return append(t, a.keys.editBox, a.keys.picker)
}

// applyKeyOverrides applies ui.keys to every table and warns in the chat
// about action names no table knows and keys that do not parse.
func (a *App) applyKeyOverrides() {
	over := a.cfg.UI.Keys
	if len(over) == 0 {
		return
	}
	clean := map[string][]string{}
	var bad []string
	for name, keys := range over {
		ok := true
		for _, k := range keys {
			if _, err := keymap.Parse(k); err != nil {
				bad = append(bad, fmt.Sprintf("ui.keys.%s: %v", name, err))
				ok = false
			}
		}
		if ok {
			clean[name] = keys
		}
	}
	unknownIn := map[string]int{}
	tables := append(a.keyTables(), a.keys.help)
	for _, t := range tables {
		unknown, err := t.Override(clean)
		if err != nil {
			bad = append(bad, err.Error())
		}
		for _, u := range unknown {
			unknownIn[u]++
		}
	}
	var unknown []string
	for name, n := range unknownIn {
		if n == len(tables) {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	sort.Strings(bad)
	for _, b := range bad {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: b + " — the default keys stay in force"})
	}
	if len(unknown) > 0 {
		what := "action"
		if len(unknown) > 1 {
			what = "actions"
		}
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: fmt.Sprintf(
			"ui.keys: unknown %s %s — press F1 to see the action names", what, strings.Join(unknown, ", "))})
	}
}

// --- workspace (the router's view of the app) --------------------------------

// openFinder focuses the editor and opens its file finder (Ctrl-P from the
// chat, as in the editor).
func (a *App) openFinder() {
	f, ok := a.task.editor.(interface{ OpenFinder() })
	if !ok {
		a.flash("no editor to open files in")
		return
	}
	a.focusOn(panes.Editor)
	f.OpenFinder()
}

// --- focus ------------------------------------------------------------------------

// setFocus gives p keyboard focus (tview's protocol: Blur the old, Focus the
// new, which may delegate to a child).
func (a *App) setFocus(p tview.Primitive) {
	if p == nil {
		return
	}
	if a.focus != nil {
		a.focus.Blur()
	}
	a.focus = p
	p.Focus(func(q tview.Primitive) {
		if q != p {
			a.setFocus(q)
		}
	})
	a.focusPane = a.focusedPane()
}

// focusedPane finds the pane that holds the keyboard focus.
func (a *App) focusedPane() panes.Pane {
	switch {
	case a.task.chat.HasFocus():
		return panes.Chat
	case a.task.editor.HasFocus():
		return panes.Editor
	case a.task.todos.HasFocus():
		return panes.Todo
	case a.task.changes.HasFocus():
		return panes.Changes
	case a.task.terminal.HasFocus(), a.task.strip.terminalFocused():
		return panes.Terminal
	case a.explorerFocused():
		return panes.Explorer
	}
	return a.focusPane
}

// focusOn focuses pane p, switching the strip's tab and leaving a zoom that hides it.
func (a *App) focusOn(p panes.Pane) {
	switch p {
	case panes.Todo, panes.Changes:
		a.task.strip.Show(p)
	}
	if a.layout.zoomed && a.layout.pane(a.layout.zoomPane) != a.layout.pane(p) {
		a.layout.zoomed = false
	}
	switch p {
	case panes.Chat:
		a.setFocus(a.task.chat)
	case panes.Editor:
		a.setFocus(a.task.editor)
	case panes.Terminal:
		// The terminal tab shown, the agent's or one the user opened;
		// when one already has focus, the next one.
		t := a.task.strip.nextTerminal(a.focusPane == panes.Terminal)
		a.task.strip.ShowPrim(t)
		a.setFocus(t)
	case panes.Todo:
		a.setFocus(a.task.todos)
	case panes.Changes:
		a.setFocus(a.task.changes)
		a.task.tracker.Refresh()
	case panes.Explorer:
		if a.task.root == "" {
			return
		}
		a.layout.explorerShown = true
		a.setFocus(a.explorerPane())
	}
	a.focusPane = p
}

// --- status ---------------------------------------------------------------------

func (a *App) statusInfo() panes.StatusInfo {
	ag := a.task.agent
	in := panes.StatusInfo{
		Model:         ag.ModelName(),
		Mode:          ag.Mode(),
		State:         a.task.router.State(a.task.dialog.Visible()),
		Busy:          a.task.router.Busy(),
		Frame:         a.rctx.Frame,
		Session:       a.task.router.SessionUsage,
		Last:          a.task.router.LastTurn,
		ContextWindow: a.contextWindow(),
		Hint:          a.keyHint(),
	}
	if in.Session == nil {
		u := ag.Usage()
		in.Session = &u
	}
	if bg := a.task.svc.Background; bg != nil {
		st := bg.Status()
		in.Background = panes.BackgroundText(st.What, st.Entries, st.Shared)
		in.Failover = st.Failover
	}
	return in
}

// flash shows a short message in the status bar.
func (a *App) flash(msg string) {
	const d = 3 * time.Second
	a.status.Flash(msg, time.Now().Add(d))
	time.AfterFunc(d+50*time.Millisecond, a.RequestDraw)
}

// copy puts text on the clipboard (OSC 52, which crosses ssh; inside tmux
// also through tmux's own buffer) and says so.
func (a *App) copy(text string) {
	if a.screen != nil {
		a.screen.SetClipboard([]byte(text))
	}
	desktop.CopyToTmux(text, a.Go)
	a.flash("copied " + words.Plural(strings.Count(text, "\n")+1, "line", "lines"))
}

// attend asks for the user's attention with body when a turn ends or a
// permission is asked, unless the terminal window has the focus (it
// reports focus, mode 1004; one that never does is taken as focused: no
// notification rather than one on every turn) or ui.notify is off: the
// bell, or a desktop notification (package desktop). It runs on the UI
// goroutine, which is the one that draws, so the sequence never lands
// inside a frame.
func (a *App) attend(body string) {
	if a.windowFocused || a.cfg.UI.Notify == desktop.NotifyOff {
		return
	}
	a.attentions++
	method := a.cfg.UI.Notify
	if method == "" {
		method = desktop.NotifyBell
	}
	if method == desktop.NotifyBell || a.tty == nil {
		if a.screen != nil {
			_ = a.screen.Beep()
		}
		return
	}
	title := "fawn"
	if a.task.root != "" {
		title = "fawn — " + lastElem(a.task.root)
	}
	_, _ = a.tty.Write(desktop.Notification(method, title, body, os.Getenv("TMUX") != ""))
}

func lastElem(path string) string {
	path = strings.TrimRight(path, "/")
	return path[strings.LastIndexByte(path, '/')+1:]
}

// Notify shows a notice from fawn itself in the chat (red when isErr). It is
// safe from any goroutine: background work such as MCP servers finishing
// their start reports through it.
func (a *App) Notify(text string, isErr bool) {
	kind := chat.NoticeInfo
	if isErr {
		kind = chat.NoticeError
	}
	a.QueueUpdate(func() {
		a.task.list.Append(&chat.Notice{Kind: kind, Text: text})
	})
}

// openLink opens a hyperlink the user asked for in a terminal pane
// (desktop.Links): a file in the shown task's editor, which takes the
// focus.
func (a *App) openLink(link string) {
	desktop.Links{
		Flash: a.flash,
		OpenFile: func(path string) error {
			if err := a.task.editor.Open(path, 0); err != nil {
				return err
			}
			a.setFocus(a.task.editor)
			return nil
		},
		Copy:  a.copy,
		Go:    a.Go,
		Shell: a.cfg.Shell,
	}.Open(link)
}

// --- commands -------------------------------------------------------------------

// AddCommand registers a slash command (replacing one of the same name).
func (a *App) AddCommand(cmd commands.Command) { a.commands.Add(cmd) }

// cycleMode moves to the next permission mode.
func (a *App) cycleMode() {
	cur := a.task.agent.Mode()
	next := agent.Modes[0]
	for i, m := range agent.Modes {
		if m == cur {
			next = agent.Modes[(i+1)%len(agent.Modes)]
		}
	}
	a.setMode(next)
}

// setMode sets the permission mode and says so in the status bar, replacing
// what it said about an earlier mode.
func (a *App) setMode(m agent.Mode) {
	a.task.agent.SetMode(m)
	a.flash("permission mode: " + string(m))
}

// contextWindow is the size of the model in use's context, for the status bar.
func (a *App) contextWindow() int {
	if cx := a.task.svc.Context; cx != nil {
		n, _ := cx.ContextWindow()
		return n
	}
	if sw := a.task.svc.Models; sw != nil {
		if n := sw.ModelConfig().ContextWindow; n > 0 {
			return n
		}
	}
	return a.cfg.Models.Chat.ContextWindow
}

// unsavedEditor is an editor that can tell about and save unsaved files
// (*editor.Tabs is one).
type unsavedEditor interface {
	Unsaved() []string
	SaveAll() error
}

// requestQuit quits, first asking when that would end programs running in
// a terminal or lose unsaved editor files.
// It reports whether the app stops now.
func (a *App) requestQuit() bool {
	running := a.runningPrograms()
	var files []string
	ed, ok := a.task.editor.(unsavedEditor)
	if ok {
		files = ed.Unsaved()
	}
	if len(files) == 0 && running == "" {
		a.Stop()
		return true
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = render.RelPath(a.task.root, f)
	}
	title, text := quitQuestion(running, names)
	if len(files) == 0 {
		a.ask.Ask(title, text,
			dialogs.Choice{Key: "q", Label: "quit and end them", Do: a.Stop},
			dialogs.Choice{Key: "esc", Label: "stay", Do: func() {}},
		)
		return false
	}
	a.ask.Ask(title, text,
		dialogs.Choice{Key: "s", Label: "save all and quit", Do: func() {
			if err := ed.SaveAll(); err != nil {
				a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "could not save: " + err.Error() + " — fawn stays open; fix it or quit without saving"})
				return
			}
			a.Stop()
		}},
		dialogs.Choice{Key: "d", Label: "quit without saving", Do: a.Stop},
		dialogs.Choice{Key: "esc", Label: "stay", Do: func() {}},
	)
	return false
}
