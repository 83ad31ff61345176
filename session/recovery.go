package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// Recovery keeps the project's unsaved editor buffers, one file per path,
// so that a fawn that ends without saving (a signal, a crash) loses nothing:
// the next start on the project offers them back.
type Recovery struct {
	dir string
	pid int
}

// Recovery returns the project's recovery files.
func (st *Store) Recovery() *Recovery {
	return &Recovery{dir: filepath.Join(st.dir, "recovery"), pid: os.Getpid()}
}

// Recovered is one unsaved buffer kept.
type Recovered struct {
	// Path is the file the buffer edits (absolute).
	Path string `json:"path"`
	// Text is the buffer's content when it is UTF-8, else Data.
	Text  string    `json:"text,omitempty"`
	Data  []byte    `json:"data,omitempty"`
	Saved time.Time `json:"saved"`
	PID   int       `json:"pid"`
}

// Content is the buffer's bytes.
func (r Recovered) Content() []byte {
	if r.Data != nil {
		return r.Data
	}
	return []byte(r.Text)
}

func (rc *Recovery) file(path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(rc.dir, hex.EncodeToString(sum[:8])+".json")
}

// Save keeps data as the unsaved content of path, replacing what was kept.
func (rc *Recovery) Save(path string, data []byte) error {
	r := Recovered{Path: path, Saved: time.Now(), PID: rc.pid}
	if utf8.Valid(data) {
		r.Text = string(data)
	} else {
		r.Data = data
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(rc.dir, 0o700); err != nil {
		return fmt.Errorf("session: recovery: %w", err)
	}
	dst := rc.file(path)
	tmp := fmt.Sprintf("%s.%d.tmp", dst, rc.pid)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("session: recovery: %w", err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("session: recovery: %w", err)
	}
	return nil
}

// Drop forgets the unsaved content of path (it was saved or discarded).
func (rc *Recovery) Drop(path string) error {
	err := os.Remove(rc.file(path))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// Pending returns the buffers kept by fawn processes that are no longer
// running (a running one still has its buffers open), oldest first.
func (rc *Recovery) Pending() ([]Recovered, error) {
	ents, err := os.ReadDir(rc.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session: recovery: %w", err)
	}
	var out []Recovered
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(rc.dir, e.Name()))
		if err != nil {
			continue
		}
		var r Recovered
		if json.Unmarshal(b, &r) != nil || r.Path == "" {
			continue
		}
		if r.PID != rc.pid && alive(r.PID) {
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Saved.Before(out[j].Saved) })
	return out, nil
}

// alive reports whether process pid runs.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
