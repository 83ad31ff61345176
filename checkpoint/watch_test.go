package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/project"
)

// startTestTracker tracks root through a project watcher of its own.
func startTestTracker(t *testing.T, root string, o project.WatchOptions) *tracker {
	t.Helper()
	pw := project.NewWatcher(root, o)
	t.Cleanup(pw.Close)
	w, err := startTracker(context.Background(), pw, root, 2)
	if err != nil {
		t.Skip("no tree watch here:", err)
	}
	return w
}

// TestWatcherSeesWhatAFullScanSees: after each kind of change a command
// makes, the tracker's sync (from the project watcher's journal) reports
// exactly what comparing two full scans reports, and its tree is the full
// scan's.
func TestWatcherSeesWhatAFullScanSees(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, content string) {
		abs := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	at := func(rel string) string { return filepath.Join(root, rel) }
	write(".gitignore", "build/\n*.log\n")
	write("main.go", "package main\n")
	write("pkg/a/a.go", "package a\n")
	write("pkg/b/b.go", "package b\n")
	write("keep.log", "ignored for now\n")

	ctx := context.Background()
	w := startTestTracker(t, root, project.WatchOptions{})

	later := time.Now().Add(time.Hour)
	steps := []struct {
		name string
		do   func()
		some bool // the step changes something the scan keeps
	}{
		{"create a file", func() { write("new.txt", "new\n") }, true},
		{"append to a file", func() {
			f, err := os.OpenFile(at("main.go"), os.O_APPEND|os.O_WRONLY, 0)
			must(err)
			f.WriteString("// more\n")
			must(f.Close())
		}, true},
		{"rewrite through a rename, as sed -i does", func() {
			write("pkg/a/.a.go.tmp", "package a // edited\n")
			must(os.Rename(at("pkg/a/.a.go.tmp"), at("pkg/a/a.go")))
		}, true},
		{"delete a file", func() { must(os.Remove(at("new.txt"))) }, true},
		{"mkdir -p with files", func() {
			write("gen/x/y/z.go", "package y\n")
			write("gen/x/w.go", "package x\n")
		}, true},
		{"move a directory", func() { must(os.Rename(at("gen/x"), at("moved"))) }, true},
		{"move a directory out of an ignored one", func() {
			write("build/out/o.go", "package out\n")
			must(os.Rename(at("build/out"), at("out")))
		}, true},
		{"remove a tree", func() { must(os.RemoveAll(at("moved"))) }, true},
		{"ignored files only", func() {
			write("build/obj/x.o", "obj")
			write("run.log", "log\n")
		}, false},
		{"chmod", func() { must(os.Chmod(at("main.go"), 0o755)) }, true},
		{"touch", func() { must(os.Chtimes(at("pkg/b/b.go"), later, later)) }, true},
		{"a symlink is not a file", func() { must(os.Symlink("main.go", at("link.go"))) }, false},
		{"a file becomes a directory", func() {
			must(os.Remove(at("out/o.go")))
			write("out/o.go/inner.go", "package inner\n")
		}, true},
		{"rename a file", func() { must(os.Rename(at("pkg/b/b.go"), at("pkg/b/c.go"))) }, true},
		{"the ignore rules change", func() { write(".gitignore", "build/\n") }, true},
		{"nothing", func() {}, false},
	}
	prev, err := scanTree(ctx, root, 2)
	must(err)
	for _, s := range steps {
		s.do()
		cur, err := scanTree(ctx, root, 2)
		must(err)
		wantB, wantA := diffTrees(prev, cur)
		gotB, gotA, err := w.sync(ctx)
		if err != nil {
			t.Fatalf("%s: sync: %v", s.name, err)
		}
		if !reflect.DeepEqual(keys(gotB), keys(wantB)) || !reflect.DeepEqual(keys(gotA), keys(wantA)) {
			t.Errorf("%s: the watcher saw before %v after %v; the full scans %v and %v", s.name, keys(gotB), keys(gotA), keys(wantB), keys(wantA))
		}
		if s.some != (len(wantA)+len(wantB) > 0) {
			t.Errorf("%s: the full scans saw before %v after %v", s.name, keys(wantB), keys(wantA))
		}
		if !reflect.DeepEqual(w.tree, cur) {
			t.Errorf("%s: the watcher's tree %v is not the scan's %v", s.name, keys(w.tree), keys(cur))
		}
		prev = cur
	}
	if _, ok := prev["keep.log"]; !ok {
		t.Errorf("keep.log should be kept once *.log is no longer ignored")
	}
}

// TestTrackerAfterTheJournalOverflows: more changes than the watcher's
// journal keeps between two syncs make the tracker walk the tree again,
// and it still reports every change, and goes on from the journal after.
func TestTrackerAfterTheJournalOverflows(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	w := startTestTracker(t, root, project.WatchOptions{MaxJournal: 50})
	n := 300
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("d%d", i/100))
		if i%100 == 0 {
			os.Mkdir(dir, 0o755)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", i)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, after, err := w.sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != 0 || len(after) != n {
		t.Fatalf("after the journal overflowed: %d before, %d after; want 0 and %d", len(before), len(after), n)
	}
	os.WriteFile(filepath.Join(root, "d0", "f0"), []byte("changed"), 0o644)
	if _, after, err := w.sync(ctx); err != nil || len(after) != 1 {
		t.Fatalf("the tracker does not follow the journal after it walked again: %v %v", keys(after), err)
	}
}

func keys(t Tree) []string {
	var ks []string
	for k := range t {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
