// Package branch owns /task merge: a task working on a git branch of its
// own (in a worktree) merged back into its base — what its worktree holds
// uncommitted committed first after a yes, then a fast-forward at once, or
// a merge commit or one squashed commit whose drafted message the user
// confirms; a conflict or a refusal is said, and nothing is merged. It
// acts only through Host, the task's side of it, and calls the Branch off
// the UI goroutine.
//
// Imports from fawn: internal/safetext, internal/words, ui/dialogs.
// Imported by: ui.
package branch

import (
	"context"
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/ui/dialogs"
)

// Branch is what merging a task's branch takes (ui.TaskBranch has more;
// cmd/fawn gives one over package worktree). Its methods may take a
// while: they run off the UI goroutine.
type Branch interface {
	// Uncommitted lists the files changed in the task's worktree and not
	// committed to its branch; an error says why the branch cannot be
	// merged now (its base is not ready) or the worktree cannot be read.
	Uncommitted(ctx context.Context) ([]string, error)
	// Commit commits them all to the task's branch with message.
	Commit(ctx context.Context, message string) error
	// Plan says how merging the branch would go, changing nothing: a
	// fast-forward, or a commit with a drafted message; a conflict, or a
	// base that cannot take it, is the error, saying where and why.
	Plan(ctx context.Context) (Plan, error)
	// Merge merges the branch into its base branch in the project (one
	// squashed commit, or a merge commit when it cannot fast-forward,
	// with message) and says what it did; a conflict changes nothing and
	// says where.
	Merge(ctx context.Context, squash bool, message string) (string, error)
}

// Plan is how a task's branch would merge: a fast-forward, or a commit
// whose drafted messages (a merge commit's, a squash's) the user
// confirms.
type Plan struct {
	FastForward            bool
	Message, SquashMessage string
}

// Host is what a merge needs of the task and the frame around it.
type Host interface {
	// Info and Error add a notice to the task's chat.
	Info(text string)
	Error(text string)
	// Ask shows a small modal question; the choice taken runs.
	Ask(title, text string, choices ...dialogs.Choice)
	// Go runs f on its own goroutine (a panic is a crash); Post runs f on
	// the UI goroutine; Context ends when fawn stops.
	Go(f func())
	Post(f func())
	Context() context.Context
}

// Merge merges br, the branch called branch of the task called task, into
// its base branch in the project, first asking to commit what its
// worktree holds uncommitted.
func Merge(h Host, br Branch, branch, task string) {
	h.Go(func() {
		files, err := br.Uncommitted(h.Context())
		h.Post(func() {
			switch {
			case err != nil:
				h.Error("not merged: " + err.Error())
			case len(files) == 0:
				mergePlanned(h, br, branch)
			default:
				h.Ask("Commit, then merge", fmt.Sprintf("%s in the task's worktree %s not committed to %s: %s. Commit them to the branch, then merge it?",
					words.Plural(len(files), "file", "files"), map[bool]string{true: "is", false: "are"}[len(files) == 1], branch, shownFiles(files)),
					dialogs.Choice{Key: "c", Label: "commit and merge", Do: func() {
						h.Go(func() {
							err := br.Commit(h.Context(), "fawn task "+task)
							h.Post(func() {
								if err != nil {
									h.Error("not committed, nothing merged: " + err.Error())
									return
								}
								mergePlanned(h, br, branch)
							})
						})
					}},
					dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
			}
		})
	})
}

// mergePlanned merges the branch: a fast-forward at once; a merge that
// makes a commit after the user confirmed its drafted message (or chose
// one squashed commit); a conflict or a refusal is said, and nothing is
// merged.
func mergePlanned(h Host, br Branch, branch string) {
	merge := func(squash bool, message string) {
		h.Info("merging " + branch + "…")
		h.Go(func() {
			what, err := br.Merge(h.Context(), squash, message)
			h.Post(func() {
				if err != nil {
					h.Error("not merged: " + err.Error())
					return
				}
				h.Info(what)
			})
		})
	}
	h.Go(func() {
		plan, err := br.Plan(h.Context())
		h.Post(func() {
			switch {
			case err != nil:
				h.Error("not merged: " + err.Error())
			case plan.FastForward:
				merge(false, "")
			default:
				h.Ask("Merge "+branch, fmt.Sprintf("The base moved on since the task started, so merging makes a commit:\n\n%s\n\nor, squashed into one commit:\n\n%s",
					safetext.Text(plan.Message), safetext.Text(plan.SquashMessage)),
					dialogs.Choice{Key: "m", Label: "merge commit with this message", Do: func() { merge(false, plan.Message) }},
					dialogs.Choice{Key: "s", Label: "one squashed commit", Do: func() { merge(true, plan.SquashMessage) }},
					dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
			}
		})
	})
}

// shownFiles is a list of file names for a question, each made safe to
// show, the list cut after ten.
func shownFiles(files []string) string {
	var names []string
	for i, f := range files {
		if i == 10 {
			names = append(names, fmt.Sprintf("and %d more", len(files)-10))
			break
		}
		names = append(names, safetext.Line(f))
	}
	return strings.Join(names, ", ")
}
