package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// memBuffers is an editor's buffers over the disk: a read sees the buffer
// when there is one, a write lands in the buffer only (unsaved).
type memBuffers struct {
	mu     sync.Mutex
	files  map[string]string
	writes []string
}

func (b *memBuffers) ReadFile(_ context.Context, abs string) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s, ok := b.files[abs]; ok {
		return []byte(s), nil
	}
	return os.ReadFile(abs)
}

func (b *memBuffers) WriteFile(_ context.Context, abs string, data []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes = append(b.writes, abs)
	b.files[abs] = string(data)
	return nil
}

// changes records what a ChangeRecorder is told.
type changes struct {
	mu  sync.Mutex
	got []string
}

func (c *changes) Changed(_ context.Context, abs string, before, after []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, filepath.Base(abs)+": "+string(before)+" → "+string(after))
}

func (c *changes) CommandStarting(context.Context) func() []string {
	return func() []string { return nil }
}

func TestTextEditorThroughBuffers(t *testing.T) {
	env := newTestEnv(t, map[string]string{"a.txt": "disk\n", "bin.dat": "x\x00y"})
	buf := &memBuffers{files: map[string]string{filepath.Join(env.Root, "a.txt"): "buffer one\n"}}
	rec := &changes{}
	env.Buffers, env.Changes = buf, rec
	ed := NewTextEditor(env)

	if out := mustRun(t, ed, view("a.txt")); !strings.Contains(out, "buffer one") {
		t.Errorf("view: %q, want the buffer's text", out)
	}
	// The buffer changes after the view: the edit is refused, as a file
	// changed on disk would be.
	buf.files[filepath.Join(env.Root, "a.txt")] = "buffer two\n"
	if _, err := edRun(t, ed, &recorder{}, map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "two", "new_str": "2"}); err == nil || !strings.Contains(err.Error(), "view it again") {
		t.Errorf("an edit of a buffer changed since the view: %v", err)
	}
	mustRun(t, ed, view("a.txt"))
	mustRun(t, ed, map[string]any{"command": "str_replace", "path": "a.txt", "old_str": "two", "new_str": "2"})
	if got := buf.files[filepath.Join(env.Root, "a.txt")]; got != "buffer 2\n" {
		t.Errorf("buffer after the edit: %q", got)
	}
	if got := readFile(t, filepath.Join(env.Root, "a.txt")); got != "disk\n" {
		t.Errorf("the disk after the edit: %q", got)
	}
	mustRun(t, ed, map[string]any{"command": "undo_edit", "path": "a.txt"})
	if got := buf.files[filepath.Join(env.Root, "a.txt")]; got != "buffer two\n" {
		t.Errorf("buffer after the undo: %q", got)
	}
	if got := strings.Join(rec.got, "; "); got != "a.txt: buffer two\n → buffer 2\n; a.txt: buffer 2\n → buffer two\n" {
		t.Errorf("changes recorded: %q", got)
	}
	// A binary file is found on disk, the editor never asked.
	if _, err := edRun(t, ed, &recorder{}, view("bin.dat")); err == nil || !strings.Contains(err.Error(), "binary") {
		t.Errorf("view of a binary file: %v", err)
	}
	// A new file is created in the editor.
	mustRun(t, ed, map[string]any{"command": "create", "path": "new/b.txt", "file_text": "bee\n"})
	if got := buf.files[filepath.Join(env.Root, "new", "b.txt")]; got != "bee\n" {
		t.Errorf("created buffer: %q", got)
	}
	if _, err := os.Stat(filepath.Join(env.Root, "new", "b.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the new file is on disk (%v): the editor was to write it", err)
	}
}

func TestBuffersWriteObeysProjectRules(t *testing.T) {
	env := newTestEnv(t, nil)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(env.Root, "out")); err != nil {
		t.Fatal(err)
	}
	buf := &memBuffers{files: map[string]string{}}
	env.Buffers = buf
	ed := NewTextEditor(env)
	// The path as Resolve would have passed it before the link was
	// planted: the write itself still refuses it.
	_, err := ed.write(context.Background(), &edit{abs: filepath.Join(env.Root, "out", "x.txt"), rel: "out/x.txt", after: []byte("x\n")})
	if err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("a write through a link out of the project: %v", err)
	}
	if len(buf.writes) != 0 {
		t.Errorf("the editor was asked to write %v", buf.writes)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("x.txt outside: %v", err)
	}
}
