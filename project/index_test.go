package project

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The index lists the project as the walk does (ignored files left out,
// directories with a slash), in the background, and says when it is done.
func TestIndexListsTheProjectInTheBackground(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		".gitignore":     "build/\n",
		"main.go":        "package main\n",
		"ui/chat.go":     "package ui\n",
		"build/out.bin":  "x",
		"docs/README.md": "# docs\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x := NewIndex(root)
	if paths, done := x.Paths(); len(paths) != 0 || done {
		t.Fatalf("before a refresh the index holds %v (done %v)", paths, done)
	}
	changed := make(chan struct{}, 16)
	x.Refresh(context.Background(), func(f func()) { go f() }, func() { changed <- struct{}{} })
	deadline := time.After(30 * time.Second)
	for {
		if _, done := x.Paths(); done {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("the index's walk did not finish in 30 s")
		}
	}
	paths, _ := x.Paths()
	for _, want := range []string{"main.go", "ui/", "ui/chat.go", "docs/README.md"} {
		if !slices.Contains(paths, want) {
			t.Errorf("the index lacks %s: %v", want, paths)
		}
	}
	if slices.Contains(paths, "build/out.bin") {
		t.Errorf("the index lists an ignored file: %v", paths)
	}
}
