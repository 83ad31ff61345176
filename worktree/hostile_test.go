package worktree

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hostile gives the repository's own config a program for every way git
// has of running one while a task is made, committed, reviewed, merged and
// discarded: the file-system monitor, hooks, filters, a merge driver, a
// diff driver, commit signing. Each program creates a file named after it
// in the returned directory.
func hostile(t *testing.T, repo string) (markerDir string) {
	t.Helper()
	markerDir = t.TempDir()
	script := func(name string) string {
		p := filepath.Join(t.TempDir(), name)
		write(t, p, "#!/bin/sh\ntouch '"+filepath.Join(markerDir, name)+"'\ncat\n")
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hooks := t.TempDir()
	for _, h := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-checkout",
		"post-merge", "pre-merge-commit", "reference-transaction", "post-index-change", "post-rewrite", "pre-auto-gc"} {
		p := filepath.Join(hooks, h)
		write(t, p, "#!/bin/sh\ntouch '"+filepath.Join(markerDir, "hook-"+h)+"'\n")
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(repo, ".gitattributes"), "*.txt filter=evil diff=evil merge=evil\n")
	plainGit(t, repo, "add", ".gitattributes")
	plainGit(t, repo, "commit", "-q", "-m", "attributes")
	for k, v := range map[string]string{
		"core.fsmonitor":         script("fsmonitor"),
		"core.hooksPath":         hooks,
		"filter.evil.clean":      script("clean"),
		"filter.evil.smudge":     script("smudge"),
		"filter.evil.required":   "true",
		"merge.evil.driver":      script("merge-driver") + " %O %A %B",
		"diff.evil.textconv":     script("textconv"),
		"diff.evil.command":      script("diff-command"),
		"diff.external":          script("diff-external"),
		"commit.gpgSign":         "true",
		"merge.verifySignatures": "true",
		"gpg.program":            script("gpg"),
		"core.editor":            script("editor"),
	} {
		plainGit(t, repo, "config", k, v)
	}
	return markerDir
}

func noMarkers(t *testing.T, dir, when string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) > 0 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("%s: the repository's programs ran: %s", when, strings.Join(names, " "))
	}
}

// A repository whose config names programs runs none of them through a
// task's whole life; plain git, on the same repository, runs them.
func TestHostileConfigRunsNothing(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	markers := hostile(t, repo)
	m := open(t, repo)

	ff := create(t, m, "ff")
	noMarkers(t, markers, "Create")
	write(t, filepath.Join(ff.Dir, "a.txt"), "one\ntwo by ff\nthree\n")
	if _, err := m.Status(ctx, ff); err != nil {
		t.Fatal(err)
	}
	changes, err := m.Diff(ctx, ff)
	if err != nil || len(changes) != 1 {
		t.Fatalf("Diff: %+v, %v", changes, err)
	}
	if _, _, err := m.Content(ctx, ff, changes[0]); err != nil {
		t.Fatal(err)
	}
	noMarkers(t, markers, "Status, Diff, Content")
	if _, err := m.Commit(ctx, ff, "ff"); err != nil {
		t.Fatal(err)
	}
	noMarkers(t, markers, "Commit")
	if res, err := m.Merge(ctx, ff, MergeCommit, ""); err != nil || !res.FastForward {
		t.Fatalf("Merge: %+v, %v", res, err)
	}
	noMarkers(t, markers, "a fast-forward Merge")

	// Both sides change a.txt, on lines apart: git would hand the file to
	// the merge driver; fawn's merge calls it a conflict instead.
	side := create(t, m, "side")
	write(t, filepath.Join(side.Dir, "a.txt"), "one\ntwo by ff\nthree\nfour by side\n")
	write(t, filepath.Join(side.Dir, "b.txt"), "beta by side\n")
	if _, err := m.Commit(ctx, side, "side"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "a.txt"), "zero\none\ntwo by ff\nthree\n")
	plainGit(t, repo, "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgSign=false", "commit", "-q", "-a", "-m", "main moves")
	os.RemoveAll(markers) // plain git's filters ran just now
	if err := os.Mkdir(markers, 0o755); err != nil {
		t.Fatal(err)
	}
	var ce *ConflictError
	if _, err := m.Merge(ctx, side, MergeCommit, ""); !errors.As(err, &ce) {
		t.Fatalf("Merge with a merge driver: %v, want a conflict", err)
	}
	noMarkers(t, markers, "a conflicting Merge")
	// Without the shared file, the merge commit is made.
	plainGit(t, side.Dir, "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgSign=false", "reset", "-q", "--hard", "HEAD~1")
	write(t, filepath.Join(side.Dir, "b.txt"), "beta by side\n")
	if _, err := m.Commit(ctx, side, "side, again"); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(markers)
	if err := os.Mkdir(markers, 0o755); err != nil {
		t.Fatal(err)
	}
	if res, err := m.Merge(ctx, side, MergeCommit, ""); err != nil || res.FastForward {
		t.Fatalf("a merge commit: %+v, %v", res, err)
	}
	for _, tr := range []Tree{ff, side} {
		if err := m.Discard(ctx, tr, false); err != nil {
			t.Fatal(err)
		}
	}
	noMarkers(t, markers, "a merge commit and Discard")

	// The same repository, as a user's shell works in it.
	write(t, filepath.Join(repo, "b.txt"), "plain\n")
	cmd := exec.Command("git", "commit", "-q", "-a", "-m", "plain")
	cmd.Dir = repo
	_ = cmd.Run() // the fake gpg signs nothing: the commit fails after running it
	plainGit(t, repo, "checkout", "-q", "-b", "x")
	got := map[string]bool{}
	ents, _ := os.ReadDir(markers)
	for _, e := range ents {
		got[e.Name()] = true
	}
	for _, want := range []string{"fsmonitor", "clean", "hook-pre-commit", "gpg"} {
		if !got[want] {
			t.Errorf("plain git did not run %s (ran %v): the fixture proves nothing", want, got)
		}
	}
}
