package project

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// events collects a subscriber's events on a channel.
func events(w *Watcher) (*Sub, chan Event) {
	ch := make(chan Event, 100)
	return w.Subscribe(func(e Event) { ch <- e }), ch
}

// waitFor waits (generously) for an event on path.
func waitFor(t *testing.T, ch chan Event, path string, op Op) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e := <-ch:
			if e.Path == path && e.Op&op != 0 {
				return
			}
		case <-deadline:
			t.Fatalf("no event %v on %s", op, path)
		}
	}
}

func TestWatcherSharesOneWatchBetweenSubscribers(t *testing.T) {
	w := NewWatcher("", WatchOptions{})
	defer w.Close()
	if w.Err() != nil {
		t.Skip("no file watches here:", w.Err())
	}
	dir := t.TempDir()
	a, aEv := events(w)
	b, bEv := events(w)
	for _, s := range []*Sub{a, b} {
		if err := s.Add(dir); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(w.dirs); got != 1 {
		t.Fatalf("%d directories watched, want the one both asked for", got)
	}
	f := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, aEv, f, Created|Written)
	waitFor(t, bEv, f, Created|Written)

	// One leaving keeps the other's watch.
	a.Remove(dir)
	if !b.Watches(dir) || a.Watches(dir) {
		t.Fatalf("after a left: a watches %v, b watches %v", a.Watches(dir), b.Watches(dir))
	}
	g := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(g, []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, bEv, g, Created|Written)
	select {
	case e := <-aEv:
		if e.Path == g {
			t.Fatalf("a got %v after it stopped watching", e)
		}
	default:
	}

	// Closed, a subscriber's function is not called again, and the last
	// one out drops the directory's watch.
	b.Close()
	if len(w.dirs) != 0 {
		t.Fatalf("directories still watched after every subscriber left: %v", w.dirs)
	}
	if err := os.WriteFile(filepath.Join(dir, "h.txt"), []byte("z"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Another subscriber's event proves the watcher has seen h.txt by now.
	c, cEv := events(w)
	defer c.Close()
	if err := c.Add(dir); err != nil {
		t.Fatal(err)
	}
	i := filepath.Join(dir, "i.txt")
	if err := os.WriteFile(i, []byte("z"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, cEv, i, Created|Written)
	for len(bEv) > 0 {
		if e := <-bEv; e.Path != g {
			t.Fatalf("b got %v after Close", e)
		}
	}
}
