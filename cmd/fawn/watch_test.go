package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/project/projecttest"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/theme"
)

// TestOneWatcherPerRootForEveryConsumer: the workspaces of two roots (the
// project and a task's worktree), each with an editor holding an open
// file, a checkpoint book that watched an agent command, and the file
// index, hold one inotify instance per root, and every consumer gets what
// it needs through it: the book the file the command made, the index the
// new name.
func TestOneWatcherPerRootForEveryConsumer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the tree is watched with Linux's inotify")
	}
	before := projecttest.InotifyInstances(t, "self")
	watchers := project.NewWatchers(project.WatchOptions{})
	for i, name := range []string{"project", "worktree"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, _, err := config.Load(config.Options{ProjectDir: dir, Env: []string{"FAWN_HOME=" + t.TempDir()}})
		if err != nil {
			t.Fatal(err)
		}
		ws, err := newWorkspace(cfg, nil, nil, watchers)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		root := ws.env.Root

		ed := editor.New(root, theme.Get("dark"), nil, editor.WithWatcher(ws.env.Watch))
		defer ed.Close()
		if err := ed.Open(filepath.Join(root, "a.txt"), 0); err != nil {
			t.Fatal(err)
		}

		book, err := checkpoint.Open(t.TempDir(), root, nil, checkpoint.Options{Watch: ws.env.Watch})
		if err != nil {
			t.Fatal(err)
		}
		defer book.Close()
		book.Begin("make b", 0)
		book.CommandStarting(context.Background())() // the first command has the tree watched
		ended := book.CommandStarting(context.Background())
		if err := os.WriteFile(filepath.Join(root, "b.txt"), []byte("b\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := ended(); !slices.Equal(got, []string{filepath.Join(root, "b.txt")}) {
			t.Fatalf("%s: the command changed %v", name, got)
		}
		if ws.env.Watch.TreeDirs() == 0 {
			t.Fatalf("%s: the book did not have the tree watched: %s", name, book.ScanMode())
		}

		x := project.NewIndex(root, ws.env.Watch)
		deadline := time.Now().Add(30 * time.Second)
		for {
			x.Refresh(context.Background(), func(f func()) { f() }, func() {})
			if p, done := x.Paths(); done && slices.Contains(p, "b.txt") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the index does not list b.txt", name)
			}
			time.Sleep(20 * time.Millisecond)
		}

		if got := projecttest.InotifyInstances(t, "self") - before; got != i+1 {
			t.Fatalf("%d inotify instances for %d roots", got, i+1)
		}
	}
}
