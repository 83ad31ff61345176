package project

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Index is the list of a project's paths that @-mention completion (and
// anything else that wants every path at hand) reads: walked in the
// background with WalkFiles' rules, its results available while the walk
// goes on, and walked again only when something may have changed it.
//
// A list of names changes only when a directory's entries do, and that
// moves the directory's mtime; the kept set changes when an ignore file
// does. So the index keeps the modification time of every directory it
// listed and of every ignore file, and a Refresh after IndexFresh stats
// those (a stat a directory, spread over the cores: tens of milliseconds
// on a 200,000-file tree, where the walk takes most of a second) and walks
// again only when one moved. Nothing runs between Refreshes.
//
// When the project's Watcher watches the tree (it does once the checkpoint
// book has started it), a Refresh asks the watcher's journal instead, at
// once and without a stat: it walks again as soon as a name came or went,
// and not before.
type Index struct {
	root  string
	watch *Watcher // nil: the stamps alone say when to walk again
	mu    sync.Mutex
	// paths are relative, with "/" after directories; done is set when the
	// walk finished.
	paths   []string
	done    bool
	started bool
	when    time.Time // the last walk's or check's start
	// stamps are the mtimes (ns) of the root, the directories listed and
	// the ignore files, by absolute path, from the last finished walk;
	// nil while a walk runs or when it was cut at MaxIndexed.
	stamps map[string]int64
	// freshFor is IndexFresh; tests shorten it.
	freshFor time.Duration
	// mark is the watcher's journal mark the list is true at, when
	// marked (the tree was watched from before the list was made).
	mark   Mark
	marked bool
}

// MaxIndexed bounds the walk on a huge tree; IndexFresh is how long a
// listing is used before a Refresh checks whether to list again.
const (
	MaxIndexed = 200_000
	IndexFresh = 5 * time.Second
)

// NewIndex is the index of the project at root, reading w's journal when
// w watches the tree (w may be nil); nothing is walked before the first
// Refresh.
func NewIndex(root string, w *Watcher) *Index {
	return &Index{root: root, watch: w, freshFor: IndexFresh}
}

// treeMark is the watcher's present mark, when it watches the tree.
func (x *Index) treeMark() (Mark, bool) {
	if x.watch == nil || x.watch.TreeDirs() == 0 {
		return 0, false
	}
	return x.watch.Mark(), true
}

// Refresh walks the project again unless a walk runs, the last one is
// fresh, or nothing it listed has changed since. The check and the walk
// run in spawn (a goroutine the caller owns, which may recover its panics)
// until ctx is done, and the walk calls changed from there as results
// arrive.
func (x *Index) Refresh(ctx context.Context, spawn func(func()), changed func()) {
	x.mu.Lock()
	if x.root == "" || (x.started && !x.done) {
		x.mu.Unlock()
		return
	}
	if x.marked {
		// The watcher's journal says whether a name came or went.
		m := x.mark
		x.mu.Unlock()
		names, now, err := x.watch.NamesSince(m)
		x.mu.Lock()
		switch {
		case !x.marked || x.mark != m:
			x.mu.Unlock() // another Refresh answered meanwhile
			return
		case err != nil:
			x.marked = false // the tree is not watched any more: the stamps say
		case !names:
			x.mark = now
			x.mu.Unlock()
			return
		default:
			x.marked, x.done, x.when = false, false, time.Now()
			x.mu.Unlock()
			spawn(func() { x.walk(ctx, changed) })
			return
		}
	}
	// A finished list is checked again after a while: files come and go.
	if x.started && !(x.done && time.Since(x.when) > x.freshFor) {
		x.mu.Unlock()
		return
	}
	first := !x.started
	stamps := x.stamps
	x.started, x.when = true, time.Now()
	x.mu.Unlock()
	spawn(func() {
		if !first && stamps != nil {
			m, ok := x.treeMark()
			if !anyMoved(ctx, stamps) {
				// The list is what the walk would give; from here on the
				// watcher's journal says when it is not.
				x.mu.Lock()
				x.mark, x.marked = m, ok
				x.mu.Unlock()
				return
			}
		}
		x.walk(ctx, changed)
	})
}

// walk lists the project, handing out what it has as it goes.
func (x *Index) walk(ctx context.Context, changed func()) {
	mark, marked := x.treeMark()
	fresh := true
	var batch []string
	stamps := map[string]int64{}
	// A change in the same tick of the kernel's coarse clock as the walk
	// may leave an mtime where it was: a stamp that recent is not trusted,
	// and the next check walks again.
	recent := time.Now().Add(-time.Second).UnixNano()
	stamp := func(p string, fi fs.FileInfo) {
		if t := fi.ModTime().UnixNano(); t < recent {
			stamps[p] = t
		} else {
			stamps[p] = -1
		}
	}
	if fi, err := os.Lstat(x.root); err == nil {
		stamp(x.root, fi)
	}
	exclude := filepath.Join(x.root, ".git", "info", "exclude")
	if fi, err := os.Lstat(exclude); err == nil {
		stamp(exclude, fi)
	} else {
		stamps[exclude] = 0 // none: it still has none while absent
	}
	flush := func(done bool) {
		Pack(batch)
		x.mu.Lock()
		if fresh {
			x.paths, fresh = nil, false
		}
		x.paths = append(x.paths, batch...)
		x.done = done
		if done {
			x.stamps = stamps
			x.mark, x.marked = mark, marked && stamps != nil
		}
		x.mu.Unlock()
		batch = nil
		changed()
	}
	n := 0
	_ = WalkFiles(ctx, x.root, "", func(rel string, d fs.DirEntry) error {
		if n++; n > MaxIndexed {
			stamps = nil // cut short: the stamps do not cover the tree
			return context.Canceled
		}
		if d.IsDir() || IsIgnoreFile(d.Name()) {
			if fi, err := d.Info(); err == nil {
				stamp(filepath.Join(x.root, rel), fi)
			}
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		batch = append(batch, rel)
		// The first few hundred go out at once: a keystroke waits for them.
		if len(batch) >= 5000 || (fresh && len(batch) >= 500) {
			flush(false)
		}
		return nil
	})
	if ctx.Err() != nil {
		stamps = nil
	}
	flush(true)
}

// anyMoved reports whether a directory or ignore file of stamps was
// changed, created or removed since (a new ignore file moves its
// directory), or is one whose stamp was too recent to trust, statting
// them over the cores.
func anyMoved(ctx context.Context, stamps map[string]int64) bool {
	paths := make(chan string, 256)
	var moved sync.Once
	var wg sync.WaitGroup
	found := false
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range paths {
				fi, err := os.Lstat(p)
				if err != nil && stamps[p] == 0 {
					continue // absent, as it was
				}
				if err != nil || fi.ModTime().UnixNano() != stamps[p] {
					moved.Do(func() { found = true })
				}
			}
		}()
	}
	for p := range stamps {
		if ctx.Err() != nil {
			break
		}
		paths <- p
	}
	close(paths)
	wg.Wait()
	return found || ctx.Err() != nil
}

// Paths are the paths listed so far (the caller must not change them) and
// whether the walk that lists them is done.
func (x *Index) Paths() (paths []string, done bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.paths, x.done
}

// Pack moves the strings of list into one block of memory, in their
// order, each still its own string. A fuzzy match reads every path of a
// list at each key: 200,000 paths each allocated on its own are 200,000
// cache misses (most of a key's time, measured), where paths side by side
// are read as the processor prefetches them.
func Pack(list []string) {
	n := 0
	for _, s := range list {
		n += len(s)
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range list {
		b.WriteString(s)
	}
	all := b.String()
	for i, s := range list {
		list[i], all = all[:len(s)], all[len(s):]
	}
}
