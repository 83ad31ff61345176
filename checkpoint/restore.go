package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"time"

	"github.com/fawn-ide/fawn/project"
)

// File is one file changed in the session, as a whole.
type File struct {
	Path string
	// Original is the file before the session's first change to it; Latest
	// after its last.
	Original, Latest Version
	// By is who changed it last; Turn the turn of that change.
	By   string
	Turn int
	Time time.Time
}

// Files returns every file changed in the session, most recently changed
// first.
func (b *Book) Files() []File {
	b.mu.Lock()
	defer b.mu.Unlock()
	byPath := map[string]*File{}
	var order []*File
	for _, t := range b.turns {
		for _, c := range t.Changes {
			f := byPath[c.Path]
			if f == nil {
				f = &File{Path: c.Path, Original: c.Before}
				byPath[c.Path] = f
				order = append(order, f)
			}
			f.Latest, f.By, f.Turn, f.Time = c.After, c.By, t.ID, c.Time
		}
	}
	out := make([]File, 0, len(order))
	for _, f := range order {
		if f.Original.Same(f.Latest) {
			continue // changed and changed back
		}
		out = append(out, *f)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.After(out[j].Time) })
	return out
}

// Conflict is a file a restore left alone because it is on disk neither as
// the book last recorded it nor as the restore would make it: someone
// changed it by hand since. The caller shows the three versions and asks.
type Conflict struct {
	Path string
	// Want is the version the restore would write, Recorded the one the
	// book last recorded, Disk what is there now.
	Want, Recorded, Disk Version
}

// Result says what a restore did.
type Result struct {
	// Turn is the turn recording the restore (0: nothing was written).
	Turn      int
	Restored  []string
	Conflicts []Conflict
	// Lost are files that cannot be put back, with why (Version.Note).
	Lost []Change
}

// target is one file a restore puts back.
type target struct {
	path     string
	want     Version
	recorded Version
}

// Rewind puts every file changed in turn id and after it back as it was
// before turn id. Files in force are written even when they conflict.
func (b *Book) Rewind(id int, force map[string]bool) (Result, error) {
	b.mu.Lock()
	var ts []target
	idx := map[string]int{}
	messages := 0
	found := false
	for _, t := range b.turns {
		if t.ID == id {
			found, messages = true, t.Messages
		}
		if t.ID < id {
			continue
		}
		for _, c := range t.Changes {
			if i, ok := idx[c.Path]; ok {
				ts[i].recorded = c.After
				continue
			}
			idx[c.Path] = len(ts)
			ts = append(ts, target{path: c.Path, want: c.Before, recorded: c.After})
		}
	}
	b.mu.Unlock()
	if !found {
		return Result{}, fmt.Errorf("checkpoint: no turn %d", id)
	}
	return b.restore(KindRewind, id, messages, ts, force)
}

// Undo takes back the changes of turn id (a rewind, a revert): each file
// it changed goes back to how it was before.
func (b *Book) Undo(id int, force map[string]bool) (Result, error) {
	b.mu.Lock()
	t := b.turnLocked(id)
	if t == nil {
		b.mu.Unlock()
		return Result{}, fmt.Errorf("checkpoint: no turn %d", id)
	}
	var ts []target
	idx := map[string]int{}
	for _, c := range t.Changes {
		if i, ok := idx[c.Path]; ok {
			ts[i].recorded = c.After
			continue
		}
		idx[c.Path] = len(ts)
		ts = append(ts, target{path: c.Path, want: c.Before, recorded: c.After})
	}
	// What is on disk now should be the last recorded version of each.
	for i := range ts {
		ts[i].recorded = b.latestLocked(ts[i].path, ts[i].recorded)
	}
	b.mu.Unlock()
	return b.restore(KindUndo, id, 0, ts, force)
}

// RevertFile puts one file back as it was before the session changed it.
func (b *Book) RevertFile(path string, force bool) (Result, error) {
	for _, f := range b.Files() {
		if f.Path == path {
			return b.restore(KindRevert, 0, 0, []target{{path: path, want: f.Original, recorded: f.Latest}}, map[string]bool{path: force})
		}
	}
	return Result{}, fmt.Errorf("checkpoint: %s was not changed in this session", path)
}

// Write puts content into the file at path (a hunk reverted: the caller
// computed the content), recorded as a revert. It conflicts like a restore
// when the file is not as the book last recorded it.
func (b *Book) Write(path string, content []byte, force bool) (Result, error) {
	b.mu.Lock()
	rec := b.latestLocked(path, Version{})
	mode := rec.Mode
	want := b.keepLocked(content, true, mode)
	b.mu.Unlock()
	if !want.Kept {
		return Result{}, fmt.Errorf("checkpoint: %s: %s", path, want.Note)
	}
	return b.restore(KindRevert, 0, 0, []target{{path: path, want: want, recorded: rec}}, map[string]bool{path: force})
}

func (b *Book) latestLocked(path string, def Version) Version {
	for i := len(b.turns) - 1; i >= 0; i-- {
		cs := b.turns[i].Changes
		for j := len(cs) - 1; j >= 0; j-- {
			if cs[j].Path == path {
				return cs[j].After
			}
		}
	}
	return def
}

// restore writes each target's wanted version, recorded as a new turn.
func (b *Book) restore(kind string, of, messages int, ts []target, force map[string]bool) (Result, error) {
	var res Result
	type write struct {
		t    target
		disk Version
		data []byte
	}
	var ws []write
	for _, t := range ts {
		abs := b.Abs(t.path)
		if _, ok := b.rel(abs); !ok {
			continue
		}
		disk, err := diskVersion(abs)
		if err != nil {
			return res, fmt.Errorf("checkpoint: %s: %w", t.path, err)
		}
		if disk.Same(t.want) {
			continue
		}
		if !t.want.Restorable() {
			res.Lost = append(res.Lost, Change{Path: t.path, Before: t.want, After: disk})
			continue
		}
		if !disk.Same(t.recorded) && !force[t.path] {
			disk.Mode = 0
			res.Conflicts = append(res.Conflicts, Conflict{Path: t.path, Want: t.want, Recorded: t.recorded, Disk: disk})
			continue
		}
		var data []byte
		if t.want.Exists {
			if data, err = b.Content(t.want); err != nil {
				return res, fmt.Errorf("checkpoint: %s: %w", t.path, err)
			}
		}
		ws = append(ws, write{t: t, disk: disk, data: data})
	}
	if len(ws) == 0 {
		return res, nil
	}
	b.mu.Lock()
	turn := b.beginLocked(kind, "", messages, of)
	b.mu.Unlock()
	res.Turn = turn.ID
	now := time.Now().UTC()
	var firstErr error
	for _, w := range ws {
		abs := b.Abs(w.t.path)
		if w.disk.Exists {
			// Keep what is overwritten, so the restore can be undone.
			if data, st, err := readFile(abs); err == nil {
				b.mu.Lock()
				w.disk = b.keepLocked(data, true, st.mode)
				b.mu.Unlock()
			}
		}
		var err error
		if w.t.want.Exists {
			_, err = project.WriteFile(b.root, abs, w.data, project.WriteOptions{Mode: fs.FileMode(w.t.want.Mode)})
		} else {
			err = os.Remove(abs)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("checkpoint: restoring %s: %w", w.t.path, err)
			}
			continue
		}
		st, _ := lstamp(abs)
		b.mu.Lock()
		before := w.disk
		c := Change{Path: w.t.path, By: ByRewind, Time: now, Before: before, After: w.t.want}
		b.rememberLocked(w.t.path, w.t.want, st)
		b.addLocked(c)
		b.mu.Unlock()
		res.Restored = append(res.Restored, w.t.path)
	}
	return res, firstErr
}

// diskVersion is the file at abs as it is now (hashed; its bytes not kept).
func diskVersion(abs string) (Version, error) {
	data, st, err := readFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return Version{}, nil
	}
	if err != nil {
		return Version{}, err
	}
	sum := sha256.Sum256(data)
	return Version{Exists: true, Hash: hex.EncodeToString(sum[:]), Size: int64(len(data)), Mode: st.mode, Binary: isBinary(data)}, nil
}
