package main

import (
	"context"
	"fmt"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/termview"
	"github.com/fawn-ide/fawn/ui/theme"
	"github.com/fawn-ide/fawn/worktree"
)

// taskKit is what every task of the IDE shares: the configuration, trust
// and redaction of the project (a task in a worktree works under the
// project's rules), the theme and key tables, the one watcher, and the App
// once it exists.
type taskKit struct {
	cfg              *config.Config
	decision         *trust.Decision
	red              *secret.Redactor
	th               theme.Theme
	edKeys, termKeys *keymap.Table
	watch            *project.Watcher
	app              *ui.App // set once the App is built, before any task opens
}

// newTask is /task new NAME: task NAME's git worktree of the project
// (branch fawn/NAME, made at HEAD when new), and in it a task's parts.
func (k *taskKit) newTask(ctx context.Context, name string) (ui.TaskOptions, error) {
	if err := worktree.CheckName(name); err != nil {
		return ui.TaskOptions{}, err
	}
	dir, err := worktreesDir(k.cfg)
	if err != nil {
		return ui.TaskOptions{}, err
	}
	m, t, _, err := taskTree(ctx, name, k.cfg.ProjectDir, dir, k.decision)
	if err != nil {
		return ui.TaskOptions{}, err
	}
	o, err := k.open(ctx, t.Project)
	o.Branch, o.Tree = t.Branch, taskBranch{m: m, name: name}
	return o, err
}

// taskBranch is a task's branch as the App finishes it: over package
// worktree, the Tree read again at each step (the user may have moved it).
type taskBranch struct {
	m    *worktree.Manager
	name string
}

func (b taskBranch) tree(ctx context.Context) (worktree.Tree, error) { return b.m.Get(ctx, b.name) }

func (b taskBranch) Uncommitted(ctx context.Context) ([]string, error) {
	t, err := b.tree(ctx)
	if err != nil {
		return nil, err
	}
	st, err := b.m.Status(ctx, t)
	return st.Uncommitted, err
}

func (b taskBranch) Commit(ctx context.Context, message string) error {
	t, err := b.tree(ctx)
	if err != nil {
		return err
	}
	_, err = b.m.Commit(ctx, t, message)
	return err
}

func (b taskBranch) Merge(ctx context.Context) (string, error) {
	t, err := b.tree(ctx)
	if err != nil {
		return "", err
	}
	res, err := b.m.Merge(ctx, t, worktree.MergeCommit, "Merge task "+b.name+" ("+t.Branch+")")
	if err != nil {
		return "", err
	}
	if res.FastForward {
		return fmt.Sprintf("%s merged into %s: a fast-forward to %.8s", t.Branch, t.Base, res.Commit), nil
	}
	return fmt.Sprintf("%s merged into %s: merge commit %.8s", t.Branch, t.Base, res.Commit), nil
}

func (b taskBranch) Discard(ctx context.Context) error {
	t, err := b.tree(ctx)
	if err != nil {
		return err
	}
	return b.m.Discard(ctx, t, true)
}

// open makes the parts of a task that works in dir, as the first task has
// them in the project: a workspace (its shell, tools, language servers),
// an editor, a terminal view and a session in dir's own store. Close stops
// them all.
func (k *taskKit) open(ctx context.Context, dir string) (ui.TaskOptions, error) {
	c := *k.cfg
	c.ProjectDir = dir
	ws, err := newWorkspace(&c, k.decision, k.red)
	if err != nil {
		return ui.TaskOptions{}, err
	}
	ed := editor.New(dir, k.th, k.edKeys, editor.WithWatcher(k.watch))
	ws.env.Guard = ed
	tv := termview.New(ws.term, k.th, k.termKeys)
	tv.SetBorder(false)
	tv.SetTag(ws.sandbox.Describe)
	store := newStore(&c, k.red)
	sess, err := agent.NewSession(ctx, agent.Options{Config: &c, Env: ws.env, Tools: ws.tools, Interactive: true, Store: store, Redactor: k.red, SaveRule: ruleSaver(&c), Skills: ws.skills, Subagents: ws.agents, AskUser: true, Trust: k.decision, Sandboxed: ws.sandbox.On})
	if err != nil {
		ed.Close()
		ws.Close()
		return ui.TaskOptions{}, fmt.Errorf("cannot start its session: %w", err)
	}
	app := k.app
	endLSP := wireEditorLSP(app, ed, ws)
	endRedraw := ws.topics.redraw.Subscribe(func(struct{}) { app.RequestDraw() })
	endSpare := ws.topics.spareShell.Subscribe(func(t *terminal.Terminal) {
		v := termview.New(t, k.th, k.termKeys)
		v.SetBorder(false)
		v.SetName(spareShellName)
		app.ShowTerminal(tv, v)
	})
	o := ui.TaskOptions{
		Agent:       sess,
		Services:    backend.SessionServices(sess),
		Root:        dir,
		Editor:      ed,
		Terminal:    tv,
		Watcher:     k.watch,
		Cwd:         ws.term.Cwd,
		Chdir:       func(d string) { go ws.restoreCwd(ctx, d) },
		NewTerminal: userTerminal(&c, ws, k.th, k.termKeys),
		LSP:         ws.lsp,
		Close: func() {
			endRedraw()
			endSpare()
			endLSP()
			sess.Close()
			ed.Close()
			ws.Close()
		},
	}
	if store != nil {
		o.Recovery = store.Recovery()
	}
	return o, nil
}
