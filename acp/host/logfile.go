package host

import (
	"fmt"
	"os"
	"sync"
)

// logMax is the size an agent's log grows to before it is rotated: the
// protocol of a long day with a talkative agent runs to hundreds of
// megabytes, and only the recent part is read.
const logMax = 8 << 20

// rotatingLog is an agent's log file, appended to and, once it would pass
// max bytes, renamed to PATH.1 (the previous PATH.1 is dropped) and begun
// again, so it keeps at most about twice max on disk.
type rotatingLog struct {
	path string
	max  int64

	mu   sync.Mutex
	f    *os.File
	size int64
	err  error // why writing stopped, once it has
}

func openRotatingLog(path string, max int64) (*rotatingLog, error) {
	l := &rotatingLog{path: path, max: max}
	if err := l.open(); err != nil {
		return nil, err
	}
	if l.size >= max {
		l.rotate()
	}
	return l, l.err
}

func (l *rotatingLog) open() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return err
	}
	l.f, l.size = f, st.Size()
	return nil
}

// rotate moves the full file aside and opens a new one; a failure stops
// the log (the agent goes on) rather than growing it without bound.
func (l *rotatingLog) rotate() {
	_ = l.f.Close()
	l.f = nil
	if err := os.Rename(l.path, l.path+".1"); err != nil {
		l.err = fmt.Errorf("rotating the agent's log %s: %w", l.path, err)
		return
	}
	if err := l.open(); err != nil {
		l.err = fmt.Errorf("the agent's log %s: %w", l.path, err)
	}
}

func (l *rotatingLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil && l.size > 0 && l.size+int64(len(p)) > l.max {
		l.rotate()
	}
	if l.f == nil {
		return len(p), nil // dropped: see err
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return n, err
}

func (l *rotatingLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
