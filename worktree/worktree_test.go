package worktree

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// isolate gives the test a home of its own, whose git config holds the
// user's identity, and no system config.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	write(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = Tess Ter\n\temail = tess@example.com\n")
	return home
}

// plainGit runs git as a user's shell would: to build fixtures and look
// at the result.
func plainGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// newRepo is a repository on main with a.txt and b.txt committed.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	plainGit(t, dir, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "a.txt"), "one\ntwo\nthree\n")
	write(t, filepath.Join(dir, "b.txt"), "beta\n")
	plainGit(t, dir, "add", ".")
	plainGit(t, dir, "commit", "-q", "-m", "init")
	return dir
}

func open(t *testing.T, repo string) *Manager {
	t.Helper()
	m, err := Open(context.Background(), repo, t.TempDir())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return m
}

func create(t *testing.T, m *Manager, name string) Tree {
	t.Helper()
	tr, err := m.Create(context.Background(), name)
	if err != nil {
		t.Fatalf("Create %s: %v", name, err)
	}
	return tr
}

// clean fails the test unless the checkout has no change and no merge in
// progress.
func clean(t *testing.T, repo string) {
	t.Helper()
	if st := plainGit(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("the main checkout is not clean:\n%s", st)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "MERGE_HEAD")); err == nil {
		t.Error("a merge is left in progress")
	}
}

// The whole life of a task: made at HEAD on fawn/NAME outside the
// project, its work seen uncommitted, committed in the user's name,
// reviewed, merged (a fast-forward), discarded with its branch and base.
func TestLifecycle(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	tr := create(t, m, "fix-1")
	if tr.Branch != "fawn/fix-1" || tr.Base.Branch != "main" || tr.Base.Commit != plainGit(t, repo, "rev-parse", "HEAD") {
		t.Fatalf("tree %+v", tr)
	}
	if !strings.HasPrefix(tr.Dir, m.Dir()+string(filepath.Separator)) || inside(tr.Dir, repo) {
		t.Fatalf("the worktree %s is not in %s, outside %s", tr.Dir, m.Dir(), repo)
	}
	if got := plainGit(t, tr.Dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "fawn/fix-1" {
		t.Fatalf("the worktree is on %s", got)
	}

	write(t, filepath.Join(tr.Dir, "a.txt"), "one\n2\nthree\nfour\n")
	write(t, filepath.Join(tr.Dir, "new.txt"), "fresh\n")
	if err := os.Remove(filepath.Join(tr.Dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	st, err := m.Status(ctx, tr)
	if err != nil || len(st.Uncommitted) != 3 || st.Ahead != 0 || st.Behind != 0 {
		t.Fatalf("Status before the commit: %+v, %v", st, err)
	}
	want := map[string]Change{
		"a.txt":   {Status: 'M', Added: 2, Deleted: 1},
		"b.txt":   {Status: 'D', Deleted: 1},
		"new.txt": {Status: 'A', Added: 1},
	}
	checkReview(t, m, tr, want)

	commit, err := m.Commit(ctx, tr, "fix one")
	if err != nil {
		t.Fatal(err)
	}
	if got := plainGit(t, tr.Dir, "log", "-1", "--format=%H %an <%ae> %s"); got != commit+" Tess Ter <tess@example.com> fix one" {
		t.Errorf("the commit: %s", got)
	}
	if _, err := m.Commit(ctx, tr, "again"); !errors.Is(err, ErrNothing) {
		t.Errorf("a second Commit: %v, want ErrNothing", err)
	}
	st, err = m.Status(ctx, tr)
	if err != nil || len(st.Uncommitted) != 0 || st.Ahead != 1 || st.Behind != 0 {
		t.Fatalf("Status after the commit: %+v, %v", st, err)
	}
	// The committed work is the same review.
	checkReview(t, m, tr, want)

	// A later run finds it, and its base, from the repository alone.
	list, err := open(t, repo).List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	list2, _ := m.List(ctx)
	if len(list) != 1 || list[0].Name != "fix-1" || list[0].State != OK || list[0].Base != tr.Base || len(list2) != 1 || list2[0] != tr {
		t.Fatalf("List: %+v, want %+v", list2, tr)
	}

	res, err := m.Merge(ctx, tr, MergeCommit, "")
	if err != nil {
		t.Fatal(err)
	}
	if !res.FastForward || res.Commit != commit || plainGit(t, repo, "rev-parse", "main") != commit {
		t.Fatalf("Merge: %+v", res)
	}
	if read(t, filepath.Join(repo, "a.txt")) != "one\n2\nthree\nfour\n" || read(t, filepath.Join(repo, "new.txt")) != "fresh\n" {
		t.Error("the main checkout does not hold the merged files")
	}
	clean(t, repo)
	if _, err := m.Merge(ctx, tr, MergeCommit, ""); !errors.Is(err, ErrUpToDate) {
		t.Errorf("merging again: %v, want ErrUpToDate", err)
	}

	if err := m.Discard(ctx, tr, false); err != nil {
		t.Fatal(err)
	}
	checkDiscarded(t, m, repo, tr)
}

// checkReview checks the task's review: the changes, and each one's old
// and new content.
func checkReview(t *testing.T, m *Manager, tr Tree, want map[string]Change) {
	t.Helper()
	ctx := context.Background()
	changes, err := m.Diff(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	checkChanges(t, changes, want)
	for _, c := range changes {
		old, nw, err := m.Content(ctx, tr, c)
		if err != nil {
			t.Fatalf("Content %s: %v", c.Path, err)
		}
		switch c.Path {
		case "a.txt":
			if string(old) != "one\ntwo\nthree\n" || string(nw) != "one\n2\nthree\nfour\n" {
				t.Errorf("a.txt: %q → %q", old, nw)
			}
		case "new.txt":
			if old != nil || string(nw) != "fresh\n" {
				t.Errorf("new.txt: %q → %q", old, nw)
			}
		case "b.txt":
			if string(old) != "beta\n" || nw != nil {
				t.Errorf("b.txt: %q → %q", old, nw)
			}
		}
	}
}

// checkDiscarded checks that the task's worktree, branch and config are
// gone.
func checkDiscarded(t *testing.T, m *Manager, repo string, tr Tree) {
	t.Helper()
	ctx := context.Background()
	if _, err := os.Stat(tr.Dir); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there: %v", err)
	}
	if out, err := exec.Command("git", "-C", repo, "rev-parse", "--verify", "-q", tr.Branch).Output(); err == nil {
		t.Errorf("the branch is still there: %s", out)
	}
	if out, _ := exec.Command("git", "-C", repo, "config", "--get-regexp", `^branch\.fawn/`).Output(); len(out) > 0 {
		t.Errorf("the task's config is still there: %s", out)
	}
	if list, err := m.List(ctx); err != nil || len(list) != 0 {
		t.Errorf("List after Discard: %+v, %v", list, err)
	}
}

func checkChanges(t *testing.T, got []Change, want map[string]Change) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("changes %+v, want %d", got, len(want))
	}
	for _, c := range got {
		w, ok := want[c.Path]
		if !ok || c.Status != w.Status || c.Added != w.Added || c.Deleted != w.Deleted || c.From == "" {
			t.Errorf("change %+v, want %+v", c, w)
		}
	}
}

// Two tasks edit the same line differently: the first merge
// fast-forwards, the second reports the conflict with its file and leaves
// the base exactly as it was.
func TestSecondMergeConflicts(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	one, two := create(t, m, "one"), create(t, m, "two")
	write(t, filepath.Join(one.Dir, "a.txt"), "one\nTWO by one\nthree\n")
	write(t, filepath.Join(two.Dir, "a.txt"), "one\nTWO by two\nthree\n")
	write(t, filepath.Join(two.Dir, "c.txt"), "sea\n")
	for _, tr := range []Tree{one, two} {
		if _, err := m.Commit(ctx, tr, "edit by "+tr.Name); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := m.Merge(ctx, one, MergeCommit, ""); err != nil || !res.FastForward {
		t.Fatalf("first merge: %+v, %v", res, err)
	}
	before := plainGit(t, repo, "rev-parse", "HEAD")
	if st, err := m.Status(ctx, two); err != nil || st.Ahead != 1 || st.Behind != 1 {
		t.Errorf("Status of the second: %+v, %v", st, err)
	}
	_, err := m.Merge(ctx, two, MergeCommit, "merge two")
	var ce *ConflictError
	if !errors.As(err, &ce) || !slices.Equal(ce.Files, []string{"a.txt"}) {
		t.Fatalf("second merge: %v, want a conflict in a.txt", err)
	}
	if got := plainGit(t, repo, "rev-parse", "HEAD"); got != before {
		t.Errorf("main moved to %s", got)
	}
	if read(t, filepath.Join(repo, "a.txt")) != "one\nTWO by one\nthree\n" {
		t.Error("a.txt in the main checkout changed")
	}
	if _, err := os.Stat(filepath.Join(repo, "c.txt")); err == nil {
		t.Error("c.txt of the conflicting task reached the main checkout")
	}
	clean(t, repo)
}

// A merge that cannot fast-forward makes a merge commit with both parents,
// or one squashed commit, in the user's name; the checkout holds both
// sides.
func TestMergeCommitAndSquash(t *testing.T) {
	for _, mode := range []Mode{MergeCommit, Squash} {
		isolate(t)
		ctx := context.Background()
		repo := newRepo(t)
		m := open(t, repo)
		tr := create(t, m, "side")
		write(t, filepath.Join(tr.Dir, "c.txt"), "sea\n")
		if _, err := m.Commit(ctx, tr, "add c"); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(repo, "d.txt"), "dee\n")
		plainGit(t, repo, "add", "d.txt")
		plainGit(t, repo, "commit", "-q", "-m", "add d")
		res, err := m.Merge(ctx, tr, mode, "the task's work")
		if err != nil || res.FastForward {
			t.Fatalf("mode %d: %+v, %v", mode, res, err)
		}
		parents := strings.Fields(plainGit(t, repo, "log", "-1", "--format=%P"))
		if wantParents := map[Mode]int{MergeCommit: 2, Squash: 1}[mode]; len(parents) != wantParents {
			t.Errorf("mode %d: %d parents, want %d", mode, len(parents), wantParents)
		}
		if got := plainGit(t, repo, "log", "-1", "--format=%H %an %s"); got != res.Commit+" Tess Ter the task's work" {
			t.Errorf("mode %d: head %s", mode, got)
		}
		if read(t, filepath.Join(repo, "c.txt")) != "sea\n" || read(t, filepath.Join(repo, "d.txt")) != "dee\n" {
			t.Errorf("mode %d: the checkout lacks a side", mode)
		}
		clean(t, repo)
	}
}

// Merge refuses, changing nothing, when the base has uncommitted changes,
// when the main checkout is on another branch, when the task has
// uncommitted work.
func TestMergeRefuses(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	tr := create(t, m, "t")
	write(t, filepath.Join(tr.Dir, "a.txt"), "task\n")
	if _, err := m.Commit(ctx, tr, "task"); err != nil {
		t.Fatal(err)
	}
	head := plainGit(t, repo, "rev-parse", "HEAD")

	write(t, filepath.Join(repo, "b.txt"), "user's edit\n")
	if _, err := m.Merge(ctx, tr, MergeCommit, ""); !errors.Is(err, ErrBaseDirty) || !strings.Contains(err.Error(), "b.txt") {
		t.Errorf("a dirty base: %v", err)
	}
	if read(t, filepath.Join(repo, "b.txt")) != "user's edit\n" || plainGit(t, repo, "rev-parse", "HEAD") != head {
		t.Error("the refused merge changed the base")
	}
	plainGit(t, repo, "checkout", "-q", "--", "b.txt")

	// An untracked file of the user's where the task adds one: git
	// refuses to overwrite it, and nothing changes.
	write(t, filepath.Join(tr.Dir, "u.txt"), "the task's\n")
	if _, err := m.Commit(ctx, tr, "u"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "u.txt"), "the user's\n")
	if _, err := m.Merge(ctx, tr, MergeCommit, ""); err == nil {
		t.Error("a merge over an untracked file of the user's went ahead")
	}
	if read(t, filepath.Join(repo, "u.txt")) != "the user's\n" || plainGit(t, repo, "rev-parse", "HEAD") != head {
		t.Error("the refused merge changed the base")
	}
	if err := os.Remove(filepath.Join(repo, "u.txt")); err != nil {
		t.Fatal(err)
	}

	plainGit(t, repo, "checkout", "-q", "-b", "other")
	if _, err := m.Merge(ctx, tr, MergeCommit, ""); !errors.Is(err, ErrNotOnBase) {
		t.Errorf("on another branch: %v", err)
	}
	plainGit(t, repo, "checkout", "-q", "main")

	write(t, filepath.Join(tr.Dir, "b.txt"), "more task work\n")
	if _, err := m.Merge(ctx, tr, MergeCommit, ""); !errors.Is(err, ErrUncommitted) {
		t.Errorf("uncommitted task work: %v", err)
	}
	if err := m.Discard(ctx, tr, false); !errors.Is(err, ErrUncommitted) {
		t.Errorf("Discard without force of uncommitted work: %v", err)
	}
	if plainGit(t, repo, "rev-parse", "HEAD") != head {
		t.Error("a refused merge moved the base")
	}
	clean(t, repo)
	if err := m.Discard(ctx, tr, true); err != nil {
		t.Errorf("Discard with force: %v", err)
	}
}

// A task made at a detached HEAD has the commit as its base: its status
// counts against it, and a merge says there is no branch to merge into.
func TestDetachedHead(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	head := plainGit(t, repo, "rev-parse", "HEAD")
	plainGit(t, repo, "checkout", "-q", "--detach")
	m := open(t, repo)
	tr := create(t, m, "detached")
	if tr.Base != (Base{Commit: head}) {
		t.Fatalf("base %+v, want the commit %s", tr.Base, head)
	}
	write(t, filepath.Join(tr.Dir, "a.txt"), "x\n")
	if _, err := m.Commit(ctx, tr, "x"); err != nil {
		t.Fatal(err)
	}
	if st, err := m.Status(ctx, tr); err != nil || st.Ahead != 1 {
		t.Errorf("Status: %+v, %v", st, err)
	}
	if l, err := m.List(ctx); err != nil || len(l) != 1 || l[0].Base != tr.Base {
		t.Errorf("List: %+v, %v", l, err)
	}
	if _, err := m.Merge(ctx, tr, MergeCommit, ""); !errors.Is(err, ErrDetachedBase) {
		t.Errorf("Merge: %v, want ErrDetachedBase", err)
	}
}

// Open says clearly what is wrong with the directory.
func TestOpenErrors(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	empty := t.TempDir()
	plainGit(t, empty, "init", "-q")
	bare := t.TempDir()
	plainGit(t, bare, "init", "-q", "--bare")
	for _, c := range []struct {
		dir  string
		want error
	}{
		{t.TempDir(), ErrNotRepository},
		{empty, ErrNoCommits},
		{bare, ErrBare},
	} {
		if _, err := Open(ctx, c.dir, t.TempDir()); !errors.Is(err, c.want) {
			t.Errorf("Open %s: %v, want %v", c.dir, err, c.want)
		}
	}
	repo := newRepo(t)
	if _, err := Open(ctx, repo, filepath.Join(repo, "trees")); err == nil {
		t.Error("a worktrees directory inside the repository was taken")
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := Open(ctx, repo, t.TempDir()); !errors.Is(err, ErrGitMissing) {
		t.Errorf("without git: %v", err)
	}
}

// Opened in a subdirectory, a task's project is that subdirectory of its
// worktree.
func TestSubdirectory(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	write(t, filepath.Join(repo, "sub", "dir", "f.txt"), "f\n")
	plainGit(t, repo, "add", ".")
	plainGit(t, repo, "commit", "-q", "-m", "sub")
	m := open(t, filepath.Join(repo, "sub", "dir"))
	tr := create(t, m, "s")
	if tr.Project != filepath.Join(tr.Dir, "sub", "dir") || read(t, filepath.Join(tr.Project, "f.txt")) != "f\n" {
		t.Errorf("project %s in %s", tr.Project, tr.Dir)
	}
	if m.Root() != repo {
		t.Errorf("Root %s, want %s", m.Root(), repo)
	}
}

// A name must be a safe branch component and directory name; a name
// taken is refused, whether its branch or its directory is there.
func TestNames(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	for _, bad := range []string{"", "-x", "a/b", "a..b", "x.lock", "x.", "../up", "sp ace", "a:b", strings.Repeat("n", 65), ".hidden"} {
		if _, err := m.Create(ctx, bad); !errors.Is(err, ErrBadName) {
			t.Errorf("Create %q: %v, want ErrBadName", bad, err)
		}
	}
	create(t, m, "taken")
	if _, err := m.Create(ctx, "taken"); !errors.Is(err, ErrExists) {
		t.Errorf("a taken name: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(m.Dir(), "squatted"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Create(ctx, "squatted"); !errors.Is(err, ErrExists) {
		t.Errorf("a taken directory: %v", err)
	}
	if _, err := m.Get(ctx, "nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get of no task: %v", err)
	}
}

// A worktree deleted behind fawn's back is listed as Missing, comes back
// with its commits (Restore), and is cleaned up by Discard; one whose
// record was pruned too is NoWorktree.
func TestVanishedWorktree(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	tr := create(t, m, "gone")
	write(t, filepath.Join(tr.Dir, "kept.txt"), "committed\n")
	if _, err := m.Commit(ctx, tr, "kept"); err != nil {
		t.Fatal(err)
	}
	vanish := func() Tree {
		t.Helper()
		if err := os.RemoveAll(tr.Dir); err != nil {
			t.Fatal(err)
		}
		got, err := m.Get(ctx, "gone")
		if err != nil || got.State != Missing || got.Dir != tr.Dir {
			t.Fatalf("Get after the directory vanished: %+v, %v", got, err)
		}
		return got
	}
	got, err := m.Restore(ctx, vanish())
	if err != nil || got.State != OK || read(t, filepath.Join(tr.Dir, "kept.txt")) != "committed\n" {
		t.Fatalf("Restore: %+v, %v", got, err)
	}
	// The user's own worktree, gone too, is not Discard's to forget.
	users := filepath.Join(t.TempDir(), "users")
	plainGit(t, repo, "worktree", "add", "-q", "-b", "users", users)
	if err := os.RemoveAll(users); err != nil {
		t.Fatal(err)
	}
	if err := m.Discard(ctx, vanish(), false); err != nil {
		t.Fatalf("Discard of a missing worktree: %v", err)
	}
	if out := plainGit(t, repo, "worktree", "list", "--porcelain"); !strings.Contains(out, users) {
		t.Errorf("Discard forgot the user's own worktree:\n%s", out)
	}
	if l, err := m.List(ctx); err != nil || len(l) != 0 {
		t.Errorf("List after Discard: %+v, %v", l, err)
	}
	if out := plainGit(t, repo, "worktree", "list", "--porcelain"); strings.Contains(out, tr.Dir) {
		t.Errorf("git still lists the worktree:\n%s", out)
	}

	tr = create(t, m, "pruned")
	if err := os.RemoveAll(tr.Dir); err != nil {
		t.Fatal(err)
	}
	plainGit(t, repo, "worktree", "prune")
	got, err = m.Get(ctx, "pruned")
	if err != nil || got.State != NoWorktree {
		t.Fatalf("Get after prune: %+v, %v", got, err)
	}
	if got, err = m.Restore(ctx, got); err != nil || got.State != OK {
		t.Fatalf("Restore after prune: %+v, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(got.Dir, "a.txt")); err != nil {
		t.Error(err)
	}
}

// Without a git identity, Commit says how to set one and commits nothing.
func TestNoIdentity(t *testing.T) {
	home := isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	tr := create(t, m, "anon")
	if err := os.Remove(filepath.Join(home, ".gitconfig")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(tr.Dir, "a.txt"), "x\n")
	if _, err := m.Commit(ctx, tr, "x"); !errors.Is(err, ErrNoIdentity) || !strings.Contains(err.Error(), "user.email") {
		t.Fatalf("Commit: %v", err)
	}
}

// A worktree left locked (as a git worktree add killed half-way leaves
// it) is listed Locked with the reason; Discard refuses it without force
// and removes it with.
func TestLockedWorktree(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	tr := create(t, m, "half")
	plainGit(t, repo, "worktree", "lock", "--reason", "initializing", tr.Dir)
	got, err := m.Get(ctx, "half")
	if err != nil || got.State != Locked || got.Locked != "initializing" {
		t.Fatalf("Get: %+v, %v", got, err)
	}
	if err := m.Discard(ctx, got, false); !errors.Is(err, ErrLocked) {
		t.Errorf("Discard without force: %v", err)
	}
	if err := m.Discard(ctx, got, true); err != nil {
		t.Fatalf("Discard with force: %v", err)
	}
	if l, err := m.List(ctx); err != nil || len(l) != 0 {
		t.Errorf("List: %+v, %v", l, err)
	}
	if _, err := os.Stat(tr.Dir); !os.IsNotExist(err) {
		t.Errorf("the directory is still there: %v", err)
	}
}

// A task whose worktree was switched to another branch (by its shell) is
// still found at its directory, and Commit refuses to commit there.
func TestWorktreeOnAnotherBranch(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	tr := create(t, m, "moved")
	plainGit(t, tr.Dir, "checkout", "-q", "-b", "elsewhere")
	got, err := m.Get(ctx, "moved")
	if err != nil || got.State != OK || got.Dir != tr.Dir {
		t.Fatalf("Get: %+v, %v", got, err)
	}
	write(t, filepath.Join(tr.Dir, "a.txt"), "x\n")
	if _, err := m.Commit(ctx, got, "x"); err == nil || !strings.Contains(err.Error(), "not on fawn/moved") {
		t.Errorf("Commit on another branch: %v", err)
	}
	if out := plainGit(t, repo, "rev-parse", "elsewhere"); out != tr.Base.Commit {
		t.Error("a commit was made on the other branch")
	}
}

// A renamed file is one change, with its old path; its old content is read
// from there. The worktree gone, the review is of the branch's commits.
func TestDiffRename(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	tr := create(t, m, "mv")
	plainGit(t, tr.Dir, "mv", "a.txt", "moved.txt")
	if _, err := m.Commit(ctx, tr, "move"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(tr.Dir); err != nil {
		t.Fatal(err)
	}
	gone, err := m.Get(ctx, "mv")
	if err != nil || gone.State != Missing {
		t.Fatalf("Get: %+v, %v", gone, err)
	}
	changes, err := m.Diff(ctx, gone)
	if err != nil || len(changes) != 1 {
		t.Fatalf("Diff: %+v, %v", changes, err)
	}
	c := changes[0]
	if c.Status != 'R' || c.OldPath != "a.txt" || c.Path != "moved.txt" || c.Added != 0 || c.Deleted != 0 {
		t.Errorf("change %+v", c)
	}
	old, nw, err := m.Content(ctx, gone, c)
	if err != nil || string(old) != "one\ntwo\nthree\n" || string(nw) != string(old) {
		t.Errorf("Content: %q → %q, %v", old, nw, err)
	}
}

// A base branch whose name is unusual (non-ASCII, '#', '@') or that a tag
// shares is recorded as it is, read back, and merged into.
func TestUnusualBaseBranch(t *testing.T) {
	for _, branch := range []string{"feature/ü#1@x", "main"} {
		isolate(t)
		ctx := context.Background()
		repo := newRepo(t)
		if branch != "main" {
			plainGit(t, repo, "checkout", "-q", "-b", branch)
		}
		plainGit(t, repo, "tag", branch)
		m := open(t, repo)
		tr := create(t, m, "u")
		if tr.Base.Branch != branch {
			t.Fatalf("base %q, want %q", tr.Base.Branch, branch)
		}
		got, err := open(t, repo).Get(ctx, "u")
		if err != nil || got.Base != tr.Base {
			t.Fatalf("read back: %+v, %v", got, err)
		}
		write(t, filepath.Join(tr.Dir, "a.txt"), "u\n")
		if _, err := m.Commit(ctx, got, "u"); err != nil {
			t.Fatal(err)
		}
		if res, err := m.Merge(ctx, got, MergeCommit, ""); err != nil || !res.FastForward {
			t.Fatalf("%s: Merge: %+v, %v", branch, res, err)
		}
		if plainGit(t, repo, "rev-parse", "refs/heads/"+branch) != plainGit(t, tr.Dir, "rev-parse", "HEAD") {
			t.Errorf("%s did not move", branch)
		}
	}
}

// validName and repoID's making safe are written out by hand (a regular
// expression compiled at start-up cost every start of fawn); they take
// what the expressions they replace took.
func TestNamePatterns(t *testing.T) {
	valid := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	unsafe := regexp.MustCompile(`[^A-Za-z0-9._-]`)
	names := []string{"", "a", "A9", "x.y_z-w", "-x", ".x", "_x", "a b", "a\n", "a\nb", "é", "aé", "a\xff", "\xffa",
		strings.Repeat("n", 64), strings.Repeat("n", 65), "a/b", "a:b", "日本", "repo.git", "a\x00b"}
	for _, n := range names {
		if got, want := validName(n), valid.MatchString(n); got != want {
			t.Errorf("validName(%q) = %v, want %v", n, got, want)
		}
		if strings.Contains(n, "/") {
			continue // a path, not a directory's name
		}
		id := repoID("/x/" + n + "y")
		want := unsafe.ReplaceAllString(n+"y", "_")
		if len(want) > 40 {
			want = want[:40]
		}
		if got := id[:strings.LastIndexByte(id, '-')]; got != want {
			t.Errorf("repoID of %q: name %q, want %q", n, got, want)
		}
	}
}
