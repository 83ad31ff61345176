//go:build linux

package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/fawn-ide/fawn/project"
)

// maxWatchDirs bounds the directories one book watches: past it (or past
// the user's inotify limit) the scans fall back to walking the whole tree.
// Each watch costs the kernel about a kilobyte.
const maxWatchDirs = 20000

const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

var errTooManyDirs = fmt.Errorf("more than %d directories to watch", maxWatchDirs)

// watcher keeps the stamps of the project's files current between agent
// commands from inotify's events, so that the scans around a command stat
// only the files and directories something happened to, instead of the
// whole tree. It watches every directory the tools' walk keeps; the kernel
// queues events while fawn does nothing (no thread, no CPU), and a sync
// reads them all at once. A queue overflow or a changed ignore file makes
// it walk the whole tree again. Not safe for concurrent use: the book
// calls it with its command lock held.
type watcher struct {
	root    string
	workers int
	fd      int
	dirs    map[int32]string // watch descriptor → directory, relative ("" is the root)
	wds     map[string]int32
	tree    Tree
	ign     *project.Ignorer
	buf     []byte
}

// startWatcher watches the project at root and stamps its files.
func startWatcher(ctx context.Context, root string, workers int) (*watcher, error) {
	w := &watcher{root: root, workers: workers, fd: -1, buf: make([]byte, 64<<10)}
	t, err := w.build(ctx)
	if err != nil {
		w.close()
		return nil, err
	}
	w.tree = t
	return w, nil
}

// watched is how many directories are watched.
func (w *watcher) watched() int { return len(w.wds) }

func ctimeOf(s *syscall.Stat_t) int64 { return s.Ctim.Sec*1e9 + s.Ctim.Nsec }

func (w *watcher) close() {
	if w.fd >= 0 {
		unix.Close(w.fd)
		w.fd = -1
	}
}

// build starts over: a new inotify instance, and a walk of the whole tree
// that watches each directory before it reads it, so nothing written
// during the walk is missed.
func (w *watcher) build(ctx context.Context) (Tree, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	w.close()
	w.fd = fd
	w.dirs, w.wds = map[int32]string{}, map[string]int32{}
	w.ign = project.NewIgnorer(w.root)
	if err := w.watch(""); err != nil {
		return nil, err
	}
	t := Tree{}
	if err := w.walk(ctx, "", t); err != nil {
		return nil, err
	}
	return t, nil
}

// walk stamps into t the files below dir (relative) and watches its
// directories.
func (w *watcher) walk(ctx context.Context, dir string, t Tree) error {
	var mu sync.Mutex
	return project.WalkFilesUnder(ctx, w.root, filepath.FromSlash(dir), w.workers, func(rel string, d fs.DirEntry) error {
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			mu.Lock()
			defer mu.Unlock()
			return w.watch(rel)
		case d.Type().IsRegular():
			fi, err := d.Info()
			if err != nil {
				return nil // gone since the directory was read
			}
			mu.Lock()
			t[rel] = stampOf(fi)
			mu.Unlock()
		}
		return nil
	})
}

// watch adds the directory rel (relative) to the watched ones.
func (w *watcher) watch(rel string) error {
	if len(w.wds) >= maxWatchDirs {
		return errTooManyDirs
	}
	wd, err := unix.InotifyAddWatch(w.fd, filepath.Join(w.root, filepath.FromSlash(rel)), watchMask)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.EACCES) {
			return nil // gone, or not readable: the walk does not enter it either
		}
		if errors.Is(err, unix.ENOSPC) {
			return fmt.Errorf("the inotify watch limit (fs.inotify.max_user_watches) is reached")
		}
		return err
	}
	id := int32(wd)
	if old, ok := w.dirs[id]; ok && w.wds[old] == id {
		delete(w.wds, old) // the same directory under a new name: it was moved
	}
	w.dirs[id], w.wds[rel] = rel, id
	return nil
}

// sync reads the events queued since the last sync and returns what
// changed: for each path whose stamp did, the stamp it had (in before;
// absent: there was no such file) and has (in after; absent: there is
// none). The watcher's tree is updated only when sync succeeds; after a
// failure it still holds the stamps of the last success, and the watcher
// must not be used again.
func (w *watcher) sync(ctx context.Context) (before, after Tree, err error) {
	q := queued{files: map[string]bool{}, dirs: map[string]bool{}}
	if err := w.drain(&q); err != nil {
		return nil, nil, err
	}
	if q.rebuild {
		t, err := w.build(ctx)
		if err != nil {
			return nil, nil, err
		}
		before, after = diffTrees(w.tree, t)
		w.tree = t
		return before, after, nil
	}

	before, after = Tree{}, Tree{}
	if err := w.rewalk(ctx, q.dirs, before, after); err != nil {
		return nil, nil, err
	}
	w.restamp(q.files, q.dirs, before, after)
	w.apply(before, after)
	return before, after, nil
}

// queued is what the events read by one sync ask for.
type queued struct {
	files   map[string]bool // files to stamp again
	dirs    map[string]bool // subtrees to walk again
	rebuild bool            // the whole tree must be built again
}

// drain reads every event queued on the inotify descriptor into q.
func (w *watcher) drain(q *queued) error {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EAGAIN) || (err == nil && n <= 0) {
			return nil // drained: everything done before the call is in
		}
		if err != nil {
			return err
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			end := off + unix.SizeofInotifyEvent + int(ev.Len)
			name := string(bytes.TrimRight(w.buf[off+unix.SizeofInotifyEvent:min(end, n)], "\x00"))
			off = end
			w.note(q, ev.Wd, ev.Mask, name)
		}
	}
}

// note records in q what one event (on watch wd, about name) asks for,
// and forgets a watch the kernel dropped.
func (w *watcher) note(q *queued, wd int32, mask uint32, name string) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		q.rebuild = true
		return
	}
	dir, ok := w.dirs[wd]
	if !ok {
		return
	}
	switch {
	case mask&unix.IN_IGNORED != 0:
		delete(w.dirs, wd)
		if w.wds[dir] == wd {
			delete(w.wds, dir)
		}
		return
	case mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
		// The parent's event says it; the root has no parent.
		q.rebuild = q.rebuild || dir == ""
		return
	case name == "":
		return
	}
	p := name
	if dir != "" {
		p = dir + "/" + name
	}
	if mask&unix.IN_ISDIR != 0 {
		if mask&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO) != 0 {
			q.dirs[p] = true
		}
		return
	}
	if project.IsIgnoreFile(name) {
		q.rebuild = true // the rules changed: what is kept may have too
	}
	q.files[p] = true
}

// rewalk handles the subtrees in dirs: what the tree had below them goes
// (into before), what is there now comes (into after), and their watches
// are set again.
func (w *watcher) rewalk(ctx context.Context, dirs map[string]bool, before, after Tree) error {
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
	for p, st := range w.tree {
		if underAny(p, top) {
			before[p] = st
		}
	}
	for rel, wd := range w.wds {
		if top[rel] || underAny(rel, top) {
			unix.InotifyRmWatch(w.fd, uint32(wd)) // fails for a deleted one: the kernel dropped it
			delete(w.wds, rel)
			delete(w.dirs, wd)
		}
	}
	for _, d := range outer {
		fi, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(d)))
		if err != nil || !fi.IsDir() || w.ign.Ignored(d, true) {
			continue
		}
		if _, ok := w.wds[parentOf(d)]; !ok {
			continue // below a directory the walk does not keep
		}
		if err := w.watch(d); err != nil {
			return err
		}
		if err := w.walk(ctx, d, after); err != nil {
			return err
		}
	}
	return nil
}

// restamp stats the files in files that no walk of dirs covered, putting
// the stamp each had in before and the one it has in after.
func (w *watcher) restamp(files, dirs map[string]bool, before, after Tree) {
	for p := range files {
		if underAny(p, dirs) {
			continue // walked above
		}
		old, had := w.tree[p]
		fi, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(p)))
		if err != nil || !fi.Mode().IsRegular() {
			if had {
				before[p] = old
			}
			continue
		}
		if !had && w.ign.Ignored(p, false) {
			continue
		}
		if had {
			before[p] = old
		}
		after[p] = stampOf(fi)
	}
}

// apply drops from before and after the paths whose stamp did not change,
// then brings the watcher's tree to after.
func (w *watcher) apply(before, after Tree) {
	for p, st := range after {
		if old, ok := before[p]; ok && old == st {
			delete(before, p)
			delete(after, p)
		}
	}
	for p := range before {
		delete(w.tree, p)
	}
	for p, st := range after {
		w.tree[p] = st
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
