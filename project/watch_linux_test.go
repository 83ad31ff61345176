//go:build linux

package project

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/project/projecttest"
)

func tempRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func put(t *testing.T, root, rel, content string) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// watchTree starts a watcher of root watching its tree.
func watchTree(t *testing.T, root string, o WatchOptions) (*Watcher, Mark) {
	t.Helper()
	w := NewWatcher(root, o)
	t.Cleanup(w.Close)
	if w.Err() != nil {
		t.Skip("no file watches here:", w.Err())
	}
	m, walked, err := w.WatchTree(context.Background(), 2, nil)
	if err != nil || !walked {
		t.Fatalf("WatchTree: walked %v, %v", walked, err)
	}
	return w, m
}

// TestWatchersOneInstancePerRoot: however many consumers ask for a root's
// watcher, the process holds one inotify instance for it; two roots (a
// task's worktree beside the project) hold two; the last release closes it.
func TestWatchersOneInstancePerRoot(t *testing.T) {
	before := projecttest.InotifyInstances(t, "self")
	ws := NewWatchers(WatchOptions{})
	a, b := tempRoot(t), tempRoot(t)
	w1, r1 := ws.Get(a)
	w2, r2 := ws.Get(a)
	if w1 != w2 {
		t.Fatal("two watchers for one root")
	}
	if _, _, err := w1.WatchTree(context.Background(), 2, nil); err != nil {
		t.Fatal(err)
	}
	s := w2.Subscribe(func(Event) {})
	if err := s.Add(a); err != nil {
		t.Fatal(err)
	}
	if got := projecttest.InotifyInstances(t, "self") - before; got != 1 {
		t.Fatalf("%d inotify instances for one root", got)
	}
	w3, r3 := ws.Get(b)
	if got := projecttest.InotifyInstances(t, "self") - before; got != 2 || w3 == w1 {
		t.Fatalf("%d inotify instances for two roots", got)
	}
	s.Close()
	r1()
	r1() // once only
	if got := projecttest.InotifyInstances(t, "self") - before; got != 2 {
		t.Fatalf("%d inotify instances while each root has a consumer", got)
	}
	r2()
	r3()
	if got := projecttest.InotifyInstances(t, "self") - before; got != 0 {
		t.Fatalf("%d inotify instances left after every release", got)
	}
}

// since waits (generously) until Since(m) satisfies ok, and returns it.
func since(t *testing.T, w *Watcher, m Mark, what string, ok func(Changes) bool) Changes {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, _, err := w.Since(m)
		if err != nil {
			t.Fatal(err)
		}
		if ok(c) {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not in the journal: %+v", what, c)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWatcherJournalsTheTree: the journal names what changed below the
// root since a mark, a change made before Since is in its answer at once,
// ignored paths are left out, directories made after the start are
// watched (so a file made in them later is seen), and a changed ignore
// file says everything changed.
func TestWatcherJournalsTheTree(t *testing.T) {
	root := tempRoot(t)
	put(t, root, ".gitignore", "build/\n*.log\n")
	put(t, root, "src/a.go", "package a\n")
	w, m := watchTree(t, root, WatchOptions{})

	put(t, root, "src/a.go", "package a // edited\n")
	put(t, root, "x.log", "ignored\n")
	put(t, root, "build/out.o", "ignored\n")
	c, m2, err := w.Since(m)
	if err != nil {
		t.Fatal(err)
	}
	if c.All || len(c.Files) != 1 || c.Files["src/a.go"]&Written == 0 || len(c.Dirs) != 0 || c.Names {
		t.Fatalf("after a write and two ignored files: %+v", c)
	}
	if c, _, _ := w.Since(m2); !c.Empty() {
		t.Fatalf("nothing changed since, yet: %+v", c)
	}

	// A tree made at once: the directory is named, and once the watcher
	// has walked it, a file made deep inside is seen on its own.
	if err := os.MkdirAll(filepath.Join(root, "gen", "x", "y"), 0o755); err != nil {
		t.Fatal(err)
	}
	c = since(t, w, m2, "gen/", func(c Changes) bool { return c.Dirs["gen"]&Created != 0 })
	if !c.Names {
		t.Fatalf("a new directory does not change the names: %+v", c)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		w.mu.Lock()
		d := w.sys.byPath[filepath.Join(root, "gen", "x", "y")]
		w.mu.Unlock()
		if d != nil && d.tree {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("gen/x/y is not watched")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, m3, _ := w.Since(m2)
	put(t, root, "gen/x/y/deep.go", "package y\n")
	c, m4, _ := w.Since(m3)
	if c.Files["gen/x/y/deep.go"] == 0 || !c.Names || c.All {
		t.Fatalf("a file made in a directory made after the start: %+v", c)
	}

	put(t, root, ".gitignore", "build/\n")
	c, _, _ = w.Since(m4)
	if !c.All || !strings.Contains(c.Why, "ignore rules") {
		t.Fatalf("after the ignore rules changed: %+v", c)
	}
}

// TestWatcherOverflowSaysSo: when the kernel's queue overflows, the tree's
// readers are told to walk everything, each subscriber gets Lost for its
// directories, the user is told once, and the watcher goes on watching.
func TestWatcherOverflowSaysSo(t *testing.T) {
	data, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	if err != nil {
		t.Skip("no inotify limits to read:", err)
	}
	limit, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || limit > 40000 {
		t.Skipf("max_queued_events is %q: too many files to write to overflow it", data)
	}
	root := tempRoot(t)
	var mu sync.Mutex
	var told []string
	w, m := watchTree(t, root, WatchOptions{Notify: func(s string) { mu.Lock(); told = append(told, s); mu.Unlock() }})
	lost := make(chan Event, 10)
	s := w.Subscribe(func(e Event) {
		if e.Op&Lost != 0 {
			lost <- e
		}
	})
	defer s.Close()
	if err := s.Add(root); err != nil {
		t.Fatal(err)
	}
	// Holding the lock keeps the watcher from reading while the queue
	// fills: writes to two files in turn, an event each.
	var files [2]*os.File
	for i := range files {
		if files[i], err = os.Create(filepath.Join(root, fmt.Sprintf("f%d", i))); err != nil {
			t.Fatal(err)
		}
		defer files[i].Close()
	}
	w.mu.Lock()
	for i := range limit + 100 {
		if _, err := files[i%2].Write([]byte{byte(i)}); err != nil {
			w.mu.Unlock()
			t.Fatal(err)
		}
	}
	w.mu.Unlock()
	c, m, err := w.Since(m)
	if err != nil || !c.All || !strings.Contains(c.Why, "lost") {
		t.Fatalf("after an overflow: %+v, %v", c, err)
	}
	select {
	case e := <-lost:
		if e.Path != root {
			t.Fatalf("Lost for %s, want %s", e.Path, root)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the subscriber was not told its events were lost")
	}
	// The watcher walks the tree again and goes on: a file written once
	// it is done is journaled on its own.
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; ; i++ {
		name := fmt.Sprintf("after%d.txt", i)
		put(t, root, name, "x")
		c, next, err := w.Since(m)
		if err != nil {
			t.Fatal(err)
		}
		if !c.All && c.Files[name] != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the watcher does not journal after the overflow: %+v", c)
		}
		m = next
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 || !strings.Contains(told[0], "max_queued_events") {
		t.Fatalf("told %q", told)
	}
}

// TestWatcherGivesTheTreeUpAndSaysWhy: a tree of more directories than the
// watcher may watch (as when the user's watch limit is reached) is not
// watched: Since says why, so its readers walk, the user is told once, and
// the subscribers' directories are still watched.
func TestWatcherGivesTheTreeUpAndSaysWhy(t *testing.T) {
	root := tempRoot(t)
	for i := range 5 {
		put(t, root, fmt.Sprintf("d%d/f.txt", i), "x")
	}
	var told []string
	w := NewWatcher(root, WatchOptions{MaxTreeDirs: 3, Notify: func(s string) { told = append(told, s) }})
	defer w.Close()
	if w.Err() != nil {
		t.Skip("no file watches here:", w.Err())
	}
	before := inotifyWatches(t)
	if _, _, err := w.WatchTree(context.Background(), 2, nil); err == nil || !strings.Contains(err.Error(), "more than 3 directories") {
		t.Fatalf("WatchTree on too big a tree: %v", err)
	}
	if _, _, err := w.Since(0); err == nil || !strings.Contains(err.Error(), "walk it instead") {
		t.Fatalf("Since on a tree not watched: %v", err)
	}
	if _, _, err := w.WatchTree(context.Background(), 2, nil); err == nil {
		t.Fatal("a second WatchTree watches after all")
	}
	if len(told) != 1 {
		t.Fatalf("told %q", told)
	}
	if n := inotifyWatches(t); before >= 0 && n != before {
		t.Fatalf("%d watches left of the tree given up (%d before)", n, before)
	}
	s, ch := events(w)
	defer s.Close()
	if err := s.Add(filepath.Join(root, "d1")); err != nil {
		t.Fatal(err)
	}
	put(t, root, "d1/g.txt", "y")
	waitFor(t, ch, filepath.Join(root, "d1", "g.txt"), Created)
}

// inotifyWatches counts the watches of this process's inotify instances
// (-1 when /proc does not say).
func inotifyWatches(t *testing.T) int {
	fds, err := os.ReadDir("/proc/self/fdinfo")
	if err != nil {
		return -1
	}
	n := 0
	for _, fd := range fds {
		data, err := os.ReadFile(filepath.Join("/proc/self/fdinfo", fd.Name()))
		if err == nil {
			n += strings.Count(string(data), "inotify wd:")
		}
	}
	return n
}

// TestIndexReadsTheWatchersJournal: with the tree watched, the index walks
// again as soon as a name comes or goes (long before IndexFresh), and not
// while nothing does: no walk, no stat of the tree.
func TestIndexReadsTheWatchersJournal(t *testing.T) {
	root := tempRoot(t)
	put(t, root, ".gitignore", "*.log\n")
	put(t, root, "main.go", "package main\n")
	w, _ := watchTree(t, root, WatchOptions{})
	x := NewIndex(root, w)
	x.freshFor = time.Hour // the stamps alone would not look again for an hour
	walks := 0
	refresh := func() []string {
		w.pump() // what the watcher's goroutine reads as it comes
		x.Refresh(context.Background(), func(f func()) { f() }, func() {
			if _, done := x.Paths(); done {
				walks++
			}
		})
		p, _ := x.Paths()
		return p
	}
	if p := refresh(); walks != 1 || !slices.Contains(p, "main.go") {
		t.Fatalf("the first refresh: %d walks, %v", walks, p)
	}
	put(t, root, "main.go", "package main // edited\n")
	put(t, root, "debug.log", "ignored\n")
	for range 3 {
		refresh()
	}
	if walks != 1 {
		t.Fatalf("a write and an ignored file made the index walk again (%d walks)", walks)
	}
	put(t, root, "ui/view.go", "package ui\n")
	if p := refresh(); walks != 2 || !slices.Contains(p, "ui/view.go") {
		t.Fatalf("after a file was made: %d walks, %v", walks, p)
	}
	if refresh(); walks != 2 {
		t.Fatalf("nothing changed since, and the index walked again (%d walks)", walks)
	}
	if err := os.Remove(filepath.Join(root, "ui", "view.go")); err != nil {
		t.Fatal(err)
	}
	if p := refresh(); walks != 3 || slices.Contains(p, "ui/view.go") {
		t.Fatalf("after a file was removed: %d walks, %v", walks, p)
	}
}

// TestWatcherAtTheWatchLimit: at the user's inotify watch limit (lowered
// to 5 in a user namespace of its own, where the test is root), the tree
// is not watched and the user is told once why and how to raise it, the
// tree's readers walk (Since says so), and the watches taken are given
// back, so a pane's directory is still watched.
func TestWatcherAtTheWatchLimit(t *testing.T) {
	if os.Getenv("FAWN_TEST_WATCH_LIMIT") == "" {
		unshare, err := exec.LookPath("unshare")
		if err != nil {
			t.Skip("no unshare(1) to make a user namespace with a low watch limit")
		}
		cmd := exec.Command(unshare, "-Ur", os.Args[0], "-test.run=^TestWatcherAtTheWatchLimit$", "-test.v")
		cmd.Env = append(os.Environ(), "FAWN_TEST_WATCH_LIMIT=5")
		out, err := cmd.CombinedOutput()
		if err != nil && strings.Contains(string(out), "unshare") && !strings.Contains(string(out), "--- FAIL") {
			t.Skipf("no user namespace here: %v\n%s", err, out)
		}
		if err != nil || !strings.Contains(string(out), "--- PASS: TestWatcherAtTheWatchLimit") {
			t.Fatalf("in a user namespace with 5 watches: %v\n%s", err, out)
		}
		return
	}
	if err := os.WriteFile("/proc/sys/user/max_inotify_watches", []byte(os.Getenv("FAWN_TEST_WATCH_LIMIT")), 0o644); err != nil {
		t.Skip("the watch limit cannot be lowered here:", err)
	}
	root := tempRoot(t)
	for i := range 10 {
		put(t, root, fmt.Sprintf("d%d/f.txt", i), "x")
	}
	var told []string
	w := NewWatcher(root, WatchOptions{Notify: func(s string) { told = append(told, s) }})
	defer w.Close()
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	_, _, err := w.WatchTree(context.Background(), 2, nil)
	if err == nil || !strings.Contains(err.Error(), "max_user_watches") {
		t.Fatalf("WatchTree at the watch limit: %v", err)
	}
	if _, _, err := w.Since(0); err == nil || !strings.Contains(err.Error(), "walk it instead") {
		t.Fatalf("Since on a tree not watched: %v", err)
	}
	if len(told) != 1 || !strings.Contains(told[0], "sysctl fs.inotify.max_user_watches") {
		t.Fatalf("told %q", told)
	}
	s, ch := events(w)
	defer s.Close()
	if err := s.Add(filepath.Join(root, "d3")); err != nil {
		t.Fatal(err)
	}
	put(t, root, "d3/g.txt", "y")
	waitFor(t, ch, filepath.Join(root, "d3", "g.txt"), Created)
}
