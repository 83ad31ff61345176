package project

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Op is what happened to a path.
type Op uint8

const (
	Created Op = 1 << iota
	Written
	Removed
	Renamed // moved away; the new name arrives as Created
	Chmoded
	// Lost: events of the directory Path were lost (the kernel's queue
	// overflowed); whoever shows it reads it again.
	Lost
)

// Event is one thing that happened to Path, a direct child of a watched
// directory (or the directory itself).
type Event struct {
	Path string
	Op   Op
}

// WatchOptions tune a Watcher.
type WatchOptions struct {
	// Notify, when set, is told once of each way watching falls short (no
	// inotify instance, the watch limit, a tree too big, events lost), in a
	// sentence that says what fawn does instead and how to lift the limit.
	// It is called on any goroutine and must not block.
	Notify func(text string)
	// MaxTreeDirs bounds the directories WatchTree watches (0:
	// DefaultMaxTreeDirs); past it the tree is not watched and its
	// consumers walk.
	MaxTreeDirs int
	// MaxJournal bounds the paths the journal remembers between two reads
	// (0: DefaultMaxJournal); past it a reader is told to walk everything.
	MaxJournal int
}

// Defaults of WatchOptions. A watch costs the kernel about a kilobyte.
const (
	DefaultMaxTreeDirs = 20000
	DefaultMaxJournal  = 50000
)

// Mark is a point in a Watcher's journal: Since(m) is what changed after it.
type Mark uint64

// Changes is what happened below a watched tree since a Mark, each path
// relative to the root and slash-separated, only paths the project's
// ignore rules keep.
type Changes struct {
	// Files are the files (and other non-directories) that were created,
	// written, removed, renamed or chmoded, each with what happened to it
	// last.
	Files map[string]Op
	// Dirs are the directories created, removed or moved in or out: what
	// is below them is to be walked again.
	Dirs map[string]Op
	// All says everything is to be walked again (events were lost, the
	// ignore rules changed, the journal overflowed); Why says which.
	All bool
	Why string
	// Names: a name came or went (a file or directory created, removed
	// or renamed; everything changed): a list of the project's paths is
	// out of date. Writes and chmods leave it false.
	Names bool
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool { return !c.All && len(c.Files) == 0 && len(c.Dirs) == 0 }

// Watcher is fawn's one watcher of a project root: one inotify instance
// (on Linux; fsnotify elsewhere) that every consumer of the root shares,
// each through its own subscription, so that however many panes and books
// look at the project, the kernel has one queue for it.
//
// It serves two kinds of consumer:
//
//   - Subscribers (Subscribe) get live events of the directories they
//     Add: the explorer its expanded folders, the editor the directories
//     of its open files (not the files, so a file replaced by a rename, an
//     atomic save included, is still seen). A directory watched by several
//     is watched once. Events come unsettled: an editor's save is often
//     several (truncate, write, rename), so a subscriber that reads the
//     file waits for quiet itself, as long as it needs.
//   - Readers of the whole tree (WatchTree, Since): the checkpoint book
//     and the file index ask "what changed since mark M". WatchTree
//     watches every directory the project's walk keeps (new directories
//     are watched as they appear); the events go into a journal of paths,
//     and Since reads the kernel's queue to the end before it answers, so
//     a change made before the call is in its answer.
//
// It costs nothing while nothing changes: there is no polling; its one
// goroutine sleeps in the runtime's poller.
//
// When watching falls short, consumers fall back to walking, and the
// Watcher says so once through WatchOptions.Notify: no inotify instance
// to be had (Err), the user's watch limit reached or a tree of more than
// MaxTreeDirs directories (Since returns an error: walk every time), the
// kernel's queue overflowed (Since says All, subscribers get Lost for each
// of their directories: read again once).
type Watcher struct {
	root string // absolute, clean; "" watches no tree
	o    WatchOptions
	err  error // why nothing is reported (no instance)

	sys sys // the platform's part (watch_linux.go, watch_other.go)

	mu      sync.Mutex
	dirs    map[string]map[*Sub]int // subscribed directory → who, how many times
	closed  bool
	told    map[string]bool
	j       journal
	tree    treeState
	pending []delivery // subscribers' events waiting to be delivered
	deliver sync.Mutex // held while pending is delivered, so events keep their order
}

// treeState is whether the whole tree is watched, and why not.
type treeState struct {
	on      bool
	err     error // why the tree is not watched: Since returns it
	ign     *Ignorer
	count   int // directories watched for the tree
	walking sync.Mutex
	started bool
}

// journal remembers, for each path the tree's events named, the last
// sequence number that named it.
type journal struct {
	seq    uint64
	paths  map[string]jentry
	allSeq uint64 // everything changed at this sequence number
	allWhy string
	// namesSeq is the last sequence number at which a name came or went.
	namesSeq uint64
}

type jentry struct {
	seq uint64
	op  Op
	dir bool
}

type delivery struct {
	s *Sub
	e Event
}

// NewWatcher starts the watcher of the project at root (absolute,
// symlinks resolved; "" for a watcher of subscribed directories only).
// When the system gives no watcher (the inotify instance limit), it still
// works but reports nothing; Err says why.
func NewWatcher(root string, o WatchOptions) *Watcher {
	if o.MaxTreeDirs <= 0 {
		o.MaxTreeDirs = DefaultMaxTreeDirs
	}
	if o.MaxJournal <= 0 {
		o.MaxJournal = DefaultMaxJournal
	}
	if root != "" {
		root = filepath.Clean(root)
	}
	w := &Watcher{root: root, o: o, dirs: map[string]map[*Sub]int{}, told: map[string]bool{},
		j: journal{paths: map[string]jentry{}}}
	if err := w.start(); err != nil {
		w.err = fmt.Errorf("no file watcher: %w; changes on disk show only when fawn reads again", err)
		w.tree.err = w.err
		w.tell(w.err.Error())
	}
	return w
}

// Root is the project directory the watcher is for.
func (w *Watcher) Root() string { return w.root }

// Err says why the watcher reports nothing; nil when it works.
func (w *Watcher) Err() error { return w.err }

// tell passes text to Notify, once.
func (w *Watcher) tell(text string) {
	w.mu.Lock()
	seen := w.told[text]
	w.told[text] = true
	w.mu.Unlock()
	if !seen && w.o.Notify != nil {
		w.o.Notify(text)
	}
}

// Close stops the watcher; subscriptions get no more events, Since
// returns an error.
func (w *Watcher) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	w.dirs = map[string]map[*Sub]int{}
	w.tree.on = false
	w.tree.err = errors.New("the watcher is closed")
	w.mu.Unlock()
	w.stop()
}

// WatchTree watches every directory below the root that the project's
// walk keeps, once: the first call walks the tree (over workers
// goroutines), watching each directory before it reads it, and calls
// visit, concurrently, for every entry it keeps (walked is then true);
// later calls return at once. The Mark is from before the walk, so
// whatever changes while it goes on is in Since(mark). An error says why
// the tree is not watched (then every consumer walks).
func (w *Watcher) WatchTree(ctx context.Context, workers int, visit func(rel string, d fs.DirEntry)) (m Mark, walked bool, err error) {
	w.tree.walking.Lock()
	defer w.tree.walking.Unlock()
	w.mu.Lock()
	started, on, terr := w.tree.started, w.tree.on, w.tree.err
	m = Mark(w.j.seq)
	w.mu.Unlock()
	switch {
	case w.root == "":
		return m, false, errors.New("the watcher has no project root")
	case started && on:
		return m, false, nil
	case started || terr != nil:
		return m, false, terr
	}
	w.mu.Lock()
	w.tree.started = true
	w.tree.ign = NewIgnorer(w.root)
	w.mu.Unlock()
	if err := w.walkTree(ctx, "", workers, visit); err != nil {
		w.giveUp(err)
		w.mu.Lock()
		defer w.mu.Unlock()
		return m, false, w.tree.err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tree.err != nil {
		return m, false, w.tree.err
	}
	w.tree.on = true
	return m, true, nil
}

// TreeDirs is how many directories the tree watch holds (0: none).
func (w *Watcher) TreeDirs() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.tree.on {
		return 0
	}
	return w.tree.count
}

// Mark is the journal's present point.
func (w *Watcher) Mark() Mark {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Mark(w.j.seq)
}

// Since reads every event the kernel has queued and returns what changed
// in the tree after m, and the mark to ask from next. It returns an error
// when the tree is not watched (WatchTree was not called, or watching
// gave up): the caller walks.
func (w *Watcher) Since(m Mark) (Changes, Mark, error) {
	w.pump()
	w.mu.Lock()
	defer w.mu.Unlock()
	now := Mark(w.j.seq)
	switch {
	case w.tree.err != nil:
		return Changes{}, now, w.tree.err
	case !w.tree.on:
		return Changes{}, now, errors.New("the tree is not watched")
	case w.j.allSeq > uint64(m):
		return Changes{All: true, Why: w.j.allWhy, Names: true}, now, nil
	}
	c := Changes{Files: map[string]Op{}, Dirs: map[string]Op{}, Names: w.j.namesSeq > uint64(m)}
	for p, e := range w.j.paths {
		if e.seq <= uint64(m) {
			continue
		}
		if e.dir {
			c.Dirs[strings.TrimSuffix(p, "/")] |= e.op
		} else {
			c.Files[p] |= e.op
		}
	}
	return c, now, nil
}

// NamesSince reports whether a name came or went below the root after m
// (Changes.Names), and the mark to ask from next, from what the watcher's
// goroutine has read so far: it neither reads the kernel's queue nor walks,
// so a UI goroutine may call it at every keystroke. It returns an error
// when the tree is not watched.
func (w *Watcher) NamesSince(m Mark) (bool, Mark, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := Mark(w.j.seq)
	switch {
	case w.tree.err != nil:
		return false, now, w.tree.err
	case !w.tree.on:
		return false, now, errors.New("the tree is not watched")
	}
	return w.j.namesSeq > uint64(m), now, nil
}

// noteLocked records that rel (relative, slash-separated) changed.
func (w *Watcher) noteLocked(rel string, op Op, dir bool) {
	w.j.seq++
	if len(w.j.paths) >= w.o.MaxJournal {
		w.j.paths = map[string]jentry{}
		w.allLocked(fmt.Sprintf("more than %d paths changed between two reads", w.o.MaxJournal))
		return
	}
	key := rel
	if dir {
		key += "/" // a file and a directory of one name are two entries
	}
	w.j.paths[key] = jentry{seq: w.j.seq, op: op, dir: dir}
	if dir || op&(Created|Removed|Renamed) != 0 {
		w.j.namesSeq = w.j.seq
	}
}

// allLocked records that everything is to be walked again.
func (w *Watcher) allLocked(why string) {
	w.j.seq++
	w.j.allSeq, w.j.allWhy, w.j.namesSeq = w.j.seq, why, w.j.seq
}

// giveUp stops watching the tree for good, telling why once: its
// consumers walk from now on.
func (w *Watcher) giveUp(err error) {
	w.mu.Lock()
	if w.tree.err != nil || w.closed {
		w.mu.Unlock()
		return
	}
	w.tree.err = fmt.Errorf("fawn does not watch the project's tree: %w; agent commands' checkpoints and the file index walk it instead", err)
	w.tree.on = false
	w.untreeAllLocked()
	msg := w.tree.err.Error()
	w.mu.Unlock()
	w.tell(msg)
}

// Subscribe returns a subscription calling fn for each event in the
// directories it watches, on the watcher's goroutine (or the goroutine of
// a Since that read the event). fn must not block on the UI goroutine's
// work; post it.
func (w *Watcher) Subscribe(fn func(Event)) *Sub {
	return &Sub{w: w, fn: fn, dirs: map[string]int{}}
}

// Dirs lists the directories subscribers watch.
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

// queueLocked queues e for the subscribers of its directory (and of the
// path itself, when it is a watched directory).
func (w *Watcher) queueLocked(e Event) {
	seen := map[*Sub]bool{}
	for _, dir := range [2]string{filepath.Dir(e.Path), e.Path} {
		for s := range w.dirs[dir] {
			if !seen[s] {
				seen[s] = true
				w.pending = append(w.pending, delivery{s, e})
			}
		}
	}
}

// lostLocked tells every subscriber that its directories' events were lost.
func (w *Watcher) lostLocked() {
	for dir, subs := range w.dirs {
		for s := range subs {
			w.pending = append(w.pending, delivery{s, Event{Path: dir, Op: Lost}})
		}
	}
}

// flush delivers the queued events, outside w.mu, in the order queued.
func (w *Watcher) flush() {
	w.deliver.Lock()
	defer w.deliver.Unlock()
	w.mu.Lock()
	p := w.pending
	w.pending = nil
	w.mu.Unlock()
	for _, d := range p {
		d.s.deliver(d.e)
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
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	if len(w.dirs[dir]) == 0 {
		if err := w.addSubLocked(dir); err != nil {
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
	w.unwatchLocked(dir, s, 1)
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
		if !w.closed {
			w.removeSubLocked(dir)
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

// Watchers hands out one Watcher per project root, shared by every
// consumer of that root (a task in a git worktree has its own root, so its
// own Watcher); the last Release of a root closes its Watcher. Safe for
// concurrent use.
type Watchers struct {
	o  WatchOptions
	mu sync.Mutex
	m  map[string]*shared
}

type shared struct {
	w    *Watcher
	refs int
}

// NewWatchers returns a set whose watchers are made with o.
func NewWatchers(o WatchOptions) *Watchers { return &Watchers{o: o, m: map[string]*shared{}} }

// Get returns the Watcher of root, made on first use; release gives it
// back (call it once).
func (ws *Watchers) Get(root string) (w *Watcher, release func()) {
	root = filepath.Clean(root)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	sh := ws.m[root]
	if sh == nil {
		sh = &shared{w: NewWatcher(root, ws.o)}
		ws.m[root] = sh
	}
	sh.refs++
	var once sync.Once
	return sh.w, func() {
		once.Do(func() {
			ws.mu.Lock()
			sh.refs--
			last := sh.refs == 0
			if last {
				delete(ws.m, root)
			}
			ws.mu.Unlock()
			if last {
				sh.w.Close()
			}
		})
	}
}
