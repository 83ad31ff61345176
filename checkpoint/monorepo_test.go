package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/monorepo"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/session"
)

// TestCommandOnSmallMonorepo: on the small monorepo fixture (5,000 files,
// a git history), the book watches the tree after the first command and a
// command that edits a tracked file, makes one in the wide directory,
// deletes one and writes an ignored log is recorded as exactly the three
// kept changes; the edited file's content before comes from git's index.
func TestCommandOnSmallMonorepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipped: git is not installed")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st, err := monorepo.Generate(context.Background(), root, monorepo.Small())
	if err != nil {
		t.Fatal(err)
	}
	ss, err := session.New(t.TempDir(), root, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pw := project.NewWatcher(root, project.WatchOptions{})
	defer pw.Close()
	bk, err := Open(filepath.Join(ss.Dir(), "s1"), root, ss.Blobs("s1"), Options{Watch: pw})
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	bk.Begin("work", 0)
	bk.CommandStarting(context.Background())() // starts watching
	if mode := bk.ScanMode(); !strings.HasPrefix(mode, "watching") {
		t.Skipf("skipped: the book does not watch here: %s", mode)
	}

	edited := filepath.Join("src", "f000000.go")
	old, err := os.ReadFile(filepath.Join(root, edited))
	if err != nil {
		t.Fatal(err)
	}
	made := filepath.Join(st.Wide, "made.go")
	gone := filepath.Join(st.Wide, "gen_000001.go")
	ended := bk.CommandStarting(context.Background())
	os.WriteFile(filepath.Join(root, edited), append(old, "// edited\n"...), 0o644)
	os.WriteFile(filepath.Join(root, made), []byte("package generated\n"), 0o644)
	os.Remove(filepath.Join(root, gone))
	os.WriteFile(filepath.Join(root, "src", "debug.log"), []byte("ignored\n"), 0o644)
	changed := ended()

	want := []string{filepath.Join(root, edited), filepath.Join(root, gone), filepath.Join(root, made)}
	slices.Sort(want)
	slices.Sort(changed)
	if !slices.Equal(changed, want) {
		t.Fatalf("changed %q, want %q", changed, want)
	}
	for _, c := range bk.Turns()[0].Changes {
		if c.Path != filepath.ToSlash(edited) {
			continue
		}
		before, err := bk.Content(c.Before)
		if err != nil || string(before) != string(old) {
			t.Fatalf("the edited file's content before: %q, %v (note %q)", before, err, c.Before.Note)
		}
		return
	}
	t.Fatalf("no change recorded for %s: %+v", edited, bk.Turns()[0].Changes)
}
