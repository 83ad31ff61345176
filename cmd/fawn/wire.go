package main

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/agent/background"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/commands"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/bus"
	"github.com/fawn-ide/fawn/lsp"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/sandbox"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/skills"
	"github.com/fawn-ide/fawn/subagent"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/ui"
	uicommands "github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/termview"
	"github.com/fawn-ide/fawn/ui/theme"
	"github.com/fawn-ide/fawn/ui/trustprompt"
	"github.com/fawn-ide/fawn/web"
)

// workspace is what both modes share: the project's tool environment, the
// shell the agent's commands run in, and the tools.
type workspace struct {
	// environ is fawn's environment minus the model keys (shell.unset_env):
	// what the shell and the MCP servers start from.
	environ []string
	env     *tools.Env
	term    *terminal.Terminal
	tools   []tools.Tool
	skills  []skills.Skill
	agents  []subagent.Def
	close   []func()
	// topics carry what the terminals, the language servers and the MCP
	// servers say to the app, which is built after they start.
	topics topics
	// lsp is the project's language servers (always set; env.Code and the
	// code tools only when one may run).
	lsp *lsp.Manager
	// sandbox confines the shared shell (term), when it is on.
	sandbox *sandbox.Shell
}

func (w *workspace) Close() {
	for i := len(w.close) - 1; i >= 0; i-- {
		w.close[i]()
	}
}

func newWorkspace(cfg *config.Config, d *trust.Decision, red *secret.Redactor, watchers *project.Watchers) (*workspace, error) {
	env, err := tools.NewEnv(cfg.ProjectDir)
	if err != nil {
		return nil, err
	}
	// The root's one watcher, shared with every other consumer of it (the
	// editor, the explorer, the file index, the checkpoint book).
	watch, release := watchers.Get(env.Root)
	env.Watch = watch
	env.BashTimeout = cfg.Tools.Bash.Timeout
	env.Web = webAccess(cfg.Web)
	env.Outputs = commandOutputs(cfg, red)
	environ, _ := config.CleanEnv(os.Environ(), cfg.Shell)
	w := &workspace{env: env, environ: environ, topics: newTopics(), close: []func(){release}}
	if w.sandbox, err = newSandbox(cfg, env.Root, environ); err != nil {
		w.Close()
		return nil, err
	}
	th := theme.Get(cfg.UI.Theme)
	shellOpts := terminal.Options{
		Dir:        env.Root,
		BaseEnv:    environ,
		Scrollback: cfg.Tools.Bash.Scrollback,
		Colors:     terminal.Colors{Foreground: rgb(th.Foreground), Background: rgb(th.Paper)},
		// The agent's git must not run what an untrusted .git/config names.
		GuardGit: !d.Trusted(),
		OnDamage: func() { w.topics.redraw.Publish(struct{}{}) },
		OnPrompt: func() { w.topics.prompt.Publish(struct{}{}) },
	}
	env.Sandbox = &shellSandbox{Shell: w.sandbox, opts: shellOpts}
	shellOpts.Start = w.sandbox.Start
	// bash's fork and exec go on beside the rest of the start-up (the
	// spare shell and the one outside the sandbox start as they are
	// asked for, from shellOpts); headless and ACP wait for it (Started),
	// the IDE shows a shell that cannot start in its pane.
	first := shellOpts
	first.Background = true
	term, err := terminal.Start(first)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("cannot start the shell: %w", err)
	}
	w.term = term
	w.close = append(w.close, func() { _ = term.Close() })
	// The agent's own bash, should the user exec another shell in the
	// shared one: the shared shell's options, the sandbox's confinement
	// included (its commands run without a request when it is on).
	spare := &spareShell{opts: shellOpts, started: w.topics.spareShell.Publish}
	w.close = append(w.close, spare.Close)
	w.tools = append(tools.Builtin(env), tools.NewBash(env, term, tools.WithSpareShell(spare.get)))
	if env.Outputs != nil {
		w.tools = append(w.tools, tools.NewViewOutput(env.Outputs))
	}
	if w.skills = skills.Load(cfg.ConfigDir, cfg.ProjectDir); len(w.skills) > 0 {
		w.tools = append(w.tools, tools.NewSkill(w.skills))
	}
	w.agents = subagent.Load(cfg.ConfigDir, cfg.ProjectDir)
	w.lsp = newLSP(cfg, w, d)
	w.close = append(w.close, w.lsp.Close)
	if w.lsp.Available() {
		env.Code = w.lsp
		w.tools = append(w.tools, tools.CodeTools(env)...)
	}
	return w, nil
}

// commandOutputs keeps the whole output of long commands beside the
// project's sessions (nil: no data directory, nothing kept).
func commandOutputs(cfg *config.Config, red *secret.Redactor) *tools.Outputs {
	if cfg.DataDir == "" {
		return nil
	}
	abs, err := filepath.Abs(cfg.ProjectDir)
	if err != nil {
		return nil
	}
	var redact func(string) string
	if red != nil {
		redact = red.String
	}
	return tools.NewOutputs(filepath.Join(cfg.DataDir, "sessions", session.ProjectKey(abs), "outputs"), redact)
}

func headless(ctx context.Context, c *cli, cfg *config.Config, d *trust.Decision, red *secret.Redactor, stdout, stderr io.Writer) int {
	branch, release, err := enterWorktree(ctx, c.worktree, cfg, d, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	defer release()
	ws, err := newWorkspace(cfg, d, red, project.NewWatchers(project.WatchOptions{}))
	if err == nil {
		if err = ws.term.Started(); err != nil {
			ws.Close()
			err = fmt.Errorf("cannot start the shell: %w", err)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	defer ws.Close()
	if n := sandboxNotice(ws.sandbox); n != "" {
		fmt.Fprintln(stderr, "fawn:", n)
	}
	if c.agent != "" {
		return headlessHosted(ctx, c, cfg, d, red, ws, stdout, stderr)
	}
	// Headless runs one turn: it waits for the MCP servers (bounded per server).
	toolset := ws.tools
	var m *mcp.Manager
	if len(cfg.Tools.MCPServers) > 0 {
		m = mcp.Start(ctx, cfg.Tools.MCPServers, cfg.ProjectDir, ws.environ, nil)
		defer m.Close()
		m.WaitStarted(ctx)
		for _, st := range m.Status() {
			if st.State != mcp.Ready {
				fmt.Fprintf(stderr, "fawn: mcp server %s: %s\n", st.Name, st.LastError)
			}
		}
		toolset = append(toolset, m.Tools()...)
	}
	sess, err := agent.NewSession(ctx, agent.Options{Config: cfg, Env: ws.env, Tools: toolset, Interactive: false, Store: newStore(cfg, red), Redactor: red, SaveRule: ruleSaver(cfg), Skills: ws.skills, Subagents: ws.agents, AskUser: true, Trust: d, Sandboxed: ws.sandbox.On})
	restoreGC() // the start-up is over: the turn runs at the usual pace
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	defer sess.Close()
	// Before a resume: it takes the session's notes. A run ends with its
	// turn: nothing is drafted after it, and notes are written only for
	// the turns of a goal (a note begun as the run ends would be lost).
	work := background.ForWith(sess.Background(), background.Options{NoNotes: c.script.goal == "", NoDrafts: true})
	res, notes, _, err := resumeFlags(c, sess, true)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	for _, n := range notes {
		fmt.Fprintln(stderr, "fawn:", n)
	}
	var tabs []session.Tab
	if res != nil && res.Log.Workspace != nil {
		tabs = res.Log.Workspace.Tabs
		ws.restoreCwd(ctx, res.Log.Workspace.Cwd)
	}
	prompt, named, err := mcpPrompt(ctx, m, c.prompt)
	if !named && err == nil {
		prompt, err = customCommand(cfg, c.prompt)
	}
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	typed := ""
	if !named && prompt == c.prompt {
		typed = prompt // the user's own words, not a command's
	}
	in, err := headlessInput(ctx, sess, sess.ModelName(), cfg.ProjectDir, typed, withStdin(prompt, c.stdin), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	if err := c.script.addRules(sess); err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	var run agent.Headless = sess
	if g := c.script.goal; g != "" {
		run = goalRun{Session: sess, work: work, goal: g, root: cfg.ProjectDir}
	}
	code := agent.RunHeadlessOnBranch(ctx, run, in, c.outputFormat, branch, stdout, stderr)
	// The shell's directory goes on to the next -p of the conversation.
	sess.RecordWorkspace(session.Workspace{Tabs: tabs, Cwd: ws.term.Cwd()})
	if sc := signalExit(ctx, nil); code == exitInterrupted && sc != 0 {
		return sc
	}
	return code
}

func interactive(ctx context.Context, c *cli, cfg *config.Config, rep *config.Report, decision *trust.Decision, red *secret.Redactor, extra []string, stderr io.Writer) int {
	// One watcher per project root (a task's worktree is a root of its
	// own), shared by that root's consumers; what watching cannot do is
	// said once, in the chat.
	watchNews := bus.NewTopic[string](bus.MustDeliver)
	watchers := project.NewWatchers(project.WatchOptions{Notify: watchNews.Publish})
	ws, err := newWorkspace(cfg, decision, red, watchers)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	defer ws.Close()

	th := theme.Get(cfg.UI.Theme)
	edKeys := editor.DefaultKeys()
	watch := ws.env.Watch
	edSet := editor.DefaultKeySet()
	ed := editor.New(cfg.ProjectDir, th, edKeys, editorOptions(cfg, watch, edSet)...)
	defer ed.Close()
	ws.env.Guard = ed
	termKeys := termview.DefaultKeySet()
	tv := termview.New(ws.term, th, termKeys)
	tv.SetBorder(false) // the app frames every pane and shows the view's live title
	tv.SetTag(ws.sandbox.Describe)
	// The editor's and the terminals' tables, one set for every task's; the
	// trust prompt's, shown before the IDE, for the help to list.
	keys := append(append([]*keymap.Table{edKeys}, edSet.Tables()...), termKeys.Tables()...)
	keys = append(keys, trustprompt.DefaultKeys())

	store := newStore(cfg, red)
	// The agent behind the panes: fawn's own (sess), or the ACP agent
	// --agent names, whose only service is the checkpoints of its edits.
	var (
		sess        *agent.Session
		backendImpl backend.Agent
		services    backend.Services
		res         *agent.Resumed
		resumeNotes []string
		pick        bool
	)
	noticeCfg := cfg
	if c.agent != "" {
		// The demo model's notice is about fawn's own agent.
		cp := *cfg
		cp.Models.Chat.Demo = false
		noticeCfg = &cp
		h, err := hostedAgent(cfg, c.agent, decision, red, ws, true, ed)
		if err != nil {
			fmt.Fprintf(stderr, "fawn: %v\n", err)
			return exitUsage
		}
		defer closeHosted(h)
		backendImpl, services = h, hostedServices(h)
		if c.sess.cont {
			var note string
			if res, note = continueHosted(ctx, cfg, c.agent, h, stderr); note != "" {
				resumeNotes = append(resumeNotes, note)
			}
		}
		if c.sess.resumeSet {
			var note string
			if res, note, err = resumeHosted(ctx, cfg, c.agent, c.sess.id, h, stderr); err != nil {
				fmt.Fprintf(stderr, "fawn: %v\n", err)
				return exitUsage
			} else if note != "" {
				resumeNotes = append(resumeNotes, note)
			}
		}
	} else {
		sess, err = agent.NewSession(ctx, agent.Options{Config: cfg, Env: ws.env, Tools: ws.tools, Interactive: true, Store: store, Redactor: red, SaveRule: ruleSaver(cfg), Skills: ws.skills, Subagents: ws.agents, AskUser: true, Trust: decision, Sandboxed: ws.sandbox.On})
		if err != nil {
			fmt.Fprintf(stderr, "fawn: %v\n", err)
			return exitUsage
		}
		defer sess.Close()
		if res, resumeNotes, pick, err = resumeFlags(c, sess, false); err != nil {
			fmt.Fprintf(stderr, "fawn: %v\n", err)
			return exitUsage
		}
		backendImpl, services = sess, backend.SessionServices(sess)
	}
	var resources *mcpResources // the MCP servers' resources as @-mentions
	if len(cfg.Tools.MCPServers) > 0 && sess != nil {
		resources = &mcpResources{Attacher: services.Attach}
		services.Attach = resources
	}
	if err := c.script.addRules(sess); err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	opts := ui.Options{
		Agent:       backendImpl,
		Services:    services,
		Config:      cfg,
		Root:        cfg.ProjectDir,
		Editor:      ed,
		Watcher:     watch,
		Terminal:    tv,
		Keys:        keys,
		Notices:     append(append(resumeNotes, notices(noticeCfg, rep, decision, ws.sandbox)...), extra...),
		Resumed:     res,
		PickSession: pick,
		Cwd:         ws.term.Cwd,
		Chdir:       func(dir string) { go ws.restoreCwd(ctx, dir) },
		NewTerminal: userTerminal(cfg, ws, th, termKeys),
	}
	if res != nil {
		// The resume's own notes are shown with the session it restores.
		opts.Notices = append(notices(cfg, rep, decision, ws.sandbox), extra...)
	}
	if store != nil {
		opts.Recovery = store.Recovery()
	}
	if start, shown, closeLog := frameLog(stderr); shown != nil {
		opts.FrameStart, opts.FrameTime = start, shown
		defer closeLog()
	}
	// /task new opens tasks in worktrees of the project, on fawn's own
	// agent (a hosted agent's tasks are not built yet).
	kit := &taskKit{cfg: cfg, decision: decision, red: red, th: th, edKeys: edKeys, edSet: edSet, termKeys: termKeys, watchers: watchers}
	if sess != nil {
		kit.pools = sess.Pools()
	}
	if c.agent == "" {
		opts.NewTask = kit.newTask
	}
	// Once the start-up has settled, the shell's prompt painted: the
	// collector's pace back, and the tasks a fawn left open looked for
	// (git runs for each, which is not to run beside the first frame and
	// the shell's start).
	opts.FirstFrame = func() {
		restoreGC()
		if c.agent == "" {
			// --continue reopens the tasks that were open; else those a
			// fawn killed left behind are offered back.
			go kit.reopenTasks(ctx, c.sess.cont)
		}
	}
	app, err := ui.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	kit.app = app
	ed.SetRedraw(app.RequestDraw)
	app.AddCommand(uicommands.Sandbox(sandboxSwitch{Shell: ws.sandbox, term: ws.term}))
	first := c.agent
	if first == "" {
		first = uicommands.OwnAgent
	}
	app.AddCommand(uicommands.AgentSwitch(agentControl{kit: kit, first: first}))
	defer wireLSP(app, ed, ws)()
	defer watchNews.Subscribe(func(text string) { app.Notify(text, true) })()
	defer ws.topics.redraw.Subscribe(func(struct{}) { app.RequestDraw() })()
	defer ws.topics.prompt.Subscribe(func(struct{}) { app.RequestDrawNow() })()
	defer ws.topics.spareShell.Subscribe(func(t *terminal.Terminal) {
		v := termview.New(t, th, termKeys)
		v.SetBorder(false)
		v.SetName(spareShellName)
		app.ShowTerminal(tv, v)
	})()
	if len(cfg.Tools.MCPServers) > 0 && sess != nil {
		// A hosted agent starts them itself (session/new names them).
		// Subscribed before the servers start, so that no change is
		// missed; ended before they are stopped, whose last changes are
		// for nobody.
		unsubscribe := ws.topics.mcp.Subscribe(mcpNotices(app, sess))
		m := startMCP(ctx, cfg, ws)
		defer m.Close()
		defer unsubscribe()
		app.SetMCP(m)
		resources.m.Store(m)
	}
	err = app.Run(ctx)
	if code := signalExit(ctx, err); code != 0 {
		return code
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// startMCP starts the MCP servers in the background, so the IDE opens at
// once; every change is published on ws.topics.mcp.
func startMCP(ctx context.Context, cfg *config.Config, ws *workspace) *mcp.Manager {
	return mcp.Start(ctx, cfg.Tools.MCPServers, cfg.ProjectDir, ws.environ, ws.topics.mcp.Publish)
}

// mcpNotices binds the MCP servers' changes to the session and the chat: a
// server's tools join the session as soon as it is ready (the model gets
// them from its next request) and every change is said in the chat.
func mcpNotices(app *ui.App, sess *agent.Session) func(mcp.Change) {
	return func(ch mcp.Change) {
		if ch.Catalog {
			return // prompts and resources are read when completed
		}
		if len(ch.NewTools) > 0 {
			if err := sess.AddTools(ch.NewTools...); err != nil {
				app.Notify("MCP: "+err.Error(), true)
			}
		}
		switch ch.State {
		case mcp.Ready:
			switch {
			case ch.Back:
				app.Notify(fmt.Sprintf("MCP: %s is back", ch.Server), false)
			case len(ch.NewTools) > 0:
				app.Notify(fmt.Sprintf("MCP: %s is ready with %s (/tools lists them, /mcp shows the servers)",
					ch.Server, count(len(ch.NewTools), "tool", "tools")), false)
			}
		case mcp.Restarting:
			// Said once per outage; /mcp shows the attempts.
			if ch.Attempt <= 1 {
				app.Notify(fmt.Sprintf("MCP: %s: %s — starting it again in %s", ch.Server, ch.Err, ch.Wait.Round(time.Second)), true)
			}
		case mcp.Failed:
			app.Notify(fmt.Sprintf("MCP: %s: %s (check tools.mcp_servers; /mcp restart %s tries again)", ch.Server, ch.Err, ch.Server), true)
		}
	}
}

// notices are shown in the chat when the IDE opens.
func notices(cfg *config.Config, rep *config.Report, decision *trust.Decision, sb *sandbox.Shell) []string {
	var out []string
	if n := sandboxNotice(sb); n != "" {
		out = append(out, n)
	}
	if n := ignoredNotice(decision, false); n != "" {
		out = append(out, n)
	}
	if cfg.Models.Chat.Demo && cfg.Models.Chat.DemoReason != "" {
		out = append(out, config.DemoNotice(cfg.ConfigDir))
	}
	for _, w := range rep.Warnings {
		out = append(out, "warning: "+strings.TrimPrefix(w.String(), "config: "))
	}
	return out
}

// count says n of a thing: "1 tool", "3 tools".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// restoreCwd takes the shell back to the directory a resumed session's
// terminal was in, when that still exists.
func (w *workspace) restoreCwd(ctx context.Context, dir string) {
	if st, err := os.Stat(dir); dir == "" || dir == w.term.Cwd() || err != nil || !st.IsDir() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, _ = w.term.Run(ctx, terminal.Command{Text: "cd -- " + shellQuote(dir), Timeout: 5 * time.Second}, nil)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ruleSaver keeps the rules the user gives in the permission dialog in the
// project's rules file in the user's data directory.
func ruleSaver(cfg *config.Config) func(effect, rule string) (string, error) {
	f := config.LocalRulesFile(cfg.DataDir, cfg.ProjectDir)
	if f == "" {
		return nil
	}
	return func(effect, rule string) (string, error) {
		if err := config.SaveLocalRule(f, effect, rule); err != nil {
			return "", err
		}
		return f, nil
	}
}

// customCommand expands a prompt that names a custom command ("/review
// main.go"); any other prompt is sent as it is.
func customCommand(cfg *config.Config, prompt string) (string, error) {
	t := strings.TrimSpace(prompt)
	if !strings.HasPrefix(t, "/") || strings.HasPrefix(t, "//") {
		return prompt, nil
	}
	name, args, _ := strings.Cut(t[1:], " ")
	for _, cmd := range commands.Load(cfg.ConfigDir, cfg.ProjectDir) {
		if cmd.Name == name {
			return commands.Expand(cmd, strings.TrimSpace(args), cfg.ProjectDir)
		}
	}
	return prompt, nil
}

// editorOptions are the options of a task's editor, the first task's and
// every one /task new opens: the root's watcher, the user's keys, and
// vim's when editor.keys says so.
func editorOptions(cfg *config.Config, watch *project.Watcher, set *editor.KeySet) []editor.Option {
	opts := []editor.Option{editor.WithWatcher(watch), editor.WithKeySet(set)}
	if cfg.Editor.Keys == "vim" {
		opts = append(opts, editor.WithVimKeys())
	}
	return opts
}

// rgb is a theme colour as image/color has it.
func rgb(c tcell.Color) color.Color {
	r, g, b := c.RGB()
	return color.RGBA{uint8(r), uint8(g), uint8(b), 0xff}
}

// userTerminal starts a terminal for the user (Alt-N) beside the agent's
// in ws: the same environment (no model keys), its own pty and directory.
func userTerminal(cfg *config.Config, ws *workspace, th theme.Theme, termKeys *termview.Keys) func(dir, name string, onExit func()) (ui.TerminalPane, func(), error) {
	return func(dir, name string, onExit func()) (ui.TerminalPane, func(), error) {
		t, err := terminal.Start(terminal.Options{
			Dir:        dir,
			BaseEnv:    ws.environ,
			Scrollback: cfg.Tools.Bash.Scrollback,
			Colors:     terminal.Colors{Foreground: rgb(th.Foreground), Background: rgb(th.Paper)},
			OnDamage:   func() { ws.topics.redraw.Publish(struct{}{}) },
			OnPrompt:   func() { ws.topics.prompt.Publish(struct{}{}) },
			OnExit:     func(int) { onExit() },
		})
		if err != nil {
			return nil, nil, err
		}
		v := termview.New(t, th, termKeys)
		v.SetBorder(false)
		v.SetName(name)
		return v, func() { _ = t.Close() }, nil
	}
}

// webAccess is how the web tools reach the web, as the user configured.
func webAccess(c config.Web) *tools.WebAccess {
	private := map[string]bool{}
	for _, h := range c.Fetch.AllowPrivate {
		private[strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")] = true
	}
	wa := &tools.WebAccess{Fetch: &web.Client{
		Timeout:      c.Fetch.Timeout,
		AllowPrivate: func(host string) bool { return private[host] },
		UserAgent:    "fawn/" + version + " (web_fetch)",
	}}
	if c.Search.Type == "" {
		return wa
	}
	s, err := web.NewSearcher(c.Search.Type, c.Search.URL, c.Search.APIKey)
	if err != nil {
		wa.SearchProblem = "web search is configured but cannot run: " + err.Error()
		return wa
	}
	wa.Search = s
	return wa
}

// goalRun is a headless run under --goal: its turns are judged, and
// followed by more while the goal is not met.
type goalRun struct {
	*agent.Session
	work *background.Work
	goal string
	root string
}

// RunInput runs in, then the turns the goal's judge asks for.
func (g goalRun) RunInput(ctx context.Context, in agent.Input) <-chan agent.Event {
	first := true
	run := func(ctx context.Context, prompt string) <-chan agent.Event {
		if first { // the user's message, with what it attached
			first = false
			return g.Session.RunInput(ctx, in)
		}
		return g.Session.Run(ctx, prompt)
	}
	prompt := in.Typed
	if prompt == "" {
		prompt = in.Text
	}
	return g.work.RunGoal(ctx, run, g.goal, prompt)
}

// Root is the project's directory, for stream-json's init line.
func (g goalRun) Root() string { return g.root }
