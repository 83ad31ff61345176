package ui

import (
	"fmt"
	"path/filepath"

	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/panes"
)

// branchReview is /task review: while it is on, the task's Changes tab
// lists every file its branch changed against its base (its commits and
// what is not committed yet), Enter shows a file's diff against the base
// in the editor, where r puts a hunk back as the base has it and R the
// whole file; each revert goes through the session's checkpoints, so
// /rewind undoes it. /task review again goes back to the session's
// changes.
type branchReview struct {
	t  *Task
	br TaskBranch
	// busy: a refresh is being computed; again: another was asked for.
	busy, again bool
	// base holds the base's content of each file whose diff was shown,
	// for R; shown is the path of the last one.
	base map[string][]byte
}

// ReviewTask turns the review of the shown task's branch on or off.
func (a *App) ReviewTask() {
	t := a.task
	if t.opts.Tree == nil {
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "this task works in the project itself: only a task opened with /task new NAME has a branch to review"})
		return
	}
	if t.review != nil {
		t.review = nil
		t.changes.Label, t.changes.Hint = "", ""
		t.changes.SetRows(nil)
		t.noteChanges()
		t.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: "the Changes tab shows this session's changes again"})
		return
	}
	t.review = &branchReview{t: t, br: t.opts.Tree, base: map[string][]byte{}}
	t.changes.Label = "Review"
	t.changes.Hint = "Enter diff against the base (r a hunk, R the file back as the base has it) · o open · /task review again: this session's changes"
	t.changes.SetRows(nil)
	t.review.refresh()
	t.strip.Reveal(panes.Changes, false)
	a.focusOn(panes.Changes)
	t.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: "reviewing " + t.opts.Branch + " against its base: every file it changed is in the Changes tab"})
}

// refresh lists the branch's files again, in the background.
func (r *branchReview) refresh() {
	if r.busy {
		r.again = true
		return
	}
	r.busy = true
	t := r.t
	t.app.Go(func() {
		rows, err := r.br.Review(t.app.runCtx)
		t.app.post(func() {
			r.busy = false
			if t.review != r {
				return // turned off meanwhile
			}
			if err != nil {
				t.changes.SetNote("cannot review the branch: " + err.Error())
			} else {
				t.changes.SetNote("")
				if len(rows) == 0 {
					t.changes.SetNote("The branch changes nothing against its base yet.")
				}
				t.changes.SetRows(rows)
			}
			if r.again {
				r.again = false
				r.refresh()
			}
		})
	})
}

// diff shows the file at rel (relative to the task's directory) against
// the base in the editor.
func (r *branchReview) diff(rel string) {
	t := r.t
	ed, ok := t.editor.(diffEditor)
	if !ok {
		return
	}
	t.app.Go(func() {
		old, cur, err := r.br.Content(t.app.runCtx, rel)
		t.app.post(func() {
			if err != nil {
				t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: rel + ": " + err.Error()})
				return
			}
			r.base[rel] = old
			if err := ed.ShowDiff(r.abs(rel), old, cur, t.opts.Branch+" against its base"); err != nil {
				t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: err.Error()})
				return
			}
			if t.shown() {
				t.app.focusOn(panes.Editor)
			}
		})
	})
}

func (r *branchReview) abs(rel string) string {
	return filepath.Join(r.t.root, filepath.FromSlash(rel))
}

// reviewing reports whether rel's diff was shown by the review (its
// reverts go back to the base, not to the session's start).
func (r *branchReview) reviewing(rel string) bool {
	_, ok := r.base[rel]
	return ok
}

// revert writes content (a hunk put back; whole: the base's whole file)
// into rel through the checkpoints, then shows the diff again. The editor
// checked that the file is still what the diff showed, so a file the
// session never recorded is written without asking.
func (r *branchReview) revert(b *checkpoint.Book, rel string, content []byte, whole bool) {
	t := r.t
	what := "revert a hunk of " + rel + " to the base"
	if whole {
		old := r.base[rel]
		if old == nil {
			t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: rel + " is new on the branch: the base has no version to put back (remove it in the shell)"})
			return
		}
		content, what = old, "put "+rel+" back as the base has it"
	}
	force := changedFile(b, rel) == nil
	t.app.restoreFiles(what, func(f map[string]bool) (checkpoint.Result, error) {
		return b.Write(rel, content, force || f[rel])
	})
	r.diff(rel)
	r.refresh()
}

// mergePlanned merges the task's branch: a fast-forward at once; a merge
// that makes a commit after the user confirmed its drafted message (or
// chose one squashed commit); a conflict or a refusal is said, and
// nothing is merged.
func (t *Task) mergePlanned() {
	a := t.app
	br := t.opts.Tree
	merge := func(squash bool, message string) {
		t.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: "merging " + t.opts.Branch + "…"})
		a.Go(func() {
			what, err := br.Merge(a.runCtx, squash, message)
			a.post(func() {
				if err != nil {
					t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "not merged: " + err.Error()})
					return
				}
				t.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: what})
			})
		})
	}
	a.Go(func() {
		plan, err := br.Plan(a.runCtx)
		a.post(func() {
			switch {
			case err != nil:
				t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "not merged: " + err.Error()})
			case plan.FastForward:
				merge(false, "")
			default:
				a.ask.Ask("Merge "+t.opts.Branch, fmt.Sprintf("The base moved on since the task started, so merging makes a commit:\n\n%s\n\nor, squashed into one commit:\n\n%s",
					safetext.Text(plan.Message), safetext.Text(plan.SquashMessage)),
					dialogs.Choice{Key: "m", Label: "merge commit with this message", Do: func() { merge(false, plan.Message) }},
					dialogs.Choice{Key: "s", Label: "one squashed commit", Do: func() { merge(true, plan.SquashMessage) }},
					dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
			}
		})
	})
}
