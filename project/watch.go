package project

import (
	"path/filepath"
	"sort"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// Op is what happened to a path.
type Op uint8

const (
	Created Op = 1 << iota
	Written
	Removed
	Renamed // moved away; the new name arrives as Created
	Chmoded
)

// Event is one thing that happened to Path, a direct child of a watched
// directory (or the directory itself).
type Event struct {
	Path string
	Op   Op
}

// Watcher tells the panes what happens in the directories they show, from
// one fsnotify instance for all of them: the explorer watches its expanded
// directories, the editor the directories of its open files (not the
// files, so a file replaced by a rename, an atomic save included, is still
// seen). A directory watched by several is watched once. It costs nothing
// while nothing changes: there is no polling.
//
// Events come unsettled: an editor's save is often several (truncate,
// write, rename), so a subscriber that reads the file waits for quiet
// itself, as long as it needs.
//
// The checkpoint book keeps its own inotify instance over the whole tree:
// it reads the kernel's queue only around agent commands and needs no
// goroutine in between, which a pane's live updates do.
type Watcher struct {
	fw   *fsnotify.Watcher // nil when the system gives none: no live updates
	err  error
	done sync.WaitGroup

	mu     sync.Mutex
	dirs   map[string]map[*Sub]int // watched directory → who watches it, how many times
	closed bool
}

// NewWatcher starts a watcher. When the system has no watches to give (the
// inotify limits), it still works but reports nothing; Err says why.
func NewWatcher() *Watcher {
	w := &Watcher{dirs: map[string]map[*Sub]int{}}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		w.err = err
		return w
	}
	w.fw = fw
	w.done.Add(1)
	go w.loop()
	return w
}

// Err says why the watcher reports nothing; nil when it works.
func (w *Watcher) Err() error { return w.err }

func (w *Watcher) loop() {
	defer w.done.Done()
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.dispatch(ev)
		case _, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			// An overflow loses events; subscribers compare what they show
			// with the disk at the next event, so nothing is lost for good.
		}
	}
}

func (w *Watcher) dispatch(ev fsnotify.Event) {
	e := Event{Path: filepath.Clean(ev.Name)}
	for _, m := range [...]struct {
		f  fsnotify.Op
		op Op
	}{{fsnotify.Create, Created}, {fsnotify.Write, Written}, {fsnotify.Remove, Removed}, {fsnotify.Rename, Renamed}, {fsnotify.Chmod, Chmoded}} {
		if ev.Op&m.f != 0 {
			e.Op |= m.op
		}
	}
	w.mu.Lock()
	var subs []*Sub
	for _, dir := range [2]string{filepath.Dir(e.Path), e.Path} {
		for s := range w.dirs[dir] {
			subs = append(subs, s)
		}
	}
	w.mu.Unlock()
	seen := map[*Sub]bool{}
	for _, s := range subs {
		if !seen[s] {
			seen[s] = true
			s.deliver(e)
		}
	}
}

// Subscribe returns a subscription calling fn, on the watcher's goroutine,
// for each event in the directories it watches. fn must not block on the
// UI goroutine's work; post it.
func (w *Watcher) Subscribe(fn func(Event)) *Sub {
	return &Sub{w: w, fn: fn, dirs: map[string]int{}}
}

// Dirs lists the directories watched, by anyone.
func (w *Watcher) Dirs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.dirs))
	for d := range w.dirs {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// Close stops the watcher; subscriptions get no more events.
func (w *Watcher) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	w.dirs = map[string]map[*Sub]int{}
	w.mu.Unlock()
	if w.fw != nil {
		w.fw.Close()
		w.done.Wait()
	}
}

// Sub is one subscriber's view of a Watcher: the directories it watches
// and the function its events go to.
type Sub struct {
	w  *Watcher
	fn func(Event)

	// mu is held while fn runs, so Close returns only once no call is left.
	mu     sync.RWMutex
	closed bool
	dirs   map[string]int // guarded by w.mu
}

func (s *Sub) deliver(e Event) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if !s.closed {
		s.fn(e)
	}
}

// Add watches dir (absolute, clean) for s; each Add wants its Remove.
func (s *Sub) Add(dir string) error {
	w := s.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fw == nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	if len(w.dirs[dir]) == 0 {
		if err := w.fw.Add(dir); err != nil {
			return err
		}
		w.dirs[dir] = map[*Sub]int{}
	}
	w.dirs[dir][s]++
	s.dirs[dir]++
	return nil
}

// Remove undoes one Add of dir.
func (s *Sub) Remove(dir string) {
	w := s.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if s.dirs[dir] == 0 {
		return
	}
	s.dirs[dir]--
	if s.dirs[dir] == 0 {
		delete(s.dirs, dir)
	}
	s.w.unwatchLocked(dir, s, 1)
}

// unwatchLocked drops n of s's watches of dir, and the directory's watch
// when nobody is left.
func (w *Watcher) unwatchLocked(dir string, s *Sub, n int) {
	subs := w.dirs[dir]
	if subs == nil {
		return
	}
	if subs[s] -= n; subs[s] <= 0 {
		delete(subs, s)
	}
	if len(subs) == 0 {
		delete(w.dirs, dir)
		if w.fw != nil && !w.closed {
			_ = w.fw.Remove(dir)
		}
	}
}

// Watches reports whether s watches dir.
func (s *Sub) Watches(dir string) bool {
	s.w.mu.Lock()
	defer s.w.mu.Unlock()
	return s.dirs[dir] > 0
}

// Watching lists the directories s watches.
func (s *Sub) Watching() []string {
	s.w.mu.Lock()
	defer s.w.mu.Unlock()
	out := make([]string, 0, len(s.dirs))
	for d := range s.dirs {
		out = append(out, d)
	}
	return out
}

// Close drops all of s's watches. Once it returns, fn is not running and
// is not called again.
func (s *Sub) Close() {
	w := s.w
	w.mu.Lock()
	for dir, n := range s.dirs {
		w.unwatchLocked(dir, s, n)
	}
	s.dirs = map[string]int{}
	w.mu.Unlock()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}
