package project

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/fawn-ide/fawn/internal/monorepo"
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
	x := NewIndex(root, nil)
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

// TestIndexShowsPartsOfABigTreeFirst: on the small monorepo fixture
// (5,000 files), the first paths are there to match while the walk goes
// on, flagged as not done; the finished index holds what the walk keeps,
// every kept file and directory, and nothing the .gitignore files hide.
func TestIndexShowsPartsOfABigTreeFirst(t *testing.T) {
	o := monorepo.Small()
	o.Commits = 0
	root := t.TempDir()
	st, err := monorepo.Generate(context.Background(), root, o)
	if err != nil {
		t.Fatal(err)
	}
	x := NewIndex(root, nil)
	type seen struct {
		n    int
		done bool
	}
	calls := make(chan seen, 1000)
	x.Refresh(context.Background(), func(f func()) { go f() }, func() {
		p, d := x.Paths()
		calls <- seen{len(p), d}
	})
	first := <-calls
	if first.done || first.n == 0 || first.n > 1000 {
		t.Fatalf("the first paths: %d, done %v; want a few hundred, not done", first.n, first.done)
	}
	for c := first; !c.done; c = <-calls {
	}
	paths, _ := x.Paths()
	files, dirs := 0, 0
	for _, p := range paths {
		switch {
		case strings.HasSuffix(p, "/"):
			dirs++
		case !IsIgnoreFile(path.Base(p)):
			files++
		}
		if strings.HasPrefix(p, "node_modules") || strings.HasSuffix(p, ".o") || strings.Contains(p, "/run") {
			t.Fatalf("the index lists %s, which the fixture's .gitignore files hide", p)
		}
	}
	if files != st.Kept {
		t.Errorf("the index holds %d files, the fixture keeps %d", files, st.Kept)
	}
	if dirs == 0 || dirs >= st.Dirs {
		t.Errorf("the index holds %d directories of %d, some hidden", dirs, st.Dirs)
	}
}

// TestIndexWalksAgainOnlyWhenNamesChange: once listed, a stale index is
// walked again only when a directory's entries or an ignore file changed;
// a file written in place changes no path and costs no walk.
func TestIndexWalksAgainOnlyWhenNamesChange(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Directories last changed an hour ago, as in a project not being
	// edited (a just-moved mtime is never trusted).
	settle := func() {
		old := time.Now().Add(-time.Hour)
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil {
				os.Chtimes(p, old, old)
			}
			return nil
		})
	}
	write(".gitignore", "*.log\n")
	write("main.go", "package main\n")
	write("ui/chat.go", "package ui\n")
	write("ui/debug.log", "x\n")
	settle()

	x := NewIndex(root, nil)
	x.freshFor = 0 // stale at once
	walks := 0
	refresh := func() []string {
		x.Refresh(context.Background(), func(f func()) { f() }, func() {
			if _, done := x.Paths(); done {
				walks++
			}
		})
		p, _ := x.Paths()
		return p
	}
	if p := refresh(); walks != 1 || !slices.Contains(p, "ui/chat.go") || slices.Contains(p, "ui/debug.log") {
		t.Fatalf("the first refresh: %d walks, %v", walks, p)
	}
	refresh()
	if walks != 1 {
		t.Fatalf("nothing changed, and the index walked again (%d walks)", walks)
	}
	write("ui/chat.go", "package ui // edited\n")
	if refresh(); walks != 1 {
		t.Fatalf("a file written in place made the index walk again (%d walks)", walks)
	}
	write("ui/view.go", "package ui\n")
	if p := refresh(); walks != 2 || !slices.Contains(p, "ui/view.go") {
		t.Fatalf("after a file was made: %d walks, %v", walks, p)
	}
	settle()
	refresh() // the stamps of the settled tree
	walks = 2
	write(".gitignore", "*.log\nview.go\n")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(root, old, old) // only the ignore file's own time moves
	if p := refresh(); walks != 3 || slices.Contains(p, "ui/view.go") {
		t.Fatalf("after .gitignore changed: %d walks, %v", walks, p)
	}
}

// TestPackPutsPathsSideBySide: Pack keeps each string as it was and puts
// them one after the other in memory, and the index's paths come packed:
// a key of a fuzzy match reads every path, and paths allocated one by one
// cost a cache miss each.
func TestPackPutsPathsSideBySide(t *testing.T) {
	list := []string{"src/a.go", strings.Repeat("x", 100), "", "docs/é.md"}
	want := slices.Clone(list)
	Pack(list)
	if !slices.Equal(list, want) {
		t.Fatalf("Pack changed the strings: %q", list)
	}
	adjacent := func(a, b string) bool {
		return uintptr(unsafe.Pointer(unsafe.StringData(a)))+uintptr(len(a)) == uintptr(unsafe.Pointer(unsafe.StringData(b)))
	}
	if !adjacent(list[0], list[1]) || !adjacent(list[1], list[3]) {
		t.Fatal("Pack left the strings apart")
	}

	root := t.TempDir()
	for i := range 50 {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("file%02d.go", i)), nil, 0o644)
	}
	x := NewIndex(root, nil)
	x.Refresh(context.Background(), func(f func()) { f() }, func() {})
	paths, done := x.Paths()
	if !done || len(paths) != 50 {
		t.Fatalf("index: %d paths, done %v", len(paths), done)
	}
	for i := 1; i < len(paths); i++ {
		if !adjacent(paths[i-1], paths[i]) {
			t.Fatalf("the index's paths %q and %q are apart in memory", paths[i-1], paths[i])
		}
	}
}
