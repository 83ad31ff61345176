package project

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// WalkOptions tunes Walk and WalkParallel for the callers that need more
// than WalkFiles.
type WalkOptions struct {
	// WithIgnored reports ignored entries too (marked), without entering
	// ignored directories.
	WithIgnored bool
	// MaxDepth stops descending below this depth (1 = only dir's entries);
	// 0 = no limit.
	MaxDepth int
	// Hide leaves out (and does not enter) the entries it is true for,
	// given each entry's path relative to the root, its absolute path and
	// the entry itself (a symlink may be hidden for where it points): the
	// tools pass the user's rules that forbid reading. nil hides nothing.
	Hide func(rel, abs string, d fs.DirEntry) bool
}

// Entry is one entry reported by Walk and WalkParallel.
type Entry struct {
	Abs     string
	Rel     string // relative to the project root
	D       fs.DirEntry
	Depth   int // 1 for dir's own entries
	Ignored bool
}

// WalkFiles walks dir (absolute, or relative to root; "" is root) and calls
// fn for every file and directory below it that the project's ignore rules
// keep: .gitignore files at every level with their negations, .ignore files,
// and .git/info/exclude, as git and ripgrep honour them; .git itself is never
// entered. root must be the absolute, symlink-free project root.
//
// Entries come in lexical order, each directory before its contents; rel is
// the entry's path relative to root. Symlinks are reported, never followed.
// As with filepath.WalkDir, fn may return fs.SkipDir (for a directory: do not
// enter it; for a file: skip the rest of its directory) or fs.SkipAll.
// Unreadable subdirectories are skipped; an unreadable dir is an error.
func WalkFiles(ctx context.Context, root, dir string, fn func(rel string, d fs.DirEntry) error) error {
	return Walk(ctx, root, dir, WalkOptions{}, func(e Entry) error {
		return fn(e.Rel, e.D)
	})
}

// WalkFilesParallel is WalkFiles spread over workers goroutines: the same
// entries, in no particular order, fn called concurrently. For callers that
// stat every file (the checkpoint scan).
func WalkFilesParallel(ctx context.Context, root string, workers int, fn func(rel string, d fs.DirEntry) error) error {
	return WalkParallel(ctx, root, "", WalkOptions{}, workers, func(e Entry) error {
		return fn(e.Rel, e.D)
	})
}

// WalkFilesUnder is WalkFilesParallel below dir (absolute, or relative to
// root), which must be a directory inside root that the rules keep.
func WalkFilesUnder(ctx context.Context, root, dir string, workers int, fn func(rel string, d fs.DirEntry) error) error {
	return WalkParallel(ctx, root, dir, WalkOptions{}, workers, func(e Entry) error {
		return fn(e.Rel, e.D)
	})
}

// Ignorer answers, one path at a time, what the walks decide for a whole
// tree: whether an entry is left out by the project's ignore rules. The
// rules are read when it is made; make a new one when an ignore file
// changed. It is not safe for concurrent use.
type Ignorer struct {
	root  string
	set   *ignoreSet
	nodes map[string]*ignoreNode // directory → its rules, loaded once
}

// NewIgnorer reads the ignore rules of the project at root (absolute,
// symlink-free, as for WalkFiles).
func NewIgnorer(root string) *Ignorer {
	return &Ignorer{root: root, set: newIgnoreSet(root), nodes: map[string]*ignoreNode{}}
}

// Ignored reports whether rel (relative to the root, slash- or
// OS-separated) is left out, by its own name: the caller knows its parent
// directory is kept. .git is always left out.
func (i *Ignorer) Ignored(rel string, isDir bool) bool {
	rel = filepath.FromSlash(rel)
	name := filepath.Base(rel)
	if name == ".git" {
		return true
	}
	dir := filepath.Join(i.root, filepath.Dir(rel))
	n, ok := i.nodes[dir]
	if !ok {
		n = i.set.node(dir)
		i.nodes[dir] = n
	}
	return i.set.ignored(n, name, isDir)
}

// IsIgnoreFile reports whether name is a file the walks read rules from.
func IsIgnoreFile(name string) bool { return name == ".gitignore" || name == ".ignore" }

// Walk is WalkFiles with options and richer entries.
func Walk(ctx context.Context, root, dir string, opt WalkOptions, fn func(Entry) error) error {
	if dir == "" {
		dir = root
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dir = filepath.Clean(dir)
	if !Within(root, dir) {
		return fmt.Errorf("%s is outside the project %s", dir, root)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	w := &walker{ctx: ctx, root: root, opt: opt, fn: fn, set: newIgnoreSet(root)}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return err
	}
	if rel == "." {
		rel = ""
	}
	err = w.walkDir(dir, rel, w.set.node(dir), 1, true)
	if errors.Is(err, fs.SkipAll) || errors.Is(err, fs.SkipDir) {
		return nil
	}
	return err
}

type walker struct {
	ctx  context.Context
	root string
	opt  WalkOptions
	fn   func(Entry) error
	set  *ignoreSet
}

// walkDir reports the entries of abs (whose ignore node is n) and descends.
func (w *walker) walkDir(abs, rel string, n *ignoreNode, depth int, top bool) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(abs)
	if err != nil && (top || len(entries) == 0) {
		if top {
			return err
		}
		return nil
	}
	for _, d := range entries {
		name := d.Name()
		if name == ".git" {
			continue
		}
		isDir := d.IsDir()
		ign := w.set.ignored(n, name, isDir)
		if ign && !w.opt.WithIgnored {
			continue
		}
		if w.opt.Hide != nil && w.opt.Hide(filepath.Join(rel, name), filepath.Join(abs, name), d) {
			continue
		}
		e := Entry{
			Abs:     filepath.Join(abs, name),
			Rel:     filepath.Join(rel, name),
			D:       d,
			Depth:   depth,
			Ignored: ign,
		}
		if err := w.fn(e); err != nil {
			if errors.Is(err, fs.SkipDir) {
				if isDir {
					continue
				}
				return nil
			}
			return err
		}
		if !isDir || ign || (w.opt.MaxDepth > 0 && depth >= w.opt.MaxDepth) {
			continue
		}
		child := w.set.load(n, e.Abs, n.prefix+name+"/")
		if err := w.walkDir(e.Abs, e.Rel, child, depth+1, false); err != nil {
			return err
		}
	}
	return nil
}

// WalkParallel is Walk spread over workers goroutines, for callers that do
// real work per entry (grep reads every file it is given). fn is
// called concurrently and in no particular order; for a directory it may
// return fs.SkipDir to leave it out, and any other error stops the walk and
// is returned. Directories are entered as in Walk (ignored ones never).
func WalkParallel(ctx context.Context, root, dir string, opt WalkOptions, workers int, fn func(Entry) error) error {
	if dir == "" {
		dir = root
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dir = filepath.Clean(dir)
	if !Within(root, dir) {
		return fmt.Errorf("%s is outside the project %s", dir, root)
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return err
	}
	if rel == "." {
		rel = ""
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	set := newIgnoreSet(root)
	top := dirTask{abs: dir, rel: rel, node: set.node(dir), depth: 1}

	q := &taskQueue{tasks: []dirTask{top}, pending: 1}
	q.cond = sync.NewCond(&q.mu)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				t, ok := q.pop()
				if !ok {
					return
				}
				if ctx.Err() != nil {
					q.fail(ctx.Err())
				} else if err := walkOne(set, t, opt, fn, q); err != nil {
					q.fail(err)
				}
				q.done()
			}
		}()
	}
	wg.Wait()
	return q.err
}

// dirTask is one directory waiting to be read.
type dirTask struct {
	abs, rel string
	node     *ignoreNode
	depth    int
}

// walkOne reports one directory's entries and queues its subdirectories.
func walkOne(set *ignoreSet, t dirTask, opt WalkOptions, fn func(Entry) error, q *taskQueue) error {
	entries, err := os.ReadDir(t.abs)
	if err != nil && len(entries) == 0 {
		return nil // an unreadable subdirectory is skipped, as in Walk
	}
	for _, d := range entries {
		name := d.Name()
		if name == ".git" {
			continue
		}
		isDir := d.IsDir()
		ign := set.ignored(t.node, name, isDir)
		if ign && !opt.WithIgnored {
			continue
		}
		if opt.Hide != nil && opt.Hide(filepath.Join(t.rel, name), filepath.Join(t.abs, name), d) {
			continue
		}
		e := Entry{Abs: filepath.Join(t.abs, name), Rel: filepath.Join(t.rel, name), D: d, Depth: t.depth, Ignored: ign}
		if err := fn(e); err != nil {
			if errors.Is(err, fs.SkipDir) {
				continue
			}
			return err
		}
		if !isDir || ign || (opt.MaxDepth > 0 && t.depth >= opt.MaxDepth) {
			continue
		}
		child := set.load(t.node, e.Abs, t.node.prefix+name+"/")
		q.push(dirTask{abs: e.Abs, rel: e.Rel, node: child, depth: t.depth + 1})
	}
	return nil
}

// taskQueue is an unbounded queue of directories that knows when the walk
// is over: no directory queued and none being read.
type taskQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	tasks   []dirTask
	pending int // queued or being read
	err     error
}

func (q *taskQueue) push(t dirTask) {
	q.mu.Lock()
	q.tasks = append(q.tasks, t)
	q.pending++
	q.mu.Unlock()
	q.cond.Signal()
}

// pop waits for a task; false when the walk is over or failed.
func (q *taskQueue) pop() (dirTask, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.tasks) == 0 && q.pending > 0 && q.err == nil {
		q.cond.Wait()
	}
	if q.err != nil || len(q.tasks) == 0 {
		return dirTask{}, false
	}
	// Last in, first out: depth first keeps the queue short.
	t := q.tasks[len(q.tasks)-1]
	q.tasks = q.tasks[:len(q.tasks)-1]
	return t, true
}

func (q *taskQueue) done() {
	q.mu.Lock()
	q.pending--
	over := q.pending == 0
	q.mu.Unlock()
	if over {
		q.cond.Broadcast()
	}
}

func (q *taskQueue) fail(err error) {
	q.mu.Lock()
	if q.err == nil {
		q.err = err
	}
	q.mu.Unlock()
	q.cond.Broadcast()
}
