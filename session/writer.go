package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Writer appends to one session's transcript. It holds the file's lock until
// Close, so no other fawn process writes the same session. Its methods are
// safe from any goroutine.
type Writer struct {
	st   *Store
	id   string
	mu   sync.Mutex
	f    *os.File
	info Info
	size int64
	err  error // the first write error; later appends fail with it
}

// Create starts a new session file with header h (ID, Parent; the rest is
// filled in) and returns its writer. A header without an ID gets a new one.
func (st *Store) Create(h Record) (*Writer, error) {
	if err := st.ensureDir(); err != nil {
		return nil, err
	}
	if h.ID == "" {
		h.ID = NewID()
	}
	if !validID(h.ID) {
		return nil, fmt.Errorf("session: %q is not a session ID", h.ID)
	}
	now := time.Now()
	h.Type, h.Version, h.Project = TypeSession, Version, st.project
	if h.Time.IsZero() {
		h.Time = now
	}
	if h.Created.IsZero() {
		h.Created = h.Time
	}
	if h.Fawn == "" {
		h.Fawn = st.fawn
	}
	path := st.Path(h.ID)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("session: creating %s: %w", path, err)
	}
	if err := lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("session: locking %s: %w", path, err)
	}
	w := &Writer{st: st, id: h.ID, f: f, info: Info{ID: h.ID, Project: st.project, Parent: h.Parent, Title: h.Title, Created: h.Created, Updated: h.Time, Path: path}}
	if err := w.Append(h); err != nil {
		w.Close()
		return nil, err
	}
	if err := w.Sync(); err != nil {
		w.Close()
		return nil, err
	}
	syncDir(st.dir) // the new name survives a crash of the machine too
	return w, nil
}

// Open opens session id for writing: it takes the file's lock (ErrLocked
// when another fawn has it), replays it, and cuts off a torn last line so
// the next record starts on a line of its own.
func (st *Store) Open(id string) (*Log, *Writer, error) { return st.open(id, false) }

// OpenLazy is Open for a resume that shows the session before it has
// decoded all of it: the log's Transcript holds the last entries of the
// chat, its Messages may wait (MessagesLater), and Whole decodes the rest
// from the bytes read here. Everything else is as Open has it.
func (st *Store) OpenLazy(id string) (*Log, *Writer, error) { return st.open(id, true) }

func (st *Store) open(id string, lazy bool) (*Log, *Writer, error) {
	if !validID(id) {
		return nil, nil, fmt.Errorf("%q is not a session ID", id)
	}
	path := st.Path(id)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("session: %w", err)
	}
	if err := lock(f); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, nil, fmt.Errorf("%w: %s", ErrLocked, id)
		}
		return nil, nil, fmt.Errorf("session: locking %s: %w", path, err)
	}
	var l *Log
	if lazy {
		var data []byte
		if data, err = readAll(f); err == nil {
			l, err = readLazy(data, path)
		}
	} else {
		l, err = read(f, path)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > l.good {
		if err := f.Truncate(l.good); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("session: cutting the torn end of %s: %w", path, err)
		}
	}
	if l.needNL {
		if _, err := f.Write([]byte{'\n'}); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("session: %w", err)
		}
		l.good++
	}
	l.Info.Size = l.good
	l.Info.Path = path
	w := &Writer{st: st, id: id, f: f, info: l.Info, size: l.good}
	return l, w, nil
}

// readAll reads f whole, in one buffer of its size.
func readAll(f *os.File) ([]byte, error) {
	size := 512
	if fi, err := f.Stat(); err == nil {
		size += int(fi.Size())
	}
	data := make([]byte, 0, size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, fmt.Errorf("session: reading %s: %w", f.Name(), err)
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // it grew: room for more
		}
	}
}

// Fork starts a new session that carries on from l, which another process
// is writing: its conversation, system prompt, model, to-dos and workspace
// (and the blobs its messages name) are copied into the new file.
func (st *Store) Fork(l *Log) (*Writer, error) {
	w, err := st.Create(Record{Parent: l.Header.ID, Title: l.Info.Title})
	if err != nil {
		return nil, err
	}
	now := time.Now()
	var recs []Record
	if l.System != "" {
		recs = append(recs, Record{Type: TypeSystem, Time: now, Prompt: l.System, Tools: l.SystemTools})
	}
	if l.Model != "" {
		recs = append(recs, Record{Type: TypeModel, Time: now, Model: l.Model})
	}
	src, dst := st.Blobs(l.Header.ID), st.Blobs(w.id)
	for _, m := range l.Messages {
		for _, p := range m.Parts {
			if p.Blob != "" {
				_ = dst.copyFrom(src, p.Blob)
			}
		}
	}
	recs = append(recs, Record{Type: TypeHistory, Time: now, Messages: l.Messages})
	if len(l.Todos) > 0 {
		recs = append(recs, Record{Type: TypeTodos, Time: now, Todos: l.Todos})
	}
	if ws := l.Workspace; ws != nil {
		recs = append(recs, Record{Type: TypeWorkspace, Time: now, Tabs: ws.Tabs, Cwd: ws.Cwd})
	}
	if err := w.Append(recs...); err != nil {
		w.Close()
		return nil, err
	}
	if err := w.Sync(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// ID is the session's ID.
func (w *Writer) ID() string { return w.id }

// Path is the transcript's file.
func (w *Writer) Path() string { return w.info.Path }

// Blobs is the session's blob store.
func (w *Writer) Blobs() *Blobs { return w.st.Blobs(w.id) }

// Info describes the session as written so far.
func (w *Writer) Info() Info {
	w.mu.Lock()
	defer w.mu.Unlock()
	in := w.info
	in.Size = w.size
	return in
}

// Append writes recs, each a line, in one write. Records without a time get
// the current one. Nothing is synced: see Sync.
func (w *Writer) Append(recs ...Record) error {
	if len(recs) == 0 {
		return nil
	}
	var buf bytes.Buffer
	now := time.Now()
	for i := range recs {
		r := &recs[i]
		if r.Time.IsZero() {
			r.Time = now
		}
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("session: encoding a %s record: %w", r.Type, err)
		}
		buf.Write(w.st.redact(b))
		buf.WriteByte('\n')
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return errors.New("session: the session is closed")
	}
	if w.err != nil {
		return w.err
	}
	n, err := w.f.Write(buf.Bytes())
	w.size += int64(n)
	if err != nil {
		w.err = fmt.Errorf("session: writing %s: %w", w.info.Path, err)
		return w.err
	}
	for i := range recs {
		w.note(&recs[i])
	}
	return nil
}

// note keeps the session's summary current.
func (w *Writer) note(r *Record) {
	in := &w.info
	in.Updated = r.Time
	switch r.Type {
	case TypeMessage:
		in.Messages++
		if in.Title == "" && r.Message != nil && r.Message.Role == "user" {
			in.Title = Title(r.Message.Shown())
		}
	case TypeModel:
		in.Model = r.Model
	case TypeTurn:
		in.Turns++
		if r.Model != "" {
			in.Model = r.Model
		}
		if u := r.Usage; u != nil {
			in.Input += u.Input
			in.Output += u.Output
		}
	}
}

// Sync flushes the transcript to the disk and rewrites the summary beside it.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("session: syncing %s: %w", w.info.Path, err)
	}
	in := w.info
	in.Size = w.size
	w.st.writeMeta(in)
	return nil
}

// Close syncs, releases the lock and closes the file. It is safe to call
// more than once.
func (w *Writer) Close() error {
	err := w.Sync()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return err
	}
	_ = unlock(w.f)
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	w.f = nil
	return err
}

// redact replaces every secret in a line.
func (st *Store) redact(b []byte) []byte {
	for _, s := range st.secrets {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, []byte("[redacted]"))
		}
	}
	return b
}

func lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Remove deletes session id: its transcript, summary and blobs. A session
// open in another fawn is refused (ErrLocked).
func (st *Store) Remove(id string) error {
	if !validID(id) {
		return fmt.Errorf("%q is not a session ID", id)
	}
	f, err := os.OpenFile(st.Path(id), os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	defer f.Close()
	if err := lock(f); err != nil {
		return fmt.Errorf("%w: %s", ErrLocked, id)
	}
	_ = os.Remove(st.metaPath(id))
	_ = os.RemoveAll(filepath.Join(st.dir, id))
	return os.Remove(st.Path(id))
}
