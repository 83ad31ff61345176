package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"
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
	// Text is the buffer's content in a file an older fawn kept as JSON
	// when it was UTF-8; Data holds it otherwise.
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

// A recovery file is one line of JSON (the Recovered fields but the
// content) and then the buffer's bytes as they are: a save of a big buffer
// writes it without copying or escaping it (as JSON it cost eight times
// the buffer in allocations at every keep).
const recExt = ".rec"

// legacyExt is the whole-JSON file of older versions, still read and
// dropped.
const legacyExt = ".json"

func (rc *Recovery) file(path, ext string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(rc.dir, hex.EncodeToString(sum[:8])+ext)
}

// Save keeps data as the unsaved content of path, replacing what was kept.
func (rc *Recovery) Save(path string, data []byte) error {
	head, err := json.Marshal(Recovered{Path: path, Saved: time.Now(), PID: rc.pid})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(rc.dir, 0o700); err != nil {
		return fmt.Errorf("session: recovery: %w", err)
	}
	dst := rc.file(path, recExt)
	tmp := fmt.Sprintf("%s.%d.tmp", dst, rc.pid)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("session: recovery: %w", err)
	}
	_, err = f.Write(append(head, '\n'))
	if err == nil {
		_, err = f.Write(data)
	}
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
	// What an older version kept for path is older than this.
	if err := os.Remove(rc.file(path, legacyExt)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("session: recovery: %w", err)
	}
	return nil
}

// Drop forgets the unsaved content of path (it was saved or discarded).
func (rc *Recovery) Drop(path string) error {
	for _, ext := range []string{recExt, legacyExt} {
		if err := os.Remove(rc.file(path, ext)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
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
		r, ok := readRecovered(filepath.Join(rc.dir, e.Name()))
		if !ok {
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

// readRecovered reads one recovery file of either format; a torn or
// foreign file is passed over.
func readRecovered(name string) (Recovered, bool) {
	var r Recovered
	ext := filepath.Ext(name)
	if ext != recExt && ext != legacyExt {
		return r, false
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return r, false
	}
	if ext == legacyExt {
		return r, json.Unmarshal(b, &r) == nil && r.Path != ""
	}
	head, body, ok := bytes.Cut(b, []byte{'\n'})
	if !ok || json.Unmarshal(head, &r) != nil || r.Path == "" {
		return r, false
	}
	r.Text, r.Data = "", body
	return r, true
}

// alive reports whether process pid runs.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
