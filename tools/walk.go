package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// walkOptions tunes walkTree for the tools that need more than WalkFiles.
type walkOptions struct {
	// withIgnored reports ignored entries too (marked), without entering
	// ignored directories.
	withIgnored bool
	// maxDepth stops descending below this depth (1 = only dir's entries); 0 = no limit.
	maxDepth int
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
