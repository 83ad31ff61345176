package project

import (
	"context"
	"io/fs"
	"path/filepath"
	"sync"
	"time"
)

// Index is the list of a project's paths that @-mention completion (and
// anything else that wants every path at hand) reads: walked in the
// background with WalkFiles' rules, its results available while the walk
// goes on, and walked again when it is read after it went stale.
type Index struct {
	root string
	mu   sync.Mutex
	// paths are relative, with "/" after directories; done is set when the
	// walk finished.
	paths   []string
	done    bool
	started bool
	when    time.Time // the last walk's start
}

// MaxIndexed bounds the walk on a huge tree; IndexFresh is how long a
// listing is used before a Refresh lists again.
const (
	MaxIndexed = 200_000
	IndexFresh = 5 * time.Second
)

// NewIndex is the index of the project at root; nothing is walked before
// the first Refresh.
func NewIndex(root string) *Index { return &Index{root: root} }

// Refresh walks the project again unless a walk runs or the last one is
// fresh. The walk runs in spawn (a goroutine the caller owns, which may
// recover its panics) until ctx is done, and calls changed from there as
// results arrive.
func (x *Index) Refresh(ctx context.Context, spawn func(func()), changed func()) {
	x.mu.Lock()
	// A finished list is walked again after a while: files come and go.
	if x.root == "" || (x.started && !(x.done && time.Since(x.when) > IndexFresh)) {
		x.mu.Unlock()
		return
	}
	x.started, x.when = true, time.Now()
	fresh := true
	x.mu.Unlock()
	spawn(func() {
		var batch []string
		flush := func(done bool) {
			x.mu.Lock()
			if fresh {
				x.paths, fresh = nil, false
			}
			x.paths = append(x.paths, batch...)
			x.done = done
			x.mu.Unlock()
			batch = nil
			changed()
		}
		n := 0
		_ = WalkFiles(ctx, x.root, "", func(rel string, d fs.DirEntry) error {
			if n++; n > MaxIndexed {
				return context.Canceled
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
		flush(true)
	})
}

// Paths are the paths listed so far (the caller must not change them) and
// whether the walk that lists them is done.
func (x *Index) Paths() (paths []string, done bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.paths, x.done
}
