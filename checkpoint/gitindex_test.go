package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The index is read in a repository whose config names programs git would
// run: a file-system monitor, a clean filter, and a partial clone's lazy
// fetch through the ext:: transport, which runs a command for the object
// the index names but the repository lacks. None of them runs, and the
// lookup still reads what it can.
func TestGitIndexRunsNoRepositoryProgram(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("OPENAI_API_KEY", "sk-checkpoint-secret")
	root := t.TempDir()
	markers := t.TempDir()
	for name, text := range map[string]string{"kept.txt": "kept\n", "lost.txt": "lost\n", ".gitattributes": "*.txt filter=evil\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, root, "init", "-q")
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "x")
	// lost.txt's blob goes: only the promisor remote could give it back.
	out, err := exec.Command("git", "-C", root, "rev-parse", ":lost.txt").Output()
	if err != nil {
		t.Fatal(err)
	}
	obj := strings.TrimSpace(string(out))
	if err := os.Remove(filepath.Join(root, ".git", "objects", obj[:2], obj[2:])); err != nil {
		t.Fatal(err)
	}
	run := func(name string) string {
		return "env > " + filepath.Join(markers, name) + "; cat"
	}
	for _, kv := range [][2]string{
		{"core.fsmonitor", run("fsmonitor")},
		{"filter.evil.clean", run("clean")},
		{"filter.evil.smudge", run("smudge")},
		{"core.repositoryformatversion", "1"},
		{"extensions.partialClone", "origin"},
		{"remote.origin.promisor", "true"},
		{"remote.origin.url", "ext::sh -c env% >% " + filepath.Join(markers, "lazy-fetch")},
		{"protocol.ext.allow", "always"},
	} {
		git(t, root, "config", kv[0], kv[1])
	}

	before, err := scanTree(context.Background(), root, 1)
	if err != nil {
		t.Fatal(err)
	}
	g := &gitIndex{root: root}
	got := g.lookup([]string{"kept.txt", "lost.txt"}, before)
	if string(got["kept.txt"]) != "kept\n" {
		t.Errorf("kept.txt from the index: %q", got["kept.txt"])
	}
	if _, ok := got["lost.txt"]; ok {
		t.Errorf("lost.txt was read, though its blob is missing")
	}
	ents, _ := os.ReadDir(markers)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(markers, e.Name()))
		t.Errorf("the repository's %s ran (its environment has the key: %v)", e.Name(), strings.Contains(string(b), "sk-checkpoint-secret"))
	}
}
