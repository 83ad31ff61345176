package explorer

import (
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fawn-ide/fawn/project"
)

// dirWatcher watches the directories shown, through the project's shared
// watcher. An event in one lists it again after things settle; a write
// marks the file changed.
type dirWatcher struct {
	sub     *project.Sub
	own     *project.Watcher // made here when none was given; closed with us
	relist  func(dir string)
	written func(path string)

	mu     sync.Mutex
	timers map[string]*time.Timer
	closed bool
	wg     sync.WaitGroup
}

// settle is how long a directory must be quiet before it is listed again.
const settle = 80 * time.Millisecond

// newDirWatcher subscribes to pw, or to a watcher of its own when pw is nil.
func newDirWatcher(pw *project.Watcher, relist func(string), written func(string)) *dirWatcher {
	w := &dirWatcher{relist: relist, written: written, timers: map[string]*time.Timer{}}
	if pw == nil {
		pw = project.NewWatcher("", project.WatchOptions{})
		w.own = pw
	}
	w.sub = pw.Subscribe(w.event)
	return w
}

func (w *dirWatcher) event(ev project.Event) {
	if ev.Op&project.Lost != 0 {
		w.soon(ev.Path) // its events were lost: list it again
		return
	}
	if ev.Op&(project.Written|project.Created) != 0 {
		w.written(ev.Path)
	}
	if ev.Op&(project.Created|project.Removed|project.Renamed) != 0 {
		w.soon(filepath.Dir(ev.Path))
	}
}

// soon lists dir once it has been quiet for settle.
func (w *dirWatcher) soon(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || !w.sub.Watches(dir) {
		return
	}
	if t := w.timers[dir]; t != nil {
		t.Reset(settle)
		return
	}
	w.wg.Add(1)
	w.timers[dir] = time.AfterFunc(settle, func() {
		defer w.wg.Done()
		w.mu.Lock()
		delete(w.timers, dir)
		closed := w.closed
		w.mu.Unlock()
		if !closed {
			w.relist(dir)
		}
	})
}

// add watches dir, once however often it is listed (no live updates when
// the system gives no watches; Ctrl-R still reads the disk).
func (w *dirWatcher) add(dir string) {
	if w.sub.Watches(dir) {
		return
	}
	_ = w.sub.Add(dir)
}

// removeTree stops watching dir and everything below it.
func (w *dirWatcher) removeTree(dir string) {
	for _, d := range w.sub.Watching() {
		if d == dir || strings.HasPrefix(d, dir+string(filepath.Separator)) {
			w.sub.Remove(d)
		}
	}
}

func (w *dirWatcher) close() {
	w.sub.Close()
	w.mu.Lock()
	w.closed = true
	for d, t := range w.timers {
		if t.Stop() {
			w.wg.Done()
		}
		delete(w.timers, d)
	}
	w.mu.Unlock()
	w.wg.Wait()
	if w.own != nil {
		w.own.Close()
	}
}
