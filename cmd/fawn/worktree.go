package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/worktree"
)

// checkWorktreeFlag: --worktree NAME goes with -p (the IDE opens tasks
// with /task new), and NAME must be a task's name.
func checkWorktreeFlag(c *cli, fs *pflag.FlagSet) error {
	if !fs.Changed("worktree") {
		return nil
	}
	if !c.printSet || c.sub != "" {
		return errors.New("--worktree goes with -p/--print")
	}
	return worktree.CheckName(c.worktree)
}

// enterWorktree makes the run's project the task name's worktree: the task
// is made at HEAD when new, checked out again when its directory is gone.
// It says so on stderr and returns the task's branch; without a name it
// does nothing. The project's configuration, trust and rules stay those
// read from the project: the worktree is a checkout of it.
//
// A task another running fawn has open is refused. While the run lasts
// the task is recorded as open in this process, so that a run killed
// half-way leaves a task the next IDE offers back; release, when the run
// ends, puts the record back as it was.
func enterWorktree(ctx context.Context, name string, cfg *config.Config, d *trust.Decision, stderr io.Writer) (branch string, release func(), err error) {
	release = func() {}
	if name == "" {
		return "", release, nil
	}
	dir, err := worktreesDir(cfg)
	if err != nil {
		return "", release, err
	}
	m, t, verb, err := taskTree(ctx, name, cfg.ProjectDir, dir, d)
	if err != nil {
		return "", release, err
	}
	if err := openElsewhere(ctx, m, name); err != nil {
		return "", release, err
	}
	wasClosed := false
	if opened, err := m.Opened(ctx); err == nil {
		for _, o := range opened {
			wasClosed = wasClosed || (o.Name == name && o.Closed)
		}
	}
	if m.MarkOpen(name, os.Getpid()) == nil {
		release = func() {
			if wasClosed {
				_ = m.MarkClosed(name) // an IDE's --continue still reopens it
			} else {
				_ = m.Forget(name)
			}
		}
	}
	fmt.Fprintf(stderr, "fawn: task %s on branch %s (%s %s)\n", t.Name, t.Branch, verb, safetext.Line(t.Dir))
	cfg.ProjectDir = t.Project
	return t.Branch, release, nil
}

// worktreesDir is where tasks' worktrees are made.
func worktreesDir(cfg *config.Config) (string, error) {
	dir := cfg.WorktreesDir()
	if dir == "" {
		return "", errors.New("fawn has no data directory to make worktrees in: set worktrees.dir in your config")
	}
	return dir, nil
}

// taskTree finds task name's worktree of the project (and the manager of
// its worktrees), making it at HEAD when it is new and checking it out
// again when its directory is gone; verb says which ("new, in", "checked
// out again in", "in").
func taskTree(ctx context.Context, name, project, dir string, d *trust.Decision) (*worktree.Manager, worktree.Tree, string, error) {
	m, err := worktree.Open(ctx, project, dir)
	if err != nil {
		return nil, worktree.Tree{}, "", err
	}
	m.UserFilters = d.Trusted()
	t, err := m.Get(ctx, name)
	verb := "in"
	switch {
	case errors.Is(err, worktree.ErrNotFound):
		t, err = m.Create(ctx, name)
		verb = "new, in"
	case err == nil && (t.State == worktree.Missing || t.State == worktree.NoWorktree):
		t, err = m.Restore(ctx, t)
		verb = "checked out again in"
	}
	return m, t, verb, err
}
