package gitcmd

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Nothing in fawn but this package starts git: a new caller that reaches
// for os/exec directly fails here, and is pointed at Git.Command.
func TestOnlyGitcmdStartsGit(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module's root is not at %s: %v", root, err)
	}
	starts := regexp.MustCompile(`exec\.Command(Context)?\([^)]*"git"`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "third_party", "testdata", "gitcmd":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if loc := starts.FindIndex(b); loc != nil {
			t.Errorf("%s starts git itself (%q): run it through gitcmd.Git.Command", path, b[loc[0]:loc[1]])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
