package tools

import (
	"sync"
	"time"
)

// FileStamp is what the agent last saw of a file.
type FileStamp struct {
	ModTime time.Time
	Size    int64
	Hash    [32]byte // sha256 of the content as read
}

// FileTracker records, per absolute path, the file as the agent last read or
// wrote it, so an edit can refuse when the file changed on disk since.
type FileTracker struct {
	mu     sync.Mutex
	stamps map[string]FileStamp
}

// NewFileTracker returns an empty tracker.
func NewFileTracker() *FileTracker {
	return &FileTracker{stamps: map[string]FileStamp{}}
}

// Set records st for path.
func (t *FileTracker) Set(path string, st FileStamp) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stamps[path] = st
}

// Get returns the stamp recorded for path.
func (t *FileTracker) Get(path string) (FileStamp, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st, ok := t.stamps[path]
	return st, ok
}

// Forget drops what is known of path.
func (t *FileTracker) Forget(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.stamps, path)
}

// TodoStore holds the session's to-do list; todo_write replaces it whole.
type TodoStore struct {
	mu    sync.Mutex
	items []Todo
}

// Items returns a copy of the list.
func (s *TodoStore) Items() []Todo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Todo(nil), s.items...)
}

// Replace sets the list.
func (s *TodoStore) Replace(items []Todo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = append([]Todo(nil), items...)
}

// Open counts the items not completed or cancelled.
func (s *TodoStore) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, it := range s.items {
		if it.Status == "pending" || it.Status == "in_progress" {
			n++
		}
	}
	return n
}

// Bounds of the undo history: enough for the agent to walk back a few steps
// on each file, without keeping every version of a large file forever.
const (
	maxUndoPerFile = 20
	maxUndoBytes   = 64 << 20
)

// EditRecord is one write the agent made to a file.
type EditRecord struct {
	// Before is the file's content before the write; nil when the write created it.
	Before []byte
	// After is the sha256 of what was written, so undo can tell whether
	// someone changed the file since.
	After   [32]byte
	Command string // create, str_replace, insert
	seq     uint64
}

// EditHistory keeps, per absolute path, the agent's recent writes for
// text_editor undo_edit.
type EditHistory struct {
	mu    sync.Mutex
	files map[string][]EditRecord
	bytes int
	seq   uint64
}

// NewEditHistory returns an empty history.
func NewEditHistory() *EditHistory {
	return &EditHistory{files: map[string][]EditRecord{}}
}

// Push records a write to path, dropping the oldest records beyond the bounds.
func (h *EditHistory) Push(path string, rec EditRecord) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	rec.seq = h.seq
	recs := append(h.files[path], rec)
	h.bytes += len(rec.Before)
	if len(recs) > maxUndoPerFile {
		h.bytes -= len(recs[0].Before)
		recs = recs[1:]
	}
	h.files[path] = recs
	for h.bytes > maxUndoBytes && h.dropOldest() {
	}
}

// dropOldest removes the oldest record of all files.
func (h *EditHistory) dropOldest() bool {
	var oldest string
	var seq uint64
	for p, recs := range h.files {
		if len(recs) > 0 && (seq == 0 || recs[0].seq < seq) {
			oldest, seq = p, recs[0].seq
		}
	}
	if seq == 0 {
		return false
	}
	recs := h.files[oldest]
	h.bytes -= len(recs[0].Before)
	if len(recs) == 1 {
		delete(h.files, oldest)
	} else {
		h.files[oldest] = recs[1:]
	}
	return true
}

// Last returns the most recent write to path and how many are recorded.
func (h *EditHistory) Last(path string) (EditRecord, int, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	recs := h.files[path]
	if len(recs) == 0 {
		return EditRecord{}, 0, false
	}
	return recs[len(recs)-1], len(recs), true
}

// Pop removes the most recent write to path.
func (h *EditHistory) Pop(path string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	recs := h.files[path]
	if len(recs) == 0 {
		return
	}
	h.bytes -= len(recs[len(recs)-1].Before)
	if len(recs) == 1 {
		delete(h.files, path)
	} else {
		h.files[path] = recs[:len(recs)-1]
	}
}
