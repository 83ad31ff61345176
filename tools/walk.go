package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// walkOptions tunes walkTree for the tools that need more than WalkFiles.
type walkOptions struct {
	// withIgnored reports ignored entries too (marked), without entering
	// ignored directories.
	withIgnored bool
	// maxDepth stops descending below this depth (1 = only dir's entries); 0 = no limit.
	maxDepth int
	// deny leaves out (and does not enter) what the user's rules forbid
	// reading; nil: nothing is.
	deny *denyFilter
}

// walkEntry is one entry reported by walkTree.
type walkEntry struct {
	abs     string
	rel     string // relative to the project root
	d       fs.DirEntry
	depth   int // 1 for dir's own entries
	ignored bool
}

// WalkFiles walks dir (absolute, or relative to root; "" is root) and calls
// fn for every file and directory below it that the project's ignore rules
// keep: .gitignore files at every level with their negations, .ignore files,
// and .git/info/exclude, as git and ripgrep honour them; .git itself is never
// entered. root must be the absolute, symlink-free project root (Env.Root).
//
// Entries come in lexical order, each directory before its contents; rel is
// the entry's path relative to root. Symlinks are reported, never followed.
// As with filepath.WalkDir, fn may return fs.SkipDir (for a directory: do not
// enter it; for a file: skip the rest of its directory) or fs.SkipAll.
// Unreadable subdirectories are skipped; an unreadable dir is an error.
func WalkFiles(ctx context.Context, root, dir string, fn func(rel string, d fs.DirEntry) error) error {
	return walkTree(ctx, root, dir, walkOptions{}, func(e walkEntry) error {
		return fn(e.rel, e.d)
	})
}

// WalkFilesParallel is WalkFiles spread over workers goroutines: the same
// entries, in no particular order, fn called concurrently. For callers that
// stat every file (the checkpoint scan).
func WalkFilesParallel(ctx context.Context, root string, workers int, fn func(rel string, d fs.DirEntry) error) error {
	return walkParallel(ctx, root, "", walkOptions{}, workers, func(e walkEntry) error {
		return fn(e.rel, e.d)
	})
}

// WalkFilesUnder is WalkFilesParallel below dir (absolute, or relative to
// root), which must be a directory inside root that the rules keep.
func WalkFilesUnder(ctx context.Context, root, dir string, workers int, fn func(rel string, d fs.DirEntry) error) error {
	return walkParallel(ctx, root, dir, walkOptions{}, workers, func(e walkEntry) error {
		return fn(e.rel, e.d)
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

// walkTree is WalkFiles with options and richer entries.
func walkTree(ctx context.Context, root, dir string, opt walkOptions, fn func(walkEntry) error) error {
	if dir == "" {
		dir = root
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dir = filepath.Clean(dir)
	if !within(root, dir) {
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
	opt  walkOptions
	fn   func(walkEntry) error
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
		if ign && !w.opt.withIgnored {
			continue
		}
		if w.opt.deny.hidesEntry(filepath.Join(rel, name), filepath.Join(abs, name), d) {
			continue
		}
		e := walkEntry{
			abs:     filepath.Join(abs, name),
			rel:     filepath.Join(rel, name),
			d:       d,
			depth:   depth,
			ignored: ign,
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
		if !isDir || ign || (w.opt.maxDepth > 0 && depth >= w.opt.maxDepth) {
			continue
		}
		child := w.set.load(n, e.abs, n.prefix+name+"/")
		if err := w.walkDir(e.abs, e.rel, child, depth+1, false); err != nil {
			return err
		}
	}
	return nil
}

// walkParallel is walkTree spread over workers goroutines, for callers
// that do real work per entry (grep reads every file it is given). fn is
// called concurrently and in no particular order; for a directory it may
// return fs.SkipDir to leave it out, and any other error stops the walk and
// is returned. Directories are entered as in walkTree (ignored ones never).
func walkParallel(ctx context.Context, root, dir string, opt walkOptions, workers int, fn func(walkEntry) error) error {
	if dir == "" {
		dir = root
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dir = filepath.Clean(dir)
	if !within(root, dir) {
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
func walkOne(set *ignoreSet, t dirTask, opt walkOptions, fn func(walkEntry) error, q *taskQueue) error {
	entries, err := os.ReadDir(t.abs)
	if err != nil && len(entries) == 0 {
		return nil // an unreadable subdirectory is skipped, as in walkTree
	}
	for _, d := range entries {
		name := d.Name()
		if name == ".git" {
			continue
		}
		isDir := d.IsDir()
		ign := set.ignored(t.node, name, isDir)
		if ign && !opt.withIgnored {
			continue
		}
		if opt.deny.hidesEntry(filepath.Join(t.rel, name), filepath.Join(t.abs, name), d) {
			continue
		}
		e := walkEntry{abs: filepath.Join(t.abs, name), rel: filepath.Join(t.rel, name), d: d, depth: t.depth, ignored: ign}
		if err := fn(e); err != nil {
			if errors.Is(err, fs.SkipDir) {
				continue
			}
			return err
		}
		if !isDir || ign || (opt.maxDepth > 0 && t.depth >= opt.maxDepth) {
			continue
		}
		child := set.load(t.node, e.abs, t.node.prefix+name+"/")
		q.push(dirTask{abs: e.abs, rel: e.rel, node: child, depth: t.depth + 1})
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
