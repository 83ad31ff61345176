package explorer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/ui/theme"
)

// fixture is an explorer on a real project directory whose posted work
// runs on the test's goroutine, as on the app's UI goroutine.
type fixture struct {
	t      *testing.T
	root   string
	ex     *Explorer
	queue  chan func()
	opened []string
}

func newFixture(t *testing.T, files map[string]string, opts ...Option) *fixture {
	t.Helper()
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if strings.HasSuffix(name, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{t: t, root: root, queue: make(chan func(), 1024)}
	f.ex = New(root, theme.Get("dark"), nil, func(fn func()) { f.queue <- fn }, opts...)
	f.ex.OnOpen = func(p string) { f.opened = append(f.opened, p) }
	t.Cleanup(f.ex.Close)
	f.until("the first listing", func() bool { return f.ex.tree.loaded })
	return f
}

// until runs posted work until cond holds.
func (f *fixture) until(what string, cond func() bool) {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		select {
		case fn := <-f.queue:
			fn()
			continue
		default:
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %s; rows %q", what, f.ex.Rows())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (f *fixture) key(k tcell.Key, r rune) { f.ex.HandleKey(tcell.NewEventKey(k, r, tcell.ModNone)) }

func (f *fixture) typeText(s string) {
	for _, r := range s {
		f.key(tcell.KeyRune, r)
	}
}

func (f *fixture) selectRow(rel string) {
	f.t.Helper()
	f.until("row "+rel, func() bool { return slices.Contains(f.ex.Rows(), rel) })
	f.ex.selectRel(rel)
}

func (f *fixture) has(rel string) bool { return slices.Contains(f.ex.Rows(), rel) }

func (f *fixture) exists(rel string) bool {
	_, err := os.Stat(filepath.Join(f.root, rel))
	return err == nil
}

func (f *fixture) screen(w, h int) string {
	s := tcell.NewSimulationScreen("UTF-8")
	s.Init()
	defer s.Fini()
	s.SetSize(w, h)
	f.ex.SetRect(0, 0, w, h)
	f.ex.Draw(s)
	s.Show()
	cells, cw, ch := s.GetContents()
	var b strings.Builder
	for y := 0; y < ch; y++ {
		for x := 0; x < cw; x++ {
			if r := cells[y*cw+x].Runes; len(r) > 0 {
				b.WriteString(string(r))
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestTreeHonoursIgnoreFilesAndOpensFiles(t *testing.T) {
	f := newFixture(t, map[string]string{
		".gitignore": "build/\n*.log\n", "a.go": "package a\n", "b.log": "x", "build/out": "x",
		"src/main.go": "package main\n", ".git/": "",
	})
	if got := strings.Join(f.ex.Rows(), " "); got != "src .gitignore a.go" {
		t.Fatalf("rows %q", got)
	}
	f.selectRow("src")
	f.key(tcell.KeyRight, 0)
	f.until("src open", func() bool { return f.has("src/main.go") })
	f.selectRow("src/main.go")
	f.key(tcell.KeyEnter, 0)
	if len(f.opened) != 1 || f.opened[0] != filepath.Join(f.root, "src", "main.go") {
		t.Errorf("opened %q", f.opened)
	}
	f.key(tcell.KeyLeft, 0) // to the parent
	if f.ex.Selected() != "src" {
		t.Errorf("left went to %q", f.ex.Selected())
	}
	f.key(tcell.KeyLeft, 0) // closes it
	if f.has("src/main.go") {
		t.Error("src did not close")
	}
	if s := f.screen(40, 10); !strings.Contains(s, "▸ src/") || !strings.Contains(s, "a.go") {
		t.Errorf("screen:\n%s", s)
	}
}

func TestCreateRenameDeleteAskFirst(t *testing.T) {
	f := newFixture(t, map[string]string{"a.go": "package a\n", "src/main.go": "package main\n", "keep.txt": "keep\n"})
	// New file in the selected file's directory; it opens.
	f.selectRow("src")
	f.key(tcell.KeyRight, 0)
	f.selectRow("src/main.go")
	f.key(tcell.KeyRune, 'n')
	f.typeText("util.go")
	f.key(tcell.KeyEnter, 0)
	if !f.exists("src/util.go") || len(f.opened) != 1 {
		t.Fatalf("new file: exists %v, opened %q", f.exists("src/util.go"), f.opened)
	}
	f.until("the new file selected", func() bool { return f.ex.Selected() == "src/util.go" })
	if !f.ex.Changed("src/util.go") || !f.ex.Changed("src") {
		t.Error("the new file is not marked changed")
	}
	// A directory, with its trailing slash.
	f.key(tcell.KeyRune, 'n')
	f.typeText("pkg/")
	f.key(tcell.KeyEnter, 0)
	if st, err := os.Stat(filepath.Join(f.root, "src", "pkg")); err != nil || !st.IsDir() {
		t.Errorf("new directory: %v", err)
	}
	// Nothing outside the project.
	f.key(tcell.KeyRune, 'n')
	f.typeText("../../evil")
	f.key(tcell.KeyEnter, 0)
	if _, err := os.Stat(filepath.Join(filepath.Dir(f.root), "evil")); err == nil {
		t.Fatal("created a file outside the project")
	}
	if !strings.Contains(f.screen(60, 10), "outside the project") {
		t.Errorf("no message:\n%s", f.screen(60, 10))
	}

	// Rename; onto an existing file only after a yes.
	f.selectRow("a.go")
	f.key(tcell.KeyRune, 'r')
	f.key(tcell.KeyCtrlU, 0)
	f.typeText("keep.txt")
	f.key(tcell.KeyEnter, 0)
	if !strings.Contains(f.screen(60, 10), "keep.txt exists: replace it? y/n") {
		t.Fatalf("no overwrite question:\n%s", f.screen(60, 10))
	}
	f.key(tcell.KeyRune, 'n')
	if b, _ := os.ReadFile(filepath.Join(f.root, "keep.txt")); string(b) != "keep\n" || !f.exists("a.go") {
		t.Error("n replaced the file")
	}
	f.key(tcell.KeyRune, 'r')
	f.key(tcell.KeyCtrlU, 0)
	f.typeText("lib/b.go")
	f.key(tcell.KeyEnter, 0)
	if f.exists("a.go") || !f.exists("lib/b.go") {
		t.Fatal("rename did not happen")
	}
	f.until("the renamed file shown", func() bool { return f.has("lib/b.go") && !f.has("a.go") })

	// Delete asks; n keeps, y deletes.
	f.selectRow("keep.txt")
	f.key(tcell.KeyRune, 'd')
	if !strings.Contains(f.screen(60, 10), "delete keep.txt? y/n") {
		t.Fatalf("no question:\n%s", f.screen(60, 10))
	}
	f.key(tcell.KeyRune, 'n')
	if !f.exists("keep.txt") {
		t.Fatal("n deleted")
	}
	f.key(tcell.KeyRune, 'd')
	f.key(tcell.KeyRune, 'y')
	if f.exists("keep.txt") {
		t.Fatal("y did not delete")
	}
	f.until("the deleted file gone", func() bool { return !f.has("keep.txt") })
	f.selectRow("lib")
	f.key(tcell.KeyRune, 'd')
	if !strings.Contains(f.screen(60, 10), "delete lib/ and everything in it? y/n") {
		t.Errorf("a directory's delete does not say it takes its contents:\n%s", f.screen(60, 10))
	}
	f.key(tcell.KeyEscape, 0)
}

// The tree follows the disk: a file made by someone else appears, marked.
func TestTreeFollowsTheDisk(t *testing.T) {
	f := newFixture(t, map[string]string{"a.go": "package a\n", "src/main.go": "package main\n"})
	f.selectRow("src")
	f.key(tcell.KeyRight, 0)
	f.until("src open", func() bool { return f.has("src/main.go") })
	os.WriteFile(filepath.Join(f.root, "src", "new.go"), []byte("package main\n"), 0o644)
	os.Remove(filepath.Join(f.root, "a.go"))
	f.until("the new file in the tree", func() bool { return f.has("src/new.go") && !f.has("a.go") })
	f.until("the new file marked", func() bool { return f.ex.Changed("src/new.go") })
	if s := f.screen(40, 10); !strings.Contains(s, "new.go ✦") || !strings.Contains(s, "src/ •") {
		t.Errorf("marks:\n%s", s)
	}
	// The agent's edits are marked too.
	f.ex.MarkChanged(filepath.Join(f.root, "src", "main.go"))
	if !f.ex.Changed("src/main.go") {
		t.Error("MarkChanged")
	}
}

// A file name holding an escape sequence (or a C1 CSI) is drawn
// harmlessly, in the tree and in a message naming it.
func TestHostileNamesAreDrawnSafely(t *testing.T) {
	f := newFixture(t, map[string]string{"evil\x1b]0;pwned\x07\u009b.txt": "x"})
	if s := f.screen(60, 5); strings.ContainsRune(s, '\x1b') || !strings.Contains(s, "evil␛]0;pwned␇<U+009B>.txt") {
		t.Errorf("screen:\n%q", s)
	}
	f.ex.flash = "cannot move evil\x1b]0;pwned\x07\u009b.txt"
	if s := f.screen(60, 5); !strings.Contains(s, "cannot move evil␛]0;pwned␇<U+009B>.txt") {
		t.Errorf("the message:\n%s", s)
	}
}

// Given the project's watcher, the explorer watches through it, beside
// whoever else does (the editor), and follows the disk the same way.
func TestTreeFollowsTheDiskThroughASharedWatcher(t *testing.T) {
	pw := project.NewWatcher("", project.WatchOptions{})
	t.Cleanup(pw.Close)
	if pw.Err() != nil {
		t.Skip("no file watches here:", pw.Err())
	}
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	other := pw.Subscribe(func(project.Event) {})
	if err := other.Add(root); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: root, queue: make(chan func(), 1024)}
	f.ex = New(root, theme.Get("dark"), nil, func(fn func()) { f.queue <- fn }, WithWatcher(pw))
	f.until("the first listing", func() bool { return f.ex.tree.loaded })
	if got := pw.Dirs(); len(got) != 1 || got[0] != root {
		t.Fatalf("the shared watcher watches %q; want the root, once for both", got)
	}
	os.WriteFile(filepath.Join(root, "new.go"), []byte("package main\n"), 0o644)
	f.until("the new file in the tree", func() bool { return f.has("new.go") })
	// The other subscriber leaving keeps the explorer's watch, and the
	// explorer closing drops it.
	other.Close()
	if got := pw.Dirs(); len(got) != 1 || got[0] != root {
		t.Fatalf("after the other subscriber left, the watcher watches %q; want the explorer's root", got)
	}
	f.ex.Close()
	if got := pw.Dirs(); len(got) != 0 {
		t.Fatalf("nobody left, yet the watcher watches %q", got)
	}
}

// When the watcher's events were lost (the kernel's queue overflowed), the
// explorer lists the directory again.
func TestTreeListsAgainAfterLostEvents(t *testing.T) {
	pw := project.NewWatcher("", project.WatchOptions{})
	if pw.Err() != nil {
		t.Skip("no file watches here:", pw.Err())
	}
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	f := &fixture{t: t, root: root, queue: make(chan func(), 1024)}
	f.ex = New(root, theme.Get("dark"), nil, func(fn func()) { f.queue <- fn }, WithWatcher(pw))
	t.Cleanup(f.ex.Close)
	f.until("the first listing", func() bool { return f.ex.tree.loaded })
	pw.Close() // from here no event comes, as when the queue overflows
	os.WriteFile(filepath.Join(root, "unseen.go"), []byte("package main\n"), 0o644)
	f.ex.watch.event(project.Event{Path: root, Op: project.Lost})
	f.until("the file in the tree after lost events", func() bool { return f.has("unseen.go") })
}
