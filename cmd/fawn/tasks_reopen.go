package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/internal/words"
	uicommands "github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/worktree"
)

// leftTask is a task a fawn had open and no running fawn has now.
type leftTask struct {
	name string
	// crashed: the fawn that had it open ended without closing it.
	crashed bool
	// uncommitted counts the files its worktree has not committed.
	uncommitted int
}

// tasksLeft lists the tasks of the project that were open in a fawn that
// runs no longer: closed as it quit, or left behind by one killed or
// crashed. A project that is no git repository, or has no commit, has
// none.
func (k *taskKit) tasksLeft(ctx context.Context) (*worktree.Manager, []leftTask) {
	dir, err := worktreesDir(k.cfg)
	if err != nil {
		return nil, nil
	}
	m, err := worktree.Open(ctx, k.cfg.ProjectDir, dir)
	if err != nil {
		return nil, nil
	}
	m.UserFilters = k.decision.Trusted()
	opened, err := m.Opened(ctx)
	if err != nil {
		return nil, nil
	}
	var left []leftTask
	for _, o := range opened {
		if o.Live {
			continue // another fawn has it open
		}
		l := leftTask{name: o.Name, crashed: !o.Closed}
		if t, err := m.Get(ctx, o.Name); err == nil {
			if st, err := m.Status(ctx, t); err == nil {
				l.uncommitted = len(st.Uncommitted)
			}
		}
		left = append(left, l)
	}
	return m, left
}

// reopenTasks runs as the IDE starts, in the background: with --continue
// it reopens every task that was open, each carrying on its session;
// without, it offers back the tasks a fawn left open when it was killed
// or crashed: reopen them, clean them up (their worktrees and branches,
// after a second yes when that loses uncommitted work), or leave them.
func (k *taskKit) reopenTasks(ctx context.Context, cont bool) {
	m, left := k.tasksLeft(ctx)
	if !cont {
		left = crashedOnly(left)
	}
	if len(left) == 0 {
		return
	}
	app := k.app
	reopen := func() {
		for _, l := range left {
			k.resumeNext(l.name)
			app.NewTask(l.name, "")
		}
	}
	if cont {
		app.Post(reopen)
		return
	}
	app.Post(func() {
		app.Ask("Tasks left open", leftText(left),
			uicommands.Choice{Key: "r", Label: "reopen them as tasks", Do: reopen},
			uicommands.Choice{Key: "c", Label: "clean them up: remove their worktrees and branches", Do: func() { k.cleanTasks(ctx, m, left) }},
			uicommands.Choice{Key: "esc", Label: "leave them (fawn --continue, or /task new NAME, reopens one)", Do: func() {}})
	})
}

func crashedOnly(left []leftTask) []leftTask {
	var out []leftTask
	for _, l := range left {
		if l.crashed {
			out = append(out, l)
		}
	}
	return out
}

// leftText says which tasks were left and what each holds uncommitted.
func leftText(left []leftTask) string {
	var names []string
	for _, l := range left {
		n := l.name + " (branch fawn/" + l.name
		if l.uncommitted > 0 {
			n += ", " + words.Plural(l.uncommitted, "file", "files") + " not committed"
		}
		names = append(names, n+")")
	}
	return fmt.Sprintf("A fawn that ended without closing them (killed, or crashed) had %s open: %s.",
		words.Plural(len(left), "task", "tasks"), strings.Join(names, ", "))
}

// cleanTasks discards the tasks left, asking again first when that throws
// away work not committed.
func (k *taskKit) cleanTasks(ctx context.Context, m *worktree.Manager, left []leftTask) {
	app := k.app
	discard := func() {
		go func() {
			var done, failed []string
			for _, l := range left {
				t, err := m.Get(ctx, l.name)
				if err == nil {
					err = m.Discard(ctx, t, true)
				}
				if err != nil {
					failed = append(failed, l.name+": "+err.Error())
					continue
				}
				done = append(done, l.name)
			}
			app.Post(func() {
				if len(done) > 0 {
					app.Info("cleaned up: " + strings.Join(done, ", ") + " (worktrees and branches removed)")
				}
				for _, f := range failed {
					app.Error("not cleaned up: " + f)
				}
			})
		}()
	}
	files := 0
	for _, l := range left {
		files += l.uncommitted
	}
	if files == 0 {
		discard()
		return
	}
	app.Ask("Delete uncommitted work?", fmt.Sprintf("Cleaning up deletes %s that no commit holds. Delete them with the worktrees?", words.Plural(files, "file", "files")),
		uicommands.Choice{Key: "d", Label: "delete them", Do: discard},
		uicommands.Choice{Key: "esc", Label: "keep the tasks", Do: func() {}})
}
