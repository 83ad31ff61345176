//go:build !linux

package checkpoint

import (
	"context"
	"errors"
)

// watcher is Linux's inotify watcher; elsewhere every command's scans walk
// the whole tree.
type watcher struct{ tree Tree }

func startWatcher(ctx context.Context, root string, workers int) (*watcher, error) {
	return nil, errors.New("watching the tree needs Linux's inotify")
}

func (w *watcher) sync(ctx context.Context) (before, after Tree, err error) {
	return nil, nil, errors.ErrUnsupported
}

func (w *watcher) close() {}

func (w *watcher) watched() int { return 0 }
