package monorepo

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/project"
)

// treeHash hashes every path and content below root, .git left out.
func treeHash(t *testing.T, root string) [32]byte {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" || d.Name() == Marker {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		h.Write([]byte(rel + "\x00"))
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// TestSmallFixture makes the small fixture and checks it is what Stats
// says: the file and directory counts, about 30% hidden by the project's
// own ignore rules (as fawn's walk reads them), the wide directory, the
// needle, the big files, and a history of Commits commits with a clean
// work tree.
func TestSmallFixture(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipped: git is not installed")
	}
	o := Small()
	root := t.TempDir()
	st, err := Generate(context.Background(), root, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != o.Files || st.Dirs != o.Dirs || st.Big != 2 || st.WideFiles != o.Files/10 || st.NeedleFiles == 0 {
		t.Fatalf("stats %+v for options %+v", st, o)
	}
	if st.Bytes < o.Bytes*9/10 || st.Bytes > o.Bytes*11/10 {
		t.Errorf("%d bytes made, %d asked", st.Bytes, o.Bytes)
	}
	kept, dirs, needles, wide := 0, 0, 0, 0
	err = project.WalkFiles(context.Background(), root, "", func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			dirs++
			return nil
		}
		if project.IsIgnoreFile(d.Name()) {
			return nil
		}
		kept++
		if filepath.Dir(rel) == filepath.FromSlash(st.Wide) {
			wide++
		}
		if !strings.HasSuffix(rel, ".png") && !strings.HasSuffix(rel, ".bin") {
			b, _ := os.ReadFile(filepath.Join(root, rel))
			if strings.Contains(string(b), st.Needle) {
				needles++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if kept != st.Kept {
		t.Errorf("fawn's walk keeps %d files, the fixture says %d", kept, st.Kept)
	}
	if hidden := float64(st.Files-kept) / float64(st.Files); hidden < 0.25 || hidden > 0.35 {
		t.Errorf("%.0f%% of the files hidden, want about 30%%", hidden*100)
	}
	if wide != st.WideFiles || needles < st.NeedleFiles {
		t.Errorf("wide directory: %d files (want %d); needle in %d files (want ≥ %d)", wide, st.WideFiles, needles, st.NeedleFiles)
	}
	out, err := exec.Command("git", "-C", root, "rev-list", "--count", "HEAD").Output()
	if err != nil || strings.TrimSpace(string(out)) != "5" {
		t.Errorf("git rev-list --count HEAD: %q, %v; want 5", out, err)
	}
	out, err = exec.Command("git", "-C", root, "status", "--porcelain").Output()
	if err != nil || len(out) != 0 {
		t.Errorf("the work tree is not clean after the history: %q, %v", out, err)
	}

	// Generate again with the same options: found, not made again.
	again, err := Generate(context.Background(), root, o)
	if err != nil || again != st {
		t.Errorf("the second Generate: %+v, %v; want %+v", again, err, st)
	}
}

// TestSameSeedSameTree: two fixtures of the same options are the same
// bytes; another seed is another tree.
func TestSameSeedSameTree(t *testing.T) {
	o := Options{Files: 600, Dirs: 60, Bytes: 600 << 10, Seed: 7}
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if _, err := Generate(context.Background(), d, o); err != nil {
			t.Fatal(err)
		}
	}
	o.Seed = 8
	if _, err := Generate(context.Background(), c, o); err != nil {
		t.Fatal(err)
	}
	if treeHash(t, a) != treeHash(t, b) {
		t.Error("the same options made different trees")
	}
	if treeHash(t, a) == treeHash(t, c) {
		t.Error("another seed made the same tree")
	}
}

// TestRefusesForeignDirectory: a directory with files the generator did
// not make is left alone.
func TestRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.txt")
	os.WriteFile(mine, []byte("mine"), 0o644)
	_, err := Generate(context.Background(), dir, Options{Files: 100, Dirs: 10, Bytes: 100 << 10, Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "not made by this generator") {
		t.Fatalf("Generate in a foreign directory: %v", err)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "mine" {
		t.Fatalf("the user's file: %q, %v", b, err)
	}
}
