package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/project/projecttest"
)

func TestNewEnv(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	projecttest.WriteFiles(t, real, map[string]string{"f.txt": "x"})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	env, err := NewEnv(link)
	if err != nil {
		t.Fatal(err)
	}
	if env.Root != real {
		t.Errorf("Root = %q, want the resolved %q", env.Root, real)
	}
	if env.Files == nil || env.Todos == nil || env.Edits == nil {
		t.Errorf("NewEnv left state nil: %+v", env)
	}

	for _, tc := range []struct{ root, want string }{
		{"", "project root is empty"},
		{filepath.Join(real, "missing"), "does not exist"},
		{filepath.Join(real, "f.txt"), "is not a directory"},
	} {
		if _, err := NewEnv(tc.root); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewEnv(%q) = %v, want an error containing %q", tc.root, err, tc.want)
		}
	}

	// A relative root is made absolute.
	t.Chdir(real)
	env, err = NewEnv(".")
	if err != nil || env.Root != real {
		t.Errorf("NewEnv(\".\") = %v, %v; want root %s", env, err, real)
	}
}

func TestResolve(t *testing.T) {
	env, err := NewEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := env.Root
	outside := t.TempDir()
	projecttest.WriteFiles(t, root, map[string]string{"src/a.go": "", "real/x.txt": ""})
	projecttest.WriteFiles(t, outside, map[string]string{"secret.txt": ""})
	for name, target := range map[string]string{
		"etc":          "/etc",
		"src/up":       "../..",
		"inner":        "real",
		"out-file":     filepath.Join(outside, "secret.txt"),
		"dangling-out": filepath.Join(outside, "new.txt"),
		"dangling-in":  "real/new.txt",
		"loop1":        "loop2",
		"loop2":        "loop1",
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}

	ok := []struct{ in, want string }{
		{"src/a.go", filepath.Join(root, "src/a.go")},
		{"./src/../src/a.go", filepath.Join(root, "src/a.go")},
		{filepath.Join(root, "src/a.go"), filepath.Join(root, "src/a.go")},
		{".", root},
		{root, root},
		{"new/dir/file.txt", filepath.Join(root, "new/dir/file.txt")},
		{"inner/x.txt", filepath.Join(root, "real/x.txt")},
		{"inner/brand-new.txt", filepath.Join(root, "real/brand-new.txt")},
		{"dangling-in", filepath.Join(root, "real/new.txt")},
		{"src/a.go/child", filepath.Join(root, "src/a.go/child")},
	}
	for _, tc := range ok {
		got, err := env.Resolve(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}

	refused := []string{
		"../../etc/passwd",
		"..",
		"/etc/passwd",
		"etc",
		"etc/passwd",
		"etc/not-there-yet",
		"src/up/x",
		"out-file",
		"dangling-out",
		filepath.Join(outside, "secret.txt"),
	}
	for _, in := range refused {
		got, err := env.Resolve(in)
		want := in + " is outside the project " + root
		if err == nil || err.Error() != want {
			t.Errorf("Resolve(%q) = %q, %v; want error %q", in, got, err, want)
		}
	}

	for _, tc := range []struct{ in, want string }{
		{"", "path is empty"},
		{"  ", "path is empty"},
		{"a\x00b", "NUL"},
		{"loop1", "too many levels of symbolic links"},
		{"loop1/x", "too many levels of symbolic links"},
	} {
		if _, err := env.Resolve(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolve(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}

	if got := env.Rel(filepath.Join(root, "src/a.go")); got != "src/a.go" {
		t.Errorf("Rel = %q", got)
	}
	if got := env.Rel(root); got != "." {
		t.Errorf("Rel(root) = %q", got)
	}
}
