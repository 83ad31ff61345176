package trust

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Every reader refuses what is not a regular file, without blocking on a
// FIFO (nobody ever writes to it) and without reading /dev/zero, which
// never ends; the error names the file.
func TestReadFileOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.yaml")
	if err := os.WriteFile(plain, []byte("ui:\n  theme: light\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(plain, link); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want, err string }{
		{plain, "ui:\n  theme: light\n", ""},
		{link, "ui:\n  theme: light\n", ""}, // the user's own symlinks are theirs
		{fifo, "", "config.yaml is a named pipe (FIFO), not a regular file"},
		{zero, "", "zero.yaml is a character device, not a regular file"},
		{dir, "", filepath.Base(dir) + " is a directory, not a regular file"},
		{big, "", "big.yaml is larger than 1 KiB"},
	} {
		got, err := ReadFile(c.path, 1024)
		if c.err == "" && (err != nil || string(got) != c.want) {
			t.Errorf("%s: %q, %v", c.path, got, err)
		}
		if c.err != "" {
			var fe *FileError
			if err == nil || !strings.Contains(err.Error(), c.err) || !errors.As(err, &fe) {
				t.Errorf("%s: error %v, want %q", c.path, err, c.err)
			}
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 1024); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// A project's FIFO and a project symlink to /dev/zero are refused too: the
// one because it is no regular file, the other because it leads outside.
func TestReadProjectFileRefusesPipesAndDevices(t *testing.T) {
	project := t.TempDir()
	fifo := filepath.Join(project, "AGENTS.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(project, "CLAUDE.md")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadProjectFile(project, fifo, 1<<20); err == nil || !strings.Contains(err.Error(), "AGENTS.md is a named pipe (FIFO)") {
		t.Errorf("FIFO: %v", err)
	}
	if _, err := ReadProjectFile(project, zero, 1<<20); err == nil || !strings.Contains(err.Error(), "links outside the project (to /dev/zero)") {
		t.Errorf("/dev/zero: %v", err)
	}
}
