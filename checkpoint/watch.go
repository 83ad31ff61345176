package checkpoint

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"sync"

	"github.com/fawn-ide/fawn/project"
)

// tracker keeps the stamps of the project's files current between agent
// commands from the project's one watcher (project.Watcher): the watcher
// journals what its events name, and a sync asks it what changed since the
// last one, so that the scans around a command stat only the files and
// directories something happened to, instead of the whole tree. The
// watcher reads the kernel's queue to its end before it answers, so a
// command's changes are in the sync after it. When the watcher says
// everything changed (events lost, the ignore rules changed), the tracker
// walks the whole tree again. Not safe for concurrent use: the book calls
// it with its command lock held.
type tracker struct {
	root    string
	workers int
	pw      *project.Watcher
	mark    project.Mark
	tree    Tree
	ign     *project.Ignorer
}

// startTracker watches the project at root through pw and stamps its
// files: from the watcher's own walk when this is the first to watch the
// tree, else from a walk of its own after the mark.
func startTracker(ctx context.Context, pw *project.Watcher, root string, workers int) (*tracker, error) {
	t := &tracker{root: root, workers: workers, pw: pw, ign: project.NewIgnorer(root)}
	var mu sync.Mutex
	tree := Tree{}
	mark, walked, err := pw.WatchTree(ctx, workers, func(rel string, d fs.DirEntry) {
		if !d.Type().IsRegular() {
			return
		}
		if fi, err := d.Info(); err == nil {
			mu.Lock()
			tree[rel] = stampOf(fi)
			mu.Unlock()
		}
	})
	if err != nil {
		return nil, err
	}
	if !walked {
		mark = pw.Mark()
		if tree, err = scanTree(ctx, root, workers); err != nil {
			return nil, err
		}
	}
	t.mark, t.tree = mark, tree
	return t, nil
}

// watched is how many directories are watched.
func (t *tracker) watched() int { return t.pw.TreeDirs() }

// sync asks the watcher what happened since the last sync and returns
// what changed: for each path whose stamp did, the stamp it had (in
// before; absent: there was no such file) and has (in after; absent: there
// is none). The tracker's tree is updated only when sync succeeds; after a
// failure it still holds the stamps of the last success, and the tracker
// must not be used again.
func (t *tracker) sync(ctx context.Context) (before, after Tree, err error) {
	ch, mark, err := t.pw.Since(t.mark)
	if err != nil {
		return nil, nil, err
	}
	if ch.All {
		cur, err := scanTree(ctx, t.root, t.workers)
		if err != nil {
			return nil, nil, err
		}
		before, after = diffTrees(t.tree, cur)
		t.tree, t.mark, t.ign = cur, mark, project.NewIgnorer(t.root)
		return before, after, nil
	}
	dirs := map[string]bool{}
	for d := range ch.Dirs {
		dirs[d] = true
	}
	before, after = Tree{}, Tree{}
	if err := t.rewalk(ctx, dirs, before, after); err != nil {
		return nil, nil, err
	}
	t.restamp(ch.Files, dirs, before, after)
	t.apply(before, after)
	t.mark = mark
	return before, after, nil
}

// rewalk handles the subtrees in dirs: what the tree had below them goes
// (into before), what is there now comes (into after).
func (t *tracker) rewalk(ctx context.Context, dirs map[string]bool, before, after Tree) error {
	var outer []string
	for d := range dirs {
		if !underAny(d, dirs) {
			outer = append(outer, d)
		}
	}
	sort.Strings(outer)
	if len(outer) == 0 {
		return nil
	}
	top := map[string]bool{}
	for _, d := range outer {
		top[d] = true
	}
	for p, st := range t.tree {
		if underAny(p, top) {
			before[p] = st
		}
	}
	for _, d := range outer {
		fi, err := os.Lstat(filepath.Join(t.root, filepath.FromSlash(d)))
		if err != nil || !fi.IsDir() || t.ign.Ignored(d, true) {
			continue
		}
		if err := t.walk(ctx, d, after); err != nil {
			return err
		}
	}
	return nil
}

// walk stamps into tree the files below dir (relative).
func (t *tracker) walk(ctx context.Context, dir string, tree Tree) error {
	var mu sync.Mutex
	err := project.WalkFilesUnder(ctx, t.root, filepath.FromSlash(dir), t.workers, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil // gone since the directory was read
		}
		mu.Lock()
		tree[filepath.ToSlash(rel)] = stampOf(fi)
		mu.Unlock()
		return nil
	})
	if err != nil && ctx.Err() == nil {
		if _, serr := os.Lstat(filepath.Join(t.root, filepath.FromSlash(dir))); serr != nil {
			return nil // gone while it was walked: the watcher says so next time
		}
	}
	return err
}

// restamp stats the files in files that no walk of dirs covered, putting
// the stamp each had in before and the one it has in after.
func (t *tracker) restamp(files map[string]project.Op, dirs map[string]bool, before, after Tree) {
	for p := range files {
		if underAny(p, dirs) {
			continue // walked above
		}
		old, had := t.tree[p]
		fi, err := os.Lstat(filepath.Join(t.root, filepath.FromSlash(p)))
		if err != nil || !fi.Mode().IsRegular() {
			if had {
				before[p] = old
			}
			continue
		}
		if !had && t.ign.Ignored(p, false) {
			continue
		}
		if had {
			before[p] = old
		}
		after[p] = stampOf(fi)
	}
}

// apply drops from before and after the paths whose stamp did not change,
// then brings the tracker's tree to after.
func (t *tracker) apply(before, after Tree) {
	for p, st := range after {
		if old, ok := before[p]; ok && old == st {
			delete(before, p)
			delete(after, p)
		}
	}
	for p := range before {
		delete(t.tree, p)
	}
	for p, st := range after {
		t.tree[p] = st
	}
}

// underAny reports whether p is below one of dirs (not one of them itself).
func underAny(p string, dirs map[string]bool) bool {
	if len(dirs) == 0 {
		return false
	}
	for d := parentOf(p); d != ""; d = parentOf(d) {
		if dirs[d] {
			return true
		}
	}
	return false
}

// parentOf is the directory of the relative path p ("" for the root).
func parentOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// diffTrees returns the stamps that differ between two trees: before's
// side in the first map, after's in the second.
func diffTrees(old, cur Tree) (before, after Tree) {
	before, after = Tree{}, Tree{}
	for p, st := range cur {
		if o, ok := old[p]; !ok || o != st {
			after[p] = st
			if ok {
				before[p] = o
			}
		}
	}
	for p, o := range old {
		if _, ok := cur[p]; !ok {
			before[p] = o
		}
	}
	return before, after
}
