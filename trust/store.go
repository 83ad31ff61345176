package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// FileName is the store's file in the user's data directory.
const FileName = "trust.json"

// maxStore bounds the store's file: thousands of directories fit.
const maxStore = 32 << 20

// Store remembers, per project directory, the items the user trusted. It
// lives in the user's data directory (config.Config.DataDir), never in a
// project, so a project cannot trust itself. Several fawn processes may
// share it: every change is made under a lock and written atomically.
type Store struct {
	path string
}

// Open returns the store kept in dataDir. Nothing is read or created
// until it is used.
func Open(dataDir string) *Store {
	return &Store{path: filepath.Join(dataDir, FileName)}
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// file is the store's format on disk.
type file struct {
	Version int               `json:"version"`
	Dirs    map[string]*entry `json:"dirs"`
}

// entry is what the user trusted in one directory: the items as they were
// shown, so the file itself says what was allowed.
type entry struct {
	Granted time.Time `json:"granted"`
	Items   []Item    `json:"items"`
}

func (s *Store) read() (*file, error) {
	f := &file{Version: 1, Dirs: map[string]*entry{}}
	data, err := ReadFile(s.path, maxStore)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("trust: reading %s: %w", s.path, err)
	}
	if err := json.Unmarshal(data, f); err != nil {
		return &file{Version: 1, Dirs: map[string]*entry{}}, fmt.Errorf("trust: %s is not a trust store fawn can read (%v); nothing in it counts", s.path, err)
	}
	if f.Dirs == nil {
		f.Dirs = map[string]*entry{}
	}
	return f, nil
}

// Check compares the items of the project at dir with what the user
// trusted there. A store that cannot be read trusts nothing (the error
// says why).
func (s *Store) Check(dir string, items []Item) (Verdict, error) {
	if len(items) == 0 {
		return Verdict{State: NothingToTrust}, nil
	}
	dir, err := Resolve(dir)
	if err != nil {
		return Verdict{State: Untrusted, New: items}, err
	}
	f, err := s.read()
	e := f.Dirs[dir]
	if e == nil {
		return Verdict{State: Untrusted, New: items}, err
	}
	known := map[string]bool{}
	for _, it := range e.Items {
		known[it.Key()] = true
	}
	var fresh []Item
	for _, it := range items {
		if !known[it.Key()] {
			fresh = append(fresh, it)
		}
	}
	if len(fresh) > 0 {
		return Verdict{State: Changed, New: fresh}, err
	}
	return Verdict{State: Trusted}, err
}

// Grant remembers that the user trusts items in dir. They replace what was
// trusted there before: an item removed from the files since is no longer
// trusted should it come back.
func (s *Store) Grant(dir string, items []Item) error {
	dir, err := Resolve(dir)
	if err != nil {
		return err
	}
	return s.update(func(f *file) {
		f.Dirs[dir] = &entry{Granted: time.Now().UTC().Truncate(time.Second), Items: append([]Item(nil), items...)}
	})
}

// update changes the store under an exclusive lock and writes it atomically.
// A store that cannot be read is kept aside as trust.json.broken and
// started afresh.
func (s *Store) update(change func(*file)) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	lock, err := os.OpenFile(s.path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("trust: locking %s: %w", s.path, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing releases it too

	f, rerr := s.read()
	if rerr != nil {
		if _, statErr := os.Stat(s.path); statErr == nil {
			_ = os.Rename(s.path, s.path+".broken")
		}
	}
	change(f)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".trust-*.json")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	_, err = tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("trust: writing %s: %w", s.path, err)
	}
	return nil
}
