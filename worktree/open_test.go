package worktree

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A task's record says which fawn has it open: live while that process
// runs, left behind once it is killed, closed when its fawn closed it;
// discarding the task, or deleting its branch with git, forgets it.
func TestOpenedTasks(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	m := open(t, newRepo(t))
	for _, n := range []string{"alive", "killed", "closed", "gone"} {
		create(t, m, n)
	}
	if got, err := m.Opened(ctx); err != nil || len(got) != 0 {
		t.Fatalf("Opened before any was opened: %+v, %v", got, err)
	}
	// A process that is killed -9 before it can close anything.
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	for name, p := range map[string]int{"alive": os.Getpid(), "killed": pid, "gone": os.Getpid()} {
		if err := m.MarkOpen(name, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.MarkOpen("closed", os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if err := m.MarkClosed("closed"); err != nil {
		t.Fatal(err)
	}
	want := []Opened{{Name: "alive", Live: true}, {Name: "closed", Closed: true}, {Name: "gone", Live: true}, {Name: "killed", Live: true}}
	checkOpened(t, m, want)

	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	want[3].Live = false
	checkOpened(t, m, want)

	// A PID used again by another process is not the fawn that wrote it.
	if err := m.writeOpen("killed", "pid 1 12345\n"); err != nil {
		t.Fatal(err)
	}
	checkOpened(t, m, want)

	tr, err := m.Get(ctx, "alive")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Discard(ctx, tr, false); err != nil {
		t.Fatal(err)
	}
	plainGit(t, m.Root(), "worktree", "remove", filepath.Join(m.Dir(), "gone"))
	plainGit(t, m.Root(), "branch", "-D", "fawn/gone")
	checkOpened(t, m, []Opened{{Name: "closed", Closed: true}, {Name: "killed"}})
	if _, err := os.Stat(m.openFile("gone")); !os.IsNotExist(err) {
		t.Errorf("the record of a task whose branch is gone is kept: %v", err)
	}
	if err := m.MarkOpen("../x", 1); err == nil {
		t.Error("a record of a task named ../x was written")
	}
}

func checkOpened(t *testing.T, m *Manager, want []Opened) {
	t.Helper()
	got, err := m.Opened(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("Opened: %+v, want %+v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("Opened: %+v, want %+v", got, want)
			return
		}
	}
}

// The drafted message of a merge names the task and lists its commits'
// subjects, oldest first; a squash of one commit is that commit's subject.
func TestDraft(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	tr := create(t, m, "side")
	write(t, filepath.Join(tr.Dir, "c.txt"), "sea\n")
	if _, err := m.Commit(ctx, tr, "add c"); err != nil {
		t.Fatal(err)
	}
	if got, err := m.Draft(ctx, tr, Squash); err != nil || got != "add c\n\n(task side, squashed from fawn/side)" {
		t.Errorf("squash of one commit: %q, %v", got, err)
	}
	write(t, filepath.Join(tr.Dir, "e.txt"), "e\n")
	if _, err := m.Commit(ctx, tr, "add e"); err != nil {
		t.Fatal(err)
	}
	if got, err := m.Draft(ctx, tr, MergeCommit); err != nil || got != "Merge task side (fawn/side) into main\n\n- add c\n- add e" {
		t.Errorf("merge commit: %q, %v", got, err)
	}
	if got, err := m.Draft(ctx, tr, Squash); err != nil || got != "side: 2 changes (squashed from fawn/side)\n\n- add c\n- add e" {
		t.Errorf("squash: %q, %v", got, err)
	}
}

// Preview says how a merge would go and changes nothing: a fast-forward,
// a merge commit, a conflict with its files, a dirty base refused.
func TestPreview(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	m := open(t, repo)
	one, two := create(t, m, "one"), create(t, m, "two")
	write(t, filepath.Join(one.Dir, "a.txt"), "one\nTWO\nthree\n")
	write(t, filepath.Join(two.Dir, "a.txt"), "one\n2\nthree\n")
	for _, tr := range []Tree{one, two} {
		if _, err := m.Commit(ctx, tr, "edit a"); err != nil {
			t.Fatal(err)
		}
	}
	if ff, err := m.Preview(ctx, one); err != nil || !ff {
		t.Fatalf("Preview of one: %v, %v; want a fast-forward", ff, err)
	}
	if _, err := m.Merge(ctx, one, MergeCommit, ""); err != nil {
		t.Fatal(err)
	}
	head := plainGit(t, repo, "rev-parse", "HEAD")
	var c *ConflictError
	if _, err := m.Preview(ctx, two); !errors.As(err, &c) || len(c.Files) != 1 || c.Files[0] != "a.txt" {
		t.Fatalf("Preview of two: %v; want a conflict in a.txt", err)
	}
	if plainGit(t, repo, "rev-parse", "HEAD") != head {
		t.Error("Preview moved HEAD")
	}
	clean(t, repo)
	write(t, filepath.Join(repo, "b.txt"), "dirty\n")
	if _, err := m.Preview(ctx, two); !errors.Is(err, ErrBaseDirty) {
		t.Errorf("Preview with a dirty base: %v", err)
	}
}

// TestCommitIDAsTheRuleSays: isCommitID takes exactly what
// ^[0-9a-f]{40}([0-9a-f]{24})?$ takes (written out, so that no regular
// expression is compiled at every start of fawn).
func TestCommitIDAsTheRuleSays(t *testing.T) {
	rule := regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)
	h := strings.Repeat("0123456789abcdef", 4)
	ids := []string{"", h[:40], h[:64], h[:39], h[:41], h[:63], strings.ToUpper(h[:40]), h[:39] + "g", h[:40] + "\n", "-" + h[:39]}
	for c := 0; c < 256; c++ {
		ids = append(ids, h[:39]+string([]byte{byte(c)}), h[:63]+string([]byte{byte(c)}))
	}
	for _, id := range ids {
		if got, want := isCommitID(id), rule.MatchString(id); got != want {
			t.Errorf("isCommitID(%q) = %v, the rule says %v", id, got, want)
		}
	}
}
