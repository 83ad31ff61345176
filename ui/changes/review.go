package changes

import (
	"context"
	"path/filepath"

	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/ui/panes"
)

// Branch is a task's git branch as /task review reads it (ui.TaskBranch
// has more). Its methods may take a while: they run off the UI goroutine.
type Branch interface {
	// Review lists every file the branch changed against its base, its
	// commits and its uncommitted work, relative to the task's directory.
	Review(ctx context.Context) ([]panes.ChangeRow, error)
	// Content is one file's text on the base (nil: new on the branch) and
	// now (nil: deleted).
	Content(ctx context.Context, path string) (base, now []byte, err error)
}

// review is /task review: while it is on, the task's Changes tab lists
// every file its branch changed against its base (its commits and what
// is not committed yet), Enter shows a file's diff against the base in
// the editor, where r puts a hunk back as the base has it and R the whole
// file; each revert goes through the session's checkpoints, so /rewind
// undoes it. /task review again goes back to the session's changes.
type review struct {
	tr     *Tracker
	br     Branch
	branch string
	// busy: a refresh is being computed; again: another was asked for.
	busy, again bool
	// base holds the base's content of each file whose diff was shown,
	// for R.
	base map[string][]byte
}

// Review turns the review of the task's branch br, called branch, on; or
// off, back to the session's changes, when it is on.
func (tr *Tracker) Review(br Branch, branch string) {
	if tr.review != nil {
		tr.review = nil
		tr.view.Label, tr.view.Hint = "", ""
		tr.view.SetRows(nil)
		tr.Refresh()
		tr.h.Info("the Changes tab shows this session's changes again")
		return
	}
	tr.review = &review{tr: tr, br: br, branch: branch, base: map[string][]byte{}}
	tr.view.Label = "Review"
	tr.view.Hint = tr.view.KeyHint(panes.ActionChangesDiff) + " diff against the base (in it, a hunk or the file goes back as the base has it) · " +
		tr.view.KeyHint(panes.ActionChangesOpen) + " open · /task review again: this session's changes"
	tr.view.SetRows(nil)
	tr.review.refresh()
	tr.h.RevealTab()
	tr.h.Focus(panes.Changes)
	tr.h.Info("reviewing " + branch + " against its base: every file it changed is in the Changes tab")
}

// refresh lists the branch's files again, in the background.
func (r *review) refresh() {
	if r.busy {
		r.again = true
		return
	}
	r.busy = true
	tr := r.tr
	tr.h.Go(func() {
		rows, err := r.br.Review(tr.h.Context())
		tr.h.Post(func() {
			r.busy = false
			if tr.review != r {
				return // turned off meanwhile
			}
			if err != nil {
				tr.view.SetNote("cannot review the branch: " + err.Error())
			} else {
				tr.view.SetNote("")
				if len(rows) == 0 {
					tr.view.SetNote("The branch changes nothing against its base yet.")
				}
				tr.view.SetRows(rows)
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
func (r *review) diff(rel string) {
	tr := r.tr
	ed, ok := tr.editor.(diffEditor)
	if !ok {
		return
	}
	tr.h.Go(func() {
		old, cur, err := r.br.Content(tr.h.Context(), rel)
		tr.h.Post(func() {
			if err != nil {
				tr.h.Error(rel + ": " + err.Error())
				return
			}
			r.base[rel] = old
			if err := ed.ShowDiff(r.abs(rel), old, cur, r.branch+" against its base"); err != nil {
				tr.h.Error(err.Error())
				return
			}
			tr.h.Focus(panes.Editor)
		})
	})
}

func (r *review) abs(rel string) string {
	return filepath.Join(r.tr.root, filepath.FromSlash(rel))
}

// reviewing reports whether rel's diff was shown by the review (its
// reverts go back to the base, not to the session's start).
func (r *review) reviewing(rel string) bool {
	_, ok := r.base[rel]
	return ok
}

// revert writes content (a hunk put back; whole: the base's whole file)
// into rel through the checkpoints, then shows the diff again. The editor
// checked that the file is still what the diff showed, so a file the
// session never recorded is written without asking.
func (r *review) revert(b *checkpoint.Book, rel string, content []byte, whole bool) {
	tr := r.tr
	what := "revert a hunk of " + rel + " to the base"
	if whole {
		old := r.base[rel]
		if old == nil {
			tr.h.Error(rel + " is new on the branch: the base has no version to put back (remove it in the shell)")
			return
		}
		content, what = old, "put "+rel+" back as the base has it"
	}
	force := changedFile(b, rel) == nil
	tr.restoreFiles(what, func(f map[string]bool) (checkpoint.Result, error) {
		return b.Write(rel, content, force || f[rel])
	})
	r.diff(rel)
	r.refresh()
}
