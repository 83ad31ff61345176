package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
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
	if got := crashedOnly(left); len(got) != 1 || got[0].name != "killed" {
		t.Errorf("crashedOnly: %+v", got)
	}
	if got := leftText(crashedOnly(left)); got != "A fawn that ended without closing them (killed, or crashed) had 1 task open: killed (branch fawn/killed, 1 file not committed)." {
		t.Errorf("leftText: %q", got)
	}
}
