package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/worktree"
)

// tasksLeft finds the tasks a fawn had open and no fawn runs now: with
// the files each holds uncommitted, closed ones told from those left by
// a fawn that was killed; a task this process has open is not among them.
func TestTasksLeft(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"-c", "user.name=u", "-c", "user.email=u@e", "commit", "-q", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cfg := &config.Config{ProjectDir: repo, DataDir: t.TempDir()}
	ctx := context.Background()
	m, err := worktree.Open(ctx, repo, cfg.WorktreesDir())
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	for name, pid := range map[string]int{"killed": dead.Process.Pid, "closed": dead.Process.Pid, "mine": os.Getpid()} {
		tr, err := m.Create(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if name == "killed" {
			if err := os.WriteFile(filepath.Join(tr.Dir, "a.txt"), []byte("changed\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.MarkOpen(name, pid); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.MarkClosed("closed"); err != nil {
		t.Fatal(err)
	}
	k := &taskKit{cfg: cfg, decision: trust.Allow(repo, nil, trust.Untrusted, "test")}
	_, left := k.tasksLeft(ctx)
	want := []leftTask{{name: "closed"}, {name: "killed", crashed: true, uncommitted: 1}}
	if len(left) != 2 || left[0] != want[0] || left[1] != want[1] {
		t.Fatalf("tasksLeft: %+v, want %+v", left, want)
	}
	if err := openElsewhere(ctx, m, "mine"); err == nil {
		t.Error("a task another fawn has open was opened again")
	}
	if err := openElsewhere(ctx, m, "killed"); err != nil {
		t.Errorf("a task left by a killed fawn: %v", err)
	}
	if got := crashedOnly(left); len(got) != 1 || got[0].name != "killed" {
		t.Errorf("crashedOnly: %+v", got)
	}
	if got := leftText(crashedOnly(left)); got != "A fawn that ended without closing them (killed, or crashed) had 1 task open: killed (branch fawn/killed, 1 file not committed)." {
		t.Errorf("leftText: %q", got)
	}
}

// The branch a task's tab merges, against real git: a dirty base, and a
// detached start, are said before anything is asked; uncommitted work is
// listed, committed, then fast-forwarded; a second task's conflict is
// found before anything is merged, and leaves the base clean.
func TestTaskBranchMerge(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = u\n\temail = u@e\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(repo, "a.txt"), "a\n")
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "init")
	ctx := context.Background()
	m, err := worktree.Open(ctx, repo, filepath.Join(t.TempDir(), "trees"))
	if err != nil {
		t.Fatal(err)
	}
	one, err := m.Create(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	two, err := m.Create(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	b1, b2 := taskBranch{m: m, name: "one"}, taskBranch{m: m, name: "two"}
	write(filepath.Join(one.Dir, "a.txt"), "blue\n")
	write(filepath.Join(two.Dir, "a.txt"), "red\n")

	write(filepath.Join(repo, "a.txt"), "the user's\n")
	if _, err := b1.Uncommitted(ctx); !errors.Is(err, worktree.ErrBaseDirty) {
		t.Errorf("a dirty base: %v", err)
	}
	git("checkout", "-q", "--", "a.txt")

	files, err := b1.Uncommitted(ctx)
	if err != nil || len(files) != 1 || files[0] != "a.txt" {
		t.Fatalf("Uncommitted: %q, %v", files, err)
	}
	if err := b1.Commit(ctx, "blue"); err != nil {
		t.Fatal(err)
	}
	if p, err := b1.Plan(ctx); err != nil || !p.FastForward {
		t.Fatalf("Plan: %+v, %v", p, err)
	}
	if what, err := b1.Merge(ctx, false, ""); err != nil || !strings.Contains(what, "fawn/one merged into main: a fast-forward") {
		t.Fatalf("Merge: %q, %v", what, err)
	}

	if err := b2.Commit(ctx, "red"); err != nil {
		t.Fatal(err)
	}
	var c *worktree.ConflictError
	if _, err := b2.Plan(ctx); !errors.As(err, &c) {
		t.Fatalf("Plan of the conflicting task: %v", err)
	}
	if st := git("status", "--porcelain"); st != "" {
		t.Errorf("the conflict left the base changed:\n%s", st)
	}
	rows, err := b2.Review(ctx)
	if err != nil || len(rows) != 1 || rows[0].Path != "a.txt" || rows[0].Plus != 1 || rows[0].Minus != 1 {
		t.Errorf("Review: %+v, %v", rows, err)
	}
	if old, now, err := b2.Content(ctx, "a.txt"); err != nil || string(old) != "a\n" || string(now) != "red\n" {
		t.Errorf("Content: %q %q %v", old, now, err)
	}

	git("checkout", "-q", "--detach")
	det, err := m.Create(ctx, "detached")
	if err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(det.Dir, "a.txt"), "x\n")
	if _, err := (taskBranch{m: m, name: "detached"}).Uncommitted(ctx); !errors.Is(err, worktree.ErrDetachedBase) {
		t.Errorf("a task started at a detached HEAD: %v", err)
	}
}

// fawn -p --worktree records its task as open while it runs (a run killed
// half-way leaves a task the IDE offers back), and puts the record back
// as it was when it ends; a task another running fawn has open is
// refused.
func TestHeadlessTaskRecord(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"-c", "user.name=u", "-c", "user.email=u@e", "commit", "-q", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx := context.Background()
	data := t.TempDir()
	d := trust.Allow(repo, nil, trust.Untrusted, "test")
	m, err := worktree.Open(ctx, repo, filepath.Join(data, "worktrees"))
	if err != nil {
		t.Fatal(err)
	}
	state := func() []worktree.Opened {
		o, err := m.Opened(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	run := func() (func(), error) {
		cfg := &config.Config{ProjectDir: repo, DataDir: data}
		_, release, err := enterWorktree(ctx, "h", cfg, d, io.Discard)
		return release, err
	}
	release, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if o := state(); len(o) != 1 || !o[0].Live {
		t.Fatalf("during the run: %+v", o)
	}
	if _, err := run(); err == nil || !strings.Contains(err.Error(), "another fawn has task h open") {
		t.Errorf("a second run while the first has it open: %v", err)
	}
	release()
	if o := state(); len(o) != 0 {
		t.Errorf("after the run: %+v", o)
	}
	if err := m.MarkClosed("h"); err != nil {
		t.Fatal(err)
	}
	release, err = run()
	if err != nil {
		t.Fatal(err)
	}
	release()
	if o := state(); len(o) != 1 || !o[0].Closed {
		t.Errorf("a task an IDE closed, after a run in it: %+v", o)
	}
}
