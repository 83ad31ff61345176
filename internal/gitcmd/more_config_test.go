package gitcmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMoreConfigRunsNothing: the other keys of a repository's config that
// name a program (ssh, askpass, credential helpers, proxies, upload-pack,
// an alias over a subcommand, gpg, a pager per command) and the other
// places a repository keeps config (an include, a conditional include, a
// worktree's config.worktree, a .git file pointing elsewhere) run nothing
// through the commands fawn runs.
func TestMoreConfigRunsNothing(t *testing.T) {
	isolate(t)
	m := t.TempDir()
	script := func(name string) string {
		p := filepath.Join(t.TempDir(), name)
		write(t, p, "#!/bin/sh\ntouch '"+filepath.Join(m, name)+"'\ncat\n", 0o755)
		return p
	}
	keys := map[string]string{
		"core.sshCommand":           script("sshcommand"),
		"core.askPass":              script("askpass"),
		"credential.helper":         "!" + script("credential"),
		"core.gitProxy":             script("gitproxy"),
		"remote.origin.url":         "ext::" + script("ext"),
		"remote.origin.uploadpack":  script("uploadpack"),
		"remote.origin.promisor":    "true",
		"extensions.partialClone":   "origin",
		"alias.status":              "!" + script("alias-status"),
		"alias.ls-files":            "!" + script("alias-ls-files"),
		"pager.status":              script("pager-status"),
		"pager.diff":                script("pager-diff"),
		"core.pager":                script("core-pager"),
		"gpg.program":               script("gpg"),
		"gpg.ssh.program":           script("gpg-ssh"),
		"status.showSignature":      "true",
		"core.alternateRefsCommand": script("alternate-refs"),
		"sequence.editor":           script("sequence-editor"),
		"core.editor":               script("editor"),
		"diff.external":             script("diff-external"),
		"core.fsmonitor":            "true",
		"extensions.worktreeConfig": "true",
		"submodule.recurse":         "true",
		"status.submoduleSummary":   "true",
		"fetch.recurseSubmodules":   "true",
		"core.hooksPath":            filepath.Join(m, "nohooks"),
		"maintenance.auto":          "true",
		"gc.auto":                   "1",
		"gc.autoDetach":             "false",
	}
	included := filepath.Join(t.TempDir(), "included.cfg")
	write(t, included, "[core]\n\tfsmonitor = "+script("fsmonitor-include")+"\n[filter \"evil\"]\n\tclean = "+script("clean-include")+"\n\tsmudge = "+script("smudge-include")+"\n[diff \"evil\"]\n\ttextconv = "+script("textconv-include")+"\n\tcommand = "+script("diff-command-include")+"\n", 0o644)
	onBranch := filepath.Join(t.TempDir(), "onbranch.cfg")
	write(t, onBranch, "[core]\n\tfsmonitor = "+script("fsmonitor-onbranch")+"\n[filter \"evil2\"]\n\tclean = "+script("clean-onbranch")+"\n\tprocess = "+script("process-onbranch")+"\n", 0o644)

	repo := t.TempDir()
	plainGit(t, repo, "init", "-q", "-b", "main")
	plainGit(t, repo, "config", "user.email", "u@example.com")
	plainGit(t, repo, "config", "user.name", "u")
	write(t, filepath.Join(repo, "a.txt"), "alpha\n", 0o644)
	write(t, filepath.Join(repo, "b.dat"), "beta\n", 0o644)
	write(t, filepath.Join(repo, ".gitattributes"), "*.txt filter=evil diff=evil\n*.dat filter=evil2 diff=evil\n", 0o644)
	plainGit(t, repo, "add", ".")
	plainGit(t, repo, "commit", "-q", "-m", "init")
	for k, v := range keys {
		plainGit(t, repo, "config", k, v)
	}
	plainGit(t, repo, "config", "include.path", included)
	plainGit(t, repo, "config", "includeIf.onbranch:main.path", onBranch)
	// The worktree's own config, read with extensions.worktreeConfig.
	write(t, filepath.Join(repo, ".git", "config.worktree"), "[core]\n\tfsmonitor = "+script("fsmonitor-worktree")+"\n[filter \"evil\"]\n\tprocess = "+script("process-worktree")+"\n", 0o644)

	// The same repository reached through a .git file in another
	// directory, its work tree named by core.worktree.
	linked := t.TempDir()
	write(t, filepath.Join(linked, ".git"), "gitdir: "+filepath.Join(repo, ".git")+"\n", 0o644)

	dirtyAll := func() {
		for _, f := range []string{"a.txt", "b.dat"} {
			p := filepath.Join(repo, f)
			b, _ := os.ReadFile(p)
			write(t, p, string(b)+"x\n", 0o644)
		}
	}
	ctx := context.Background()
	for _, dir := range []string{repo, linked} {
		for _, trusted := range []bool{false, true} {
			dirtyAll()
			g := Git{Dir: dir, UserFilters: trusted}
			for _, args := range [][]string{
				{"status", "--porcelain"}, {"diff"}, {"diff", "HEAD"}, {"log", "-p", "-1"}, {"show", "HEAD"},
				{"ls-files", "-s", "--debug"}, {"fetch", "origin"}, {"ls-remote", "origin"},
			} {
				_, _ = g.Output(ctx, args...) // a refused network command fails; it must run nothing
			}
			if got := markers(t, m); len(got) > 0 {
				t.Fatalf("in %s, UserFilters %v: the repository's programs ran: %v", dir, trusted, got)
			}
		}
	}

	// The fixture is live: plain git runs them.
	dirtyAll()
	plainGitLoose(t, repo, "status", "--porcelain")
	plainGitLoose(t, repo, "diff")
	got := strings.Join(markers(t, m), " ")
	for _, want := range []string{"fsmonitor-worktree", "process-worktree", "process-onbranch", "diff-command-include"} {
		if !strings.Contains(got, want) {
			t.Errorf("plain git did not run %s (ran: %s): the fixture proves nothing", want, got)
		}
	}
}

func plainGitLoose(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, _ := execGit(dir, args...)
	return out
}

func execGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}
