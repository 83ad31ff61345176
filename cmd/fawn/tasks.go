package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/agent/pool"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/termview"
	"github.com/fawn-ide/fawn/ui/theme"
	"github.com/fawn-ide/fawn/worktree"
)

// taskKit is what every task of the IDE shares: the configuration, trust
// and redaction of the project (a task in a worktree works under the
// project's rules), the theme and key tables, the watchers (one per
// root: each task's worktree has its own), and the App once it exists.
type taskKit struct {
	// pools are the model's request slots every task of fawn's own agent
	// shares, so a `parallel` cap holds across tasks (nil until the first
	// such task has a session).
	pools    *pool.Set
	cfg      *config.Config
	decision *trust.Decision
	red      *secret.Redactor
	th       theme.Theme
	edKeys   *keymap.Table
	edSet    *editor.KeySet
	termKeys *termview.Keys
	watchers *project.Watchers
	app      *ui.App // set once the App is built, before any task opens

	mu sync.Mutex
	// resume names the tasks whose next opening carries on the newest
	// session of their worktree (reopened by --continue, or taken back
	// after a crash), each with the turn it waits for: tasks reopened
	// together open one after the other, so their tabs keep their order.
	resume map[string]reopening
	last   chan struct{} // closed when the last task reopened is open
}

type reopening struct{ after, done chan struct{} }

// resumeNext makes the next opening of task name carry on its session,
// after the tasks reopened before it.
func (k *taskKit) resumeNext(name string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.resume == nil {
		k.resume = map[string]reopening{}
	}
	r := reopening{after: k.last, done: make(chan struct{})}
	k.resume[name], k.last = r, r.done
}

// takeResume says whether task name is being reopened, and waits for its
// turn; done ends it (call it once the task is open, or failed to).
func (k *taskKit) takeResume(ctx context.Context, name string) (resume bool, done func()) {
	k.mu.Lock()
	r, ok := k.resume[name]
	delete(k.resume, name)
	k.mu.Unlock()
	if !ok {
		return false, func() {}
	}
	if r.after != nil {
		select {
		case <-r.after:
		case <-ctx.Done():
		}
	}
	return true, func() { close(r.done) }
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
	if err := openElsewhere(ctx, m, name); err != nil {
		return ui.TaskOptions{}, err
	}
	resume, done := k.takeResume(ctx, name)
	defer done()
	o, err := k.open(ctx, t.Project, resume)
	if err != nil {
		return o, err
	}
	o.Branch, o.Tree = t.Branch, taskBranch{m: m, name: name}
	// The record of the open task: a later fawn that finds this process
	// gone without closing it offers the task back; --continue reopens
	// it either way. Not being able to write it costs only that.
	_ = m.MarkOpen(name, os.Getpid())
	closeTask := o.Close
	o.Close = func() {
		closeTask()
		_ = m.MarkClosed(name)
	}
	return o, nil
}

// openElsewhere refuses task name when another fawn that runs has it open:
// two agents and two shells in one worktree would trample each other.
func openElsewhere(ctx context.Context, m *worktree.Manager, name string) error {
	opened, err := m.Opened(ctx)
	if err != nil {
		return nil // the record is a help, not a lock
	}
	for _, o := range opened {
		if o.Name == name && o.Live {
			return fmt.Errorf("another fawn has task %s open: work on it there, or quit that fawn first", name)
		}
	}
	return nil
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
	// A base that cannot take a merge (a dirty checkout, another branch,
	// a detached start) is said before the user is asked to commit; a
	// conflict or nothing to merge yet may change with the commit.
	var conflict *worktree.ConflictError
	if _, err := b.m.Preview(ctx, t); err != nil && !errors.As(err, &conflict) && !errors.Is(err, worktree.ErrUpToDate) {
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

// draftMerge drafts the message of the commit a merge of t makes: the
// seam where a drafter that asks a model would go; this one lists the
// branch's commit subjects (worktree.Manager.Draft).
func draftMerge(ctx context.Context, m *worktree.Manager, t worktree.Tree, mode worktree.Mode) (string, error) {
	return m.Draft(ctx, t, mode)
}

func (b taskBranch) Plan(ctx context.Context) (ui.MergePlan, error) {
	t, err := b.tree(ctx)
	if err != nil {
		return ui.MergePlan{}, err
	}
	ff, err := b.m.Preview(ctx, t)
	if err != nil || ff {
		return ui.MergePlan{FastForward: ff}, err
	}
	p := ui.MergePlan{}
	if p.Message, err = draftMerge(ctx, b.m, t, worktree.MergeCommit); err != nil {
		return p, err
	}
	p.SquashMessage, err = draftMerge(ctx, b.m, t, worktree.Squash)
	return p, err
}

func (b taskBranch) Merge(ctx context.Context, squash bool, message string) (string, error) {
	t, err := b.tree(ctx)
	if err != nil {
		return "", err
	}
	mode := worktree.MergeCommit
	if squash {
		mode = worktree.Squash
	}
	res, err := b.m.Merge(ctx, t, mode, message)
	switch {
	case err != nil:
		return "", err
	case res.FastForward:
		return fmt.Sprintf("%s merged into %s: a fast-forward to %.8s", t.Branch, t.Base, res.Commit), nil
	case squash:
		return fmt.Sprintf("%s merged into %s: squashed into commit %.8s", t.Branch, t.Base, res.Commit), nil
	}
	return fmt.Sprintf("%s merged into %s: merge commit %.8s", t.Branch, t.Base, res.Commit), nil
}

// Review is the branch's changes against its base, each path relative
// to the task's directory (a file outside it, when the project is a
// subdirectory of the repository, keeps its ../ path).
func (b taskBranch) Review(ctx context.Context) ([]panes.ChangeRow, error) {
	t, err := b.tree(ctx)
	if err != nil {
		return nil, err
	}
	changes, err := b.m.Diff(ctx, t)
	if err != nil {
		return nil, err
	}
	rows := make([]panes.ChangeRow, 0, len(changes))
	for _, c := range changes {
		r := panes.ChangeRow{Path: b.rel(t, c.Path), Plus: c.Added, Minus: c.Deleted, Counted: !c.Binary}
		switch c.Status {
		case 'A':
			r.State = "new"
		case 'D':
			r.State = "deleted"
		case 'R':
			r.State = "renamed from " + b.rel(t, c.OldPath)
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	return rows, nil
}

func (b taskBranch) rel(t worktree.Tree, path string) string {
	r, err := filepath.Rel(t.Project, filepath.Join(t.Dir, filepath.FromSlash(path)))
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

func (b taskBranch) Content(ctx context.Context, path string) (base, now []byte, err error) {
	t, err := b.tree(ctx)
	if err != nil {
		return nil, nil, err
	}
	changes, err := b.m.Diff(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range changes {
		if b.rel(t, c.Path) == path {
			return b.m.Content(ctx, t, c)
		}
	}
	return nil, nil, fmt.Errorf("%s: the branch does not change it against its base", path)
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
func (k *taskKit) open(ctx context.Context, dir string, resume bool) (ui.TaskOptions, error) {
	return k.openOn(ctx, dir, "", resume)
}

// openOn is open with the ACP agent hosted (its configured name) as the
// task's backend in place of fawn's own, when hosted is not "". resume
// carries on the newest session of dir (fawn's own agent only).
func (k *taskKit) openOn(ctx context.Context, dir, hosted string, resume bool) (ui.TaskOptions, error) {
	c := *k.cfg
	c.ProjectDir = dir
	ws, err := newWorkspace(&c, k.decision, k.red, k.watchers)
	if err != nil {
		return ui.TaskOptions{}, err
	}
	ed := editor.New(dir, k.th, k.edKeys, editorOptions(k.cfg, ws.env.Watch, k.edSet)...)
	ws.env.Guard = ed
	tv := termview.New(ws.term, k.th, k.termKeys)
	tv.SetBorder(false)
	tv.SetTag(ws.sandbox.Describe)
	store := newStore(&c, k.red)
	be, svc, stop, err := k.backendOf(ctx, &c, ws, ed, store, hosted)
	if err != nil {
		ed.Close()
		ws.Close()
		return ui.TaskOptions{}, err
	}
	var res *agent.Resumed
	if sess, ok := be.(*agent.Session); ok && resume && store != nil {
		// The newest session of the worktree; none (the task never got a
		// prompt) starts a new one.
		if id, err := store.Newest(); err == nil {
			res, _ = sess.Resume(id)
		}
	}
	app := k.app
	endLSP := wireEditorLSP(app, ed, ws)
	endRedraw := ws.topics.redraw.Subscribe(func(struct{}) { app.RequestDraw() })
	endPrompt := ws.topics.prompt.Subscribe(func(struct{}) { app.RequestDrawNow() })
	endSpare := ws.topics.spareShell.Subscribe(func(t *terminal.Terminal) {
		v := termview.New(t, k.th, k.termKeys)
		v.SetBorder(false)
		v.SetName(spareShellName)
		app.ShowTerminal(tv, v)
	})
	o := ui.TaskOptions{
		Agent:       be,
		Services:    svc,
		Root:        dir,
		Editor:      ed,
		Terminal:    tv,
		Watcher:     ws.env.Watch,
		Cwd:         ws.term.Cwd,
		Chdir:       func(d string) { go ws.restoreCwd(ctx, d) },
		NewTerminal: userTerminal(&c, ws, k.th, k.termKeys),
		LSP:         ws.lsp,
		Resumed:     res,
		Close: func() {
			endRedraw()
			endPrompt()
			endSpare()
			endLSP()
			stop()
			ed.Close()
			ws.Close()
		},
	}
	if store != nil {
		o.Recovery = store.Recovery()
	}
	return o, nil
}
