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
