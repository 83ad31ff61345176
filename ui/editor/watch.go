package editor

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long a file must stay quiet before it is read again: an
// editor's save is often several events (truncate, write, rename), and
// reading in the middle would show half a file.
const settle = 50 * time.Millisecond

// watcher tells when open files change on disk. It watches their
// directories, not the files, so a file replaced by a rename (an atomic
// save, ours included) is still seen. It costs nothing while nothing
// changes: there is no polling.
type watcher struct {
	fw      *fsnotify.Watcher
	changed func(path string) // called on the watcher's goroutines

	mu     sync.Mutex
	dirs   map[string]int  // watched directory → open files in it
	files  map[string]bool // open files
	timers map[string]*pendingRead
	closed bool
	wg     sync.WaitGroup
}

func newWatcher(changed func(path string)) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher{fw: fw, changed: changed, dirs: map[string]int{}, files: map[string]bool{}, timers: map[string]*pendingRead{}}
	w.wg.Add(1)
	go w.loop()
	return w, nil
}

func (w *watcher) loop() {
	defer w.wg.Done()
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.event(filepath.Clean(ev.Name))
		case _, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			// An overflow loses events; files are compared by content when
			// the next event comes, so nothing is lost for good.
		}
	}
}

func (w *watcher) event(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || !w.files[path] {
		return
	}
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
	dir := filepath.Dir(path)
	if w.dirs[dir] == 0 {
		if err := w.fw.Add(dir); err != nil {
			return err
		}
	}
	w.dirs[dir]++
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
	dir := filepath.Dir(path)
	w.dirs[dir]--
	if w.dirs[dir] <= 0 {
		delete(w.dirs, dir)
		_ = w.fw.Remove(dir)
	}
}

// close stops the watcher and waits for its goroutines.
func (w *watcher) close() {
	w.mu.Lock()
	w.closed = true
	for p, pr := range w.timers {
		if pr.t.Stop() {
			w.wg.Done() // the timer's func will not run
		}
		delete(w.timers, p)
	}
	w.mu.Unlock()
	w.fw.Close()
	w.wg.Wait()
}
