//go:build !linux

package project

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/fsnotify/fsnotify"
)

// sys is one fsnotify instance (kqueue, ReadDirectoryChangesW): the
// subscribers' directories only. The whole tree is watched on Linux alone
// (kqueue takes a descriptor per file); elsewhere its consumers walk.
type sys struct {
	fw   *fsnotify.Watcher
	done chan struct{}
}

func (w *Watcher) start() error {
	w.tree.err = errors.New("watching the whole tree needs Linux's inotify: agent commands' checkpoints and the file index walk it")
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	w.sys = sys{fw: fw, done: make(chan struct{})}
	go w.loop()
	return nil
}

func (w *Watcher) loop() {
	defer close(w.sys.done)
	for {
		select {
		case ev, ok := <-w.sys.fw.Events:
			if !ok {
				return
			}
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
			w.queueLocked(e)
			w.mu.Unlock()
			w.flush()
		case err, ok := <-w.sys.fw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.mu.Lock()
				w.lostLocked()
				w.mu.Unlock()
				w.flush()
				w.tell("file events were lost: fawn reads the folders it shows again")
			}
		}
	}
}

func (w *Watcher) pump() {}

func (w *Watcher) stop() {
	if w.sys.fw != nil {
		w.sys.fw.Close()
		<-w.sys.done
	}
}

func (w *Watcher) addSubLocked(dir string) error {
	if w.sys.fw == nil {
		return w.err
	}
	return w.sys.fw.Add(dir)
}

func (w *Watcher) removeSubLocked(dir string) {
	if w.sys.fw != nil {
		_ = w.sys.fw.Remove(dir)
	}
}

func (w *Watcher) walkTree(ctx context.Context, rel string, workers int, visit func(string, fs.DirEntry)) error {
	return w.tree.err
}

func (w *Watcher) untreeAllLocked() {}
