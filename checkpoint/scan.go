package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/cloudwego/eino/compose"

	"github.com/fawn-ide/fawn/project"
)

// stamp is what the scan compares: a file changed when its stamp did.
type stamp struct {
	size    int64
	mtime   int64 // ns
	ctime   int64 // ns: catches a write that put the mtime back
	ino     uint64
	mode    uint32
	regular bool
}

func stampOf(fi fs.FileInfo) stamp {
	st := stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: uint32(fi.Mode().Perm()), regular: fi.Mode().IsRegular()}
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = s.Ino
		st.ctime = ctimeOf(s)
	}
	return st
}

func lstamp(abs string) (stamp, error) {
	fi, err := os.Lstat(abs)
	if err != nil {
		return stamp{}, err
	}
	return stampOf(fi), nil
}

// Tree is a scan: the stamp of every regular file the walk keeps.
type Tree map[string]stamp

// Scan stamps every regular file of the project that the tools' ignore-aware
// walk keeps (.git never; ignored files never).
func (b *Book) Scan(ctx context.Context) (Tree, error) {
	return scanTree(ctx, b.root, b.o.Workers)
}

func scanTree(ctx context.Context, root string, workers int) (Tree, error) {
	var mu sync.Mutex
	t := Tree{}
	err := project.WalkFilesParallel(ctx, root, workers, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil // gone since the directory was read
		}
		st := stampOf(fi)
		mu.Lock()
		t[filepath.ToSlash(rel)] = st
		mu.Unlock()
		return nil
	})
	return t, err
}

// CommandStarting scans the tree before an agent command; the function it
// returns scans it again and records every file the command created,
// changed or deleted (tools.ChangeRecorder), and returns their absolute
// paths. From the start to the call of
// that function, other commands wait.
//
// With Options.Watch, on Linux, the first command (or the warm-up the
// first Begin starts) has the project's watcher watch the whole tree
// (inotify); from then on the scans read only what the watcher's journal
// says was touched. Where watching cannot be done (no watcher, another
// system, the user's watch limit, a huge tree) every scan walks the whole
// tree, and ScanMode says why.
func (b *Book) CommandStarting(ctx context.Context) func() []string {
	b.cmd.Lock()
	call := compose.GetToolCallID(ctx)
	ctx = context.WithoutCancel(ctx)
	if w := b.watcherLocked(ctx); w != nil {
		// Whatever changed since the last command is not this command's.
		if _, _, err := w.sync(ctx); err == nil {
			return func() []string {
				defer b.cmd.Unlock()
				before, after, err := w.sync(ctx)
				if err == nil {
					return b.Compare(before, after, ByCommand, call)
				}
				// The tree as it was before the command is still the
				// watcher's: compare a full scan with it.
				b.stopWatchingLocked(err)
				if full, err := b.Scan(ctx); err == nil {
					return b.Compare(w.tree, full, ByCommand, call)
				}
				return nil
			}
		} else {
			b.stopWatchingLocked(err)
		}
	}
	before, err := b.Scan(ctx)
	if err != nil {
		b.cmd.Unlock()
		return func() []string { return nil }
	}
	return func() []string {
		defer b.cmd.Unlock()
		after, err := b.Scan(ctx)
		if err != nil {
			return nil
		}
		return b.Compare(before, after, ByCommand, call)
	}
}

// watcherLocked returns the book's tracker of the project's watcher,
// starting it the first time; nil when the scans walk the whole tree.
// b.cmd is held.
func (b *Book) watcherLocked(ctx context.Context) *tracker {
	if b.w != nil || b.whyFull != "" {
		return b.w
	}
	if b.o.Watch == nil {
		b.whyFull = "every agent command walks the whole tree: no project watcher"
		return nil
	}
	w, err := startTracker(ctx, b.o.Watch, b.root, b.o.Workers)
	if err != nil {
		b.stopWatchingLocked(err)
		return nil
	}
	b.w = w
	return w
}

// stopWatchingLocked gives up watching, for good: b.cmd is held.
func (b *Book) stopWatchingLocked(err error) {
	b.w = nil
	b.whyFull = "every agent command walks the whole tree: " + err.Error()
}

// ScanMode says how the scans around agent commands find what changed: by
// watching the tree, or (and why) by walking it.
func (b *Book) ScanMode() string {
	b.cmd.Lock()
	defer b.cmd.Unlock()
	switch {
	case b.w != nil:
		return fmt.Sprintf("watching %d directories (the project's watcher, inotify): a command's scan reads only what it touched", b.w.watched())
	case b.whyFull != "":
		return b.whyFull
	}
	return "not started: the first agent command starts it"
}

// Compare records, as made by by, every file whose stamp differs between
// two scans, and returns the absolute paths of those whose content or mode
// changed.
func (b *Book) Compare(before, after Tree, by, call string) []string {
	var paths []string
	for p, st := range after {
		if old, ok := before[p]; !ok || old != st {
			paths = append(paths, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)

	// The content before: what the book last recorded, when the file's
	// stamp is still that one; else git's index, when its stamp is.
	b.mu.Lock()
	olds := map[string]Version{}
	var ask []string
	for _, p := range paths {
		st, ok := before[p]
		if !ok {
			olds[p] = Version{}
			continue
		}
		if k, ok := b.known[p]; ok && k.st == st {
			olds[p] = k.v
			continue
		}
		ask = append(ask, p)
	}
	b.mu.Unlock()
	fromGit := b.git.lookup(ask, before)

	now := time.Now().UTC()
	var changed []string
	for _, p := range paths {
		abs := b.Abs(p)
		old, ok := olds[p]
		var oldData []byte
		if !ok {
			if g, ok := fromGit[p]; ok {
				oldData = g
			} else {
				st := before[p]
				old = Version{Exists: true, Size: st.size, Mode: st.mode,
					Note: "content before the command unknown: fawn had not seen it and git's index does not have it"}
			}
		}
		data, big, st, rerr := b.readForRecord(abs)
		b.mu.Lock()
		c := Change{Path: p, By: by, Call: call, Time: now, Before: old}
		if oldData != nil {
			c.Before = b.keepLocked(oldData, true, before[p].mode)
		}
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
			c.After = Version{}
		case rerr != nil:
			c.After = Version{Exists: true, Size: st.size, Mode: st.mode, Note: "could not be read: " + rerr.Error()}
		case big != nil:
			c.After = *big
		default:
			c.After = b.keepLocked(data, true, st.mode)
		}
		if c.Before.Same(c.After) {
			// Touched, not changed (a chmod, a rewrite with the same bytes).
			b.rememberLocked(p, c.After, st)
			b.mu.Unlock()
			continue
		}
		b.rememberLocked(p, c.After, st)
		b.addLocked(c)
		b.mu.Unlock()
		changed = append(changed, abs)
	}
	return changed
}

// readForRecord reads the file at abs; a file larger than MaxFile is only
// hashed (big).
func (b *Book) readForRecord(abs string) (data []byte, big *Version, st stamp, err error) {
	st, err = lstamp(abs)
	if err != nil {
		return nil, nil, st, err
	}
	if !st.regular {
		return nil, nil, st, fmt.Errorf("not a regular file")
	}
	if st.size <= b.o.MaxFile {
		data, st, err = readFile(abs)
		return data, nil, st, err
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, nil, st, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, nil, st, err
	}
	return nil, &Version{Exists: true, Hash: hex.EncodeToString(h.Sum(nil)), Size: n, Mode: st.mode,
		Note: fmt.Sprintf("larger than %s: recorded by hash only", human(b.o.MaxFile))}, st, nil
}
