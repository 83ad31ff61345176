package project

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeFile(t *testing.T, path, data string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemps fails if a write left a temporary file in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".fawn-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestWriteFileKeepsModeAndReplacesWhole(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "run.sh")
	writeFile(t, p, "old\n", 0o750|fs.ModeSetgid)
	before, _ := os.Stat(p)
	fi, err := WriteFile(root, "run.sh", []byte("new\n"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readString(t, p); got != "new\n" {
		t.Errorf("content %q, want new", got)
	}
	if got := fi.Mode() & keptMode; got != 0o750|fs.ModeSetgid {
		t.Errorf("mode %v, want %v", got, 0o750|fs.ModeSetgid)
	}
	if os.SameFile(before, fi) {
		t.Error("the file was rewritten in place; a reader could see half of it")
	}
	noTemps(t, root)
}

func TestWriteFileNewFileInNewDirs(t *testing.T) {
	root := t.TempDir()
	fi, err := WriteFile(root, filepath.Join(root, "a", "b", "c.txt"), []byte("x"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", fi.Mode().Perm())
	}
	fi, err = WriteFile(root, "d.sh", []byte("x"), WriteOptions{Mode: 0o700})
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("mode given 0700, got %v", fi.Mode().Perm())
	}
}

func TestWriteFileThroughSymlinkInsideProject(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "real", "f.txt"), "old", 0o640)
	link := filepath.Join(root, "link.txt")
	if err := os.Symlink(filepath.Join("real", "f.txt"), link); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFile(root, link, []byte("new"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file; it should stay a link")
	}
	if got := readString(t, filepath.Join(root, "real", "f.txt")); got != "new" {
		t.Errorf("target holds %q, want new", got)
	}
	if fi, _ := os.Stat(link); fi.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v, want 0640", fi.Mode().Perm())
	}
}

func TestWriteFileRefusesToLeaveTheProject(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	writeFile(t, victim, "precious", 0o644)
	if err := os.Symlink(victim, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "new"), filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"link", "dir/victim", "dir/sub/new", "dangling", "../" + filepath.Base(outside) + "/victim"} {
		_, err := WriteFile(root, p, []byte("pwned"), WriteOptions{})
		if err == nil || !strings.Contains(err.Error(), "outside the project") {
			t.Errorf("%s: err %v, want a refusal to write outside the project", p, err)
		}
	}
	if got := readString(t, victim); got != "precious" {
		t.Errorf("the file outside the project holds %q", got)
	}
	for _, p := range []string{filepath.Join(outside, "new"), filepath.Join(outside, "sub")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created outside the project", p)
		}
	}
}

func TestWriteFileRefusesNonRegular(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"fifo", "dir"} {
		if _, err := WriteFile(root, p, []byte("x"), WriteOptions{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: err %v, want not a regular file", p, err)
		}
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	noTemps(t, root)
}

func TestWriteFileInPlaceInReadOnlyDir(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "ro")
	p := filepath.Join(dir, "f.txt")
	writeFile(t, p, "old", 0o644)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if _, err := WriteFile(root, p, []byte("atomic"), WriteOptions{}); err == nil {
		t.Error("an atomic write into a read-only directory succeeded")
	}
	if got := readString(t, p); got != "old" {
		t.Errorf("failed write changed the file to %q", got)
	}
	if _, err := WriteFile(root, p, []byte("in place"), WriteOptions{InPlace: true}); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, p); got != "in place" {
		t.Errorf("file holds %q, want in place", got)
	}
}
