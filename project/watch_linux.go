//go:build linux

package project

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchMask is what every watch asks for: one inode has one watch per
// instance, so the tree's and the subscribers' ask the same.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

// sys is the inotify instance: its descriptor, read by one goroutine that
// sleeps in the runtime's poller, and its watches.
type sys struct {
	f      *os.File
	rc     syscall.RawConn
	fd     int // used under w.mu while !w.closed; reads go through rc
	wds    map[int32]*wdir
	byPath map[string]*wdir // absolute directory → its watch
	gen    int              // the tree walk's generation: a rewalk drops what it did not see
	buf    []byte
	done   chan struct{}
	// pumping is held through a whole pump, the new directories' walks
	// included, so that a reader pumping (Since) waits for what the
	// loop's pump began rather than read a journal it is still writing.
	pumping sync.Mutex
}

// wdir is one watched directory: for the tree, for subscribers, or both.
type wdir struct {
	wd   int32
	path string
	tree bool
	sub  bool
	gen  int
}

var errClosed = errors.New("the watcher is closed")

func (w *Watcher) start() error {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if errors.Is(err, unix.EMFILE) {
		return fmt.Errorf("the inotify instance limit (fs.inotify.max_user_instances) is reached (raise it: sysctl fs.inotify.max_user_instances=1024)")
	}
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), "inotify")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return err
	}
	w.sys = sys{f: f, rc: rc, fd: fd, wds: map[int32]*wdir{}, byPath: map[string]*wdir{},
		buf: make([]byte, 64<<10), done: make(chan struct{})}
	go w.loop()
	return nil
}

// loop reads events as they come, for the subscribers' live updates; it
// costs nothing while nothing happens (the runtime's poller waits).
func (w *Watcher) loop() {
	defer close(w.sys.done)
	for {
		err := w.sys.rc.Read(func(fd uintptr) bool {
			w.pumpFD(int(fd))
			return false // wait for more
		})
		if err != nil {
			return // closed
		}
	}
}

// pump reads what the kernel has queued, now, on the caller's goroutine.
func (w *Watcher) pump() {
	if w.sys.rc != nil {
		_ = w.sys.rc.Control(func(fd uintptr) { w.pumpFD(int(fd)) })
	}
}

func (w *Watcher) stop() {
	if w.sys.f == nil {
		return
	}
	w.sys.f.Close()
	<-w.sys.done
}

// pumpFD reads every queued event, journals and queues them, delivers the
// subscribers' events, and watches the directories that appeared.
func (w *Watcher) pumpFD(fd int) {
	w.sys.pumping.Lock()
	defer w.sys.pumping.Unlock()
	var p pumped
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	for {
		n, err := unix.Read(fd, w.sys.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			break // EAGAIN: drained, everything done before the call is in
		}
		buf := w.sys.buf[:n]
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			end := off + unix.SizeofInotifyEvent + int(ev.Len)
			name := string(bytes.TrimRight(buf[off+unix.SizeofInotifyEvent:min(end, n)], "\x00"))
			off = end
			w.eventLocked(ev.Wd, ev.Mask, name, &p)
		}
	}
	w.mu.Unlock()
	w.flush()
	if p.tell != "" {
		w.tell(p.tell)
	}
	if p.rewatch != "" {
		w.rewatch(p.rewatch)
		return // the whole tree was walked: walks are in it
	}
	for _, rel := range p.walks {
		err := w.walkTree(context.Background(), rel, 2, nil)
		w.mu.Lock()
		if err == nil {
			// A walk of rel that began before its watches were all set
			// may have missed what was made meanwhile: walk it again.
			w.noteLocked(rel, Created, true)
		}
		w.mu.Unlock()
	}
}

// pumped is what the events read by one pump leave to do once w.mu is
// let go.
type pumped struct {
	walks   []string // directories that appeared: watch what is below them
	rewatch string   // why the whole tree is to be walked again ("": it is not)
	tell    string   // what to tell the user
}

// eventLocked handles one event: wd's directory, name in it ("" for the
// directory itself).
func (w *Watcher) eventLocked(wd int32, mask uint32, name string, p *pumped) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		w.lostLocked()
		if w.tree.started && w.tree.err == nil {
			w.allLocked("events were lost")
			p.rewatch = "events were lost"
		}
		p.tell = "file events were lost (more than fs.inotify.max_queued_events at once): fawn reads the project again"
		return
	}
	d := w.sys.wds[wd]
	if d == nil {
		return
	}
	if mask&unix.IN_IGNORED != 0 {
		w.forgetLocked(d)
		return
	}
	op := opOf(mask)
	if name == "" {
		if _, ok := w.dirs[d.path]; ok {
			w.queueLocked(Event{Path: d.path, Op: op})
		}
		if d.tree && d.path == w.root && mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 {
			w.allLocked("the project's directory was moved or removed")
		}
		return
	}
	abs := d.path + "/" + name
	if d.sub {
		w.queueLocked(Event{Path: abs, Op: op})
	}
	if !d.tree || !w.tree.started || w.tree.err != nil {
		return
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(abs, w.root), "/")
	if mask&unix.IN_ISDIR != 0 {
		if mask&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO) == 0 || w.tree.ign.Ignored(rel, true) {
			return
		}
		w.noteLocked(rel, op, true)
		if mask&(unix.IN_DELETE|unix.IN_MOVED_FROM) != 0 {
			w.dropTreeLocked(abs)
		}
		if mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 {
			p.walks = append(p.walks, rel)
		}
		return
	}
	if IsIgnoreFile(name) {
		w.allLocked("the ignore rules changed")
		p.rewatch = "the ignore rules changed"
		return
	}
	if !w.tree.ign.Ignored(rel, false) {
		w.noteLocked(rel, op, false)
	}
}

func opOf(mask uint32) Op {
	var op Op
	if mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 {
		op |= Created
	}
	if mask&unix.IN_MODIFY != 0 {
		op |= Written
	}
	if mask&(unix.IN_DELETE|unix.IN_DELETE_SELF) != 0 {
		op |= Removed
	}
	if mask&(unix.IN_MOVED_FROM|unix.IN_MOVE_SELF) != 0 {
		op |= Renamed
	}
	if mask&unix.IN_ATTRIB != 0 {
		op |= Chmoded
	}
	return op
}

// forgetLocked drops a watch the kernel dropped (or that is to go).
func (w *Watcher) forgetLocked(d *wdir) {
	if w.sys.wds[d.wd] == d {
		delete(w.sys.wds, d.wd)
	}
	if w.sys.byPath[d.path] == d {
		delete(w.sys.byPath, d.path)
	}
	if d.tree {
		d.tree = false
		w.tree.count--
	}
}

// dropTreeLocked stops watching abs and what is below it for the tree (a
// directory deleted or moved away: where it went is walked on its own).
func (w *Watcher) dropTreeLocked(abs string) {
	for p, d := range w.sys.byPath {
		if d.tree && (p == abs || strings.HasPrefix(p, abs+"/")) {
			w.untreeLocked(d)
		}
	}
}

// untreeLocked ends d's part in the tree; its watch goes unless a
// subscriber holds it.
func (w *Watcher) untreeLocked(d *wdir) {
	d.tree = false
	w.tree.count--
	if !d.sub {
		_, _ = unix.InotifyRmWatch(w.sys.fd, uint32(d.wd)) // fails for a deleted one: the kernel dropped it
		w.forgetLocked(d)
	}
}

// addLocked watches abs, returning its watch (a new one, or the one the
// directory has: one inode has one watch per instance, also under a new
// name after a move). nil, nil: the directory is gone or unreadable.
func (w *Watcher) addLocked(abs string) (*wdir, error) {
	if w.closed {
		return nil, errClosed
	}
	if d := w.sys.byPath[abs]; d != nil {
		return d, nil
	}
	wd, err := unix.InotifyAddWatch(w.sys.fd, abs, watchMask)
	switch {
	case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.EACCES):
		return nil, nil
	case errors.Is(err, unix.ENOSPC):
		return nil, errWatchLimit
	case err != nil:
		return nil, err
	}
	id := int32(wd)
	if d := w.sys.wds[id]; d != nil {
		if w.sys.byPath[d.path] == d {
			delete(w.sys.byPath, d.path) // the same directory, moved
		}
		d.path = abs
		w.sys.byPath[abs] = d
		return d, nil
	}
	d := &wdir{wd: id, path: abs}
	w.sys.wds[id], w.sys.byPath[abs] = d, d
	return d, nil
}

var errWatchLimit = errors.New("the inotify watch limit (fs.inotify.max_user_watches) is reached (raise it: sysctl fs.inotify.max_user_watches=524288)")

func (w *Watcher) addSubLocked(dir string) error {
	d, err := w.addLocked(dir)
	if err != nil {
		return err
	}
	if d == nil {
		return fmt.Errorf("%s: no such directory", dir)
	}
	d.sub = true
	return nil
}

func (w *Watcher) removeSubLocked(dir string) {
	d := w.sys.byPath[dir]
	if d == nil {
		return
	}
	d.sub = false
	if !d.tree {
		_, _ = unix.InotifyRmWatch(w.sys.fd, uint32(d.wd))
		w.forgetLocked(d)
	}
}

// treeDirLocked watches the directory rel for the tree.
func (w *Watcher) treeDirLocked(rel string) error {
	if w.tree.err != nil {
		return w.tree.err
	}
	abs := filepath.Join(w.root, filepath.FromSlash(rel))
	if d := w.sys.byPath[abs]; d != nil && d.tree {
		d.gen = w.sys.gen
		return nil
	}
	if w.tree.count >= w.o.MaxTreeDirs {
		return fmt.Errorf("the project has more than %d directories to watch", w.o.MaxTreeDirs)
	}
	d, err := w.addLocked(abs)
	if err != nil || d == nil {
		return err
	}
	d.gen = w.sys.gen
	if d.tree {
		return nil // the same directory, moved
	}
	d.tree = true
	w.tree.count++
	return nil
}

// walkTree watches rel (relative; "" is the root) and every directory
// below it that the walk keeps, each before it is read, calling visit for
// every entry kept. A failure to watch gives the tree up; a directory gone
// before it was read is no failure (its removal is an event of its own).
func (w *Watcher) walkTree(ctx context.Context, rel string, workers int, visit func(string, fs.DirEntry)) error {
	w.mu.Lock()
	werr := w.treeDirLocked(rel)
	w.mu.Unlock()
	var err error
	if werr == nil {
		err = WalkFilesUnder(ctx, w.root, filepath.Join(w.root, filepath.FromSlash(rel)), workers, func(r string, d fs.DirEntry) error {
			r = filepath.ToSlash(r)
			if visit != nil {
				visit(r, d)
			}
			if !d.IsDir() {
				return nil
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if e := w.treeDirLocked(r); e != nil {
				werr = e
				return e
			}
			return nil
		})
	}
	switch {
	case werr != nil && !errors.Is(werr, errClosed):
		w.giveUp(werr)
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.tree.err
	case werr != nil:
		return werr
	case err != nil && rel == "":
		return err
	}
	return ctx.Err()
}

// untreeAllLocked drops every watch held for the tree alone.
func (w *Watcher) untreeAllLocked() {
	for _, d := range w.sys.byPath {
		if d.tree {
			w.untreeLocked(d)
		}
	}
}

// rewatch walks the whole tree again with the rules as they are now (the
// ignore rules changed, events were lost), drops the watches of
// directories it no longer keeps, and says everything changed once it is
// done.
func (w *Watcher) rewatch(why string) {
	w.tree.walking.Lock()
	defer w.tree.walking.Unlock()
	w.mu.Lock()
	if w.closed || w.tree.err != nil {
		w.mu.Unlock()
		return
	}
	w.sys.gen++
	w.tree.ign = NewIgnorer(w.root)
	w.mu.Unlock()
	if err := w.walkTree(context.Background(), "", 2, nil); err != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range w.sys.byPath {
		if d.tree && d.gen != w.sys.gen {
			w.untreeLocked(d)
		}
	}
	w.allLocked(why)
}
