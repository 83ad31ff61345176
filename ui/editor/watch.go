package editor

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/fawn-ide/fawn/project"
)

// settle is how long a file must stay quiet before it is read again: an
// editor's save is often several events (truncate, write, rename), and
// reading in the middle would show half a file.
const settle = 50 * time.Millisecond

// watcher tells when open files change on disk, through the project's
// shared watcher. It watches their directories, not the files, so a file
// replaced by a rename (an atomic save, ours included) is still seen.
type watcher struct {
	sub     *project.Sub
	own     *project.Watcher  // made here when none was given; closed with us
	changed func(path string) // called on the watcher's goroutines

	mu     sync.Mutex
	files  map[string]bool // open files
	timers map[string]*pendingRead
	closed bool
	wg     sync.WaitGroup
}

// newWatcher subscribes to pw, or to a watcher of its own when pw is nil.
func newWatcher(pw *project.Watcher, changed func(path string)) (*watcher, error) {
	w := &watcher{changed: changed, files: map[string]bool{}, timers: map[string]*pendingRead{}}
	if pw == nil {
		pw = project.NewWatcher("", project.WatchOptions{})
		w.own = pw
	}
	if err := pw.Err(); err != nil {
		if w.own != nil {
			w.own.Close()
		}
		return nil, err
	}
	w.sub = pw.Subscribe(w.event)
	return w, nil
}

func (w *watcher) event(ev project.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if ev.Op&project.Lost != 0 {
		// The directory's events were lost: read its open files again
		// (a file that did not change reads as it is shown).
		for f := range w.files {
			if filepath.Dir(f) == ev.Path {
				w.soonLocked(f)
			}
		}
		return
	}
	if w.files[ev.Path] {
		w.soonLocked(ev.Path)
	}
}

// soonLocked reads path once it has been quiet for settle.
func (w *watcher) soonLocked(path string) {
	if p := w.timers[path]; p != nil && p.t.Stop() {
		p.t.Reset(settle)
		return
	}
	p := &pendingRead{}
	w.wg.Add(1)
	p.t = time.AfterFunc(settle, func() {
		defer w.wg.Done()
		w.mu.Lock()
		if w.timers[path] == p {
			delete(w.timers, path)
		}
		closed := w.closed
		w.mu.Unlock()
		if !closed {
			w.changed(path)
		}
	})
	w.timers[path] = p
}

// pendingRead is a read of a changed file waiting for it to settle.
type pendingRead struct{ t *time.Timer }

// add starts watching path.
func (w *watcher) add(path string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.files[path] || w.closed {
		return nil
	}
	if err := w.sub.Add(filepath.Dir(path)); err != nil {
		return err
	}
	w.files[path] = true
	return nil
}

// remove stops watching path.
func (w *watcher) remove(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.files[path] {
		return
	}
	delete(w.files, path)
	w.sub.Remove(filepath.Dir(path))
}

// close stops the watcher and waits for its goroutines.
func (w *watcher) close() {
	w.sub.Close()
	w.mu.Lock()
	w.closed = true
	for p, pr := range w.timers {
		if pr.t.Stop() {
			w.wg.Done() // the timer's func will not run
		}
		delete(w.timers, p)
	}
	w.mu.Unlock()
	w.wg.Wait()
	if w.own != nil {
		w.own.Close()
	}
}
