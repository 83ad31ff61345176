package worktree

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The errors of Merge, each wrapped with what it is about.
var (
	ErrDetachedBase = errors.New("the task started from a detached HEAD, so there is no branch to merge it into: check out the branch you want and run git merge on the task's branch")
	ErrNotOnBase    = errors.New("the main checkout is not on the task's base branch")
	ErrBaseDirty    = errors.New("the main checkout has uncommitted changes")
	ErrNoBase       = errors.New("the task has no recorded base (fawn did not make its branch): merge it with git")
	ErrUpToDate     = errors.New("nothing to merge: the base branch has every commit of the task")
)

// ConflictError is a merge that conflicts: nothing was changed.
type ConflictError struct {
	Branch, Base string
	Files        []string // the conflicted paths, relative to the repository's root
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("merging %s into %s conflicts in %s: nothing was merged; resolve it in the task (merge %s there) or with git",
		e.Branch, e.Base, strings.Join(e.Files, ", "), e.Base)
}

// Status is a task's work, for a UI to show and to ask before merging.
type Status struct {
	// Uncommitted are the worktree's changed and untracked files, relative
	// to its root.
	Uncommitted []string
	// Ahead is how many commits the task's branch has that its base has
	// not; Behind, the other way round. The base is its branch, or (from a
	// detached HEAD, or a base branch deleted since) the commit.
	Ahead, Behind int
}

// baseRev is the task's base as a revision: the branch when it still
// exists, else the commit.
func (m *Manager) baseRev(ctx context.Context, t Tree) (string, error) {
	if t.Base.Branch != "" {
		ref := "refs/heads/" + t.Base.Branch
		if _, err := m.git(ctx, m.top, "show-ref", "--verify", "--quiet", ref); err == nil {
			return ref, nil
		}
	}
	if t.Base.Commit == "" {
		return "", fmt.Errorf("%s: %w", t.Branch, ErrNoBase)
	}
	return t.Base.Commit, nil
}

// Status says what the task has: uncommitted files, and commits ahead of
// and behind its base.
func (m *Manager) Status(ctx context.Context, t Tree) (Status, error) {
	var st Status
	var err error
	if st.Uncommitted, err = m.uncommitted(ctx, t); err != nil {
		return st, err
	}
	base, err := m.baseRev(ctx, t)
	if err != nil {
		return st, err
	}
	out, err := m.git(ctx, m.top, "rev-list", "--left-right", "--count", base+"...refs/heads/"+t.Branch, "--")
	if err != nil {
		return st, err
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return st, fmt.Errorf("git rev-list --count said %q", out)
	}
	st.Behind, _ = strconv.Atoi(f[0])
	st.Ahead, _ = strconv.Atoi(f[1])
	return st, nil
}

// identity checks that git knows the user's name and e-mail (the user's
// own config, or the repository's): a commit in the user's name needs
// both, and fawn makes up none.
func (m *Manager) identity(ctx context.Context) error {
	for _, k := range []string{"user.name", "user.email"} {
		out, err := m.git(ctx, m.top, "config", "--get", k)
		if err != nil || strings.TrimSpace(string(out)) == "" {
			return ErrNoIdentity
		}
	}
	return nil
}

// Commit commits everything uncommitted in the task's worktree (git add
// -A: changes, deletions, new files not ignored) to its branch, in the
// user's git identity (ErrNoIdentity when git has none), and returns the
// commit. ErrNothing when there is nothing to commit.
func (m *Manager) Commit(ctx context.Context, t Tree, message string) (string, error) {
	if t.State == Missing || t.State == NoWorktree {
		return "", fmt.Errorf("%s: %w", t.Name, ErrMissing)
	}
	if strings.TrimSpace(message) == "" {
		return "", errors.New("a commit needs a message")
	}
	if err := m.identity(ctx); err != nil {
		return "", err
	}
	if out, err := m.git(ctx, t.Dir, "symbolic-ref", "-q", "HEAD"); err != nil || strings.TrimSpace(string(out)) != "refs/heads/"+t.Branch {
		return "", fmt.Errorf("the task's worktree %s is not on %s (someone checked out something else there): check %s out there first", t.Dir, t.Branch, t.Branch)
	}
	if _, err := m.git(ctx, t.Dir, "add", "-A"); err != nil {
		return "", err
	}
	if _, err := m.git(ctx, t.Dir, "diff", "--cached", "--quiet"); err == nil {
		return "", fmt.Errorf("%s: %w", t.Name, ErrNothing)
	} else if exitCode(err) != 1 {
		return "", err
	}
	if _, err := m.git(ctx, t.Dir, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message); err != nil {
		return "", err
	}
	return m.revParse(ctx, t.Dir, "HEAD")
}

func (m *Manager) revParse(ctx context.Context, dir, rev string) (string, error) {
	out, err := m.git(ctx, dir, "rev-parse", "--verify", "-q", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("no commit %s: %w", rev, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Mode is how a merge that cannot fast-forward is made.
type Mode int

const (
	// MergeCommit makes a merge commit with both parents.
	MergeCommit Mode = iota
	// Squash makes one commit on the base of all the task's changes.
	Squash
)

// Result is what Merge did.
type Result struct {
	// FastForward: the base branch moved to the task's commit; no commit
	// was made.
	FastForward bool
	// Commit is the base branch's new commit.
	Commit string
}

// Merge merges the task's branch into its base branch, in the main checkout
// (the one the Manager was opened in): a fast-forward when the base has not
// moved, else a merge commit or one squashed commit (mode) with message (a
// default when empty). It refuses when the task started from a detached
// HEAD, when the main checkout is not on the base branch or has uncommitted
// changes to tracked files, and when the task's worktree has uncommitted
// work (commit it first, after asking). A conflict is a *ConflictError
// with the files, and changes nothing; so does every refusal.
func (m *Manager) Merge(ctx context.Context, t Tree, mode Mode, message string) (Result, error) {
	head, tip, err := m.ready(ctx, t, true)
	if err != nil {
		return Result{}, err
	}
	target := tip
	ff := m.isAncestor(ctx, head.Commit, tip)
	if !ff {
		if target, err = m.mergeCommit(ctx, t, head, tip, mode, message); err != nil {
			return Result{}, err
		}
	}
	// The only step that touches the main checkout: a fast-forward to a
	// commit made already, which git checks whole before it writes (an
	// untracked file in the way refuses it, and nothing changes).
	if _, err := m.git(ctx, m.top, "merge", "--ff-only", "--quiet", "--no-stat", "--no-verify-signatures", target); err != nil {
		return Result{}, fmt.Errorf("cannot bring %s to the merged commit, and nothing was changed: %w", head.Branch, err)
	}
	return Result{FastForward: ff, Commit: target}, nil
}

// ready checks what a merge of t needs (a base branch, the main checkout
// on it and clean, and, when work is set, no uncommitted work in the
// task's worktree, something to merge) and returns the base's head and
// the branch's tip.
func (m *Manager) ready(ctx context.Context, t Tree, work bool) (Base, string, error) {
	if t.Base.Branch == "" {
		if t.Base.Commit == "" {
			return Base{}, "", fmt.Errorf("%s: %w", t.Branch, ErrNoBase)
		}
		return Base{}, "", fmt.Errorf("%s: %w", t.Branch, ErrDetachedBase)
	}
	head, err := m.head(ctx)
	if err != nil {
		return Base{}, "", err
	}
	if head.Branch != t.Base.Branch {
		return Base{}, "", fmt.Errorf("%w: it is on %s, the task %s started from %s: check out %s there first",
			ErrNotOnBase, head, t.Name, t.Base.Branch, t.Base.Branch)
	}
	dirty, err := m.git(ctx, m.top, "status", "--porcelain", "-z", "--untracked-files=no")
	if err != nil {
		return Base{}, "", err
	}
	if files := statusPaths(dirty); len(files) > 0 {
		return Base{}, "", fmt.Errorf("%w (%s): commit or stash them first", ErrBaseDirty, strings.Join(files, ", "))
	}
	if work {
		if files, err := m.uncommitted(ctx, t); err != nil {
			return Base{}, "", err
		} else if len(files) > 0 {
			return Base{}, "", fmt.Errorf("%w (%d files): commit them to %s first", ErrUncommitted, len(files), t.Branch)
		}
	}
	tip, err := m.revParse(ctx, m.top, "refs/heads/"+t.Branch)
	if err != nil {
		return Base{}, "", err
	}
	if m.isAncestor(ctx, tip, head.Commit) {
		return Base{}, "", fmt.Errorf("%s: %w", t.Branch, ErrUpToDate)
	}
	return head, tip, nil
}

// mergeTree is the tree merging tip into head makes, written to the
// object store only (no checkout, no ref changes); a conflict is a
// *ConflictError with the files.
func (m *Manager) mergeTree(ctx context.Context, t Tree, head Base, tip string) (string, error) {
	out, err := m.git(ctx, m.top, "merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", head.Commit, tip)
	fields := strings.Split(string(out), "\x00")
	switch {
	case err == nil:
		return fields[0], nil
	case exitCode(err) == 1:
		c := &ConflictError{Branch: t.Branch, Base: head.Branch}
		seen := map[string]bool{}
		for _, f := range fields[1:] {
			if f == "" {
				break
			}
			if !seen[f] {
				seen[f] = true
				c.Files = append(c.Files, f)
			}
		}
		return "", c
	default:
		return "", fmt.Errorf("cannot merge %s (merging needs git 2.38 or newer): %w", t.Branch, err)
	}
}

// Preview says how Merge would go, changing nothing: a fast-forward (ff),
// or a merge that makes a commit. A conflict is a *ConflictError with the
// files; Merge's refusals (a detached base, a main checkout not on the
// base or with uncommitted changes, nothing to merge) are errors here too.
// The task's own uncommitted work is left out: Merge wants it committed
// first, and the preview is of what is committed.
func (m *Manager) Preview(ctx context.Context, t Tree) (ff bool, err error) {
	head, tip, err := m.ready(ctx, t, false)
	if err != nil {
		return false, err
	}
	if m.isAncestor(ctx, head.Commit, tip) {
		return true, nil
	}
	_, err = m.mergeTree(ctx, t, head, tip)
	return false, err
}

func (m *Manager) isAncestor(ctx context.Context, a, b string) bool {
	_, err := m.git(ctx, m.top, "merge-base", "--is-ancestor", a, b)
	return err == nil
}

// mergeCommit computes the merge of tip into head without touching any
// checkout, and makes it a commit: two parents, or one for Squash.
func (m *Manager) mergeCommit(ctx context.Context, t Tree, head Base, tip string, mode Mode, message string) (string, error) {
	if err := m.identity(ctx); err != nil {
		return "", err
	}
	tree, err := m.mergeTree(ctx, t, head, tip)
	if err != nil {
		return "", err
	}
	if message == "" {
		message = "Merge branch '" + t.Branch + "'"
		if mode == Squash {
			message = t.Name + " (squashed from " + t.Branch + ")"
		}
	}
	args := []string{"commit-tree", "--no-gpg-sign", "-p", head.Commit}
	if mode != Squash {
		args = append(args, "-p", tip)
	}
	out, err := m.git(ctx, m.top, append(args, "-m", message, tree)...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// maxDraftSubjects bounds the subjects a drafted message lists.
const maxDraftSubjects = 20

// Draft is a message for the commit merging the task makes (mode): its
// first line names the task, the body lists the subjects of the branch's
// commits the base has not, oldest first. It is a plain draft for the
// user to confirm or change; nothing is asked of a model.
func (m *Manager) Draft(ctx context.Context, t Tree, mode Mode) (string, error) {
	base, err := m.baseRev(ctx, t)
	if err != nil {
		return "", err
	}
	out, err := m.git(ctx, m.top, "log", "--reverse", "--no-merges", "--format=%s", base+"..refs/heads/"+t.Branch, "--")
	if err != nil {
		return "", err
	}
	var subjects []string
	for _, s := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if s = strings.TrimSpace(s); s != "" {
			subjects = append(subjects, s)
		}
	}
	into := t.Base.String()
	var b strings.Builder
	switch {
	case mode == Squash && len(subjects) == 1:
		return subjects[0] + "\n\n(task " + t.Name + ", squashed from " + t.Branch + ")", nil
	case mode == Squash:
		fmt.Fprintf(&b, "%s: %d changes (squashed from %s)", t.Name, len(subjects), t.Branch)
	default:
		fmt.Fprintf(&b, "Merge task %s (%s) into %s", t.Name, t.Branch, into)
	}
	if len(subjects) > 0 {
		b.WriteString("\n")
	}
	for i, s := range subjects {
		if i == maxDraftSubjects {
			fmt.Fprintf(&b, "\n- and %d more", len(subjects)-i)
			break
		}
		b.WriteString("\n- " + s)
	}
	return b.String(), nil
}
