package gitcmd

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fawn-ide/fawn/trust"
)

// names lists items as "kind name=detail", sorted as they came.
func names(items []trust.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Kind+" "+it.Name+"="+it.Detail)
	}
	return out
}

// A repository made by git init and a commit, a clone of it, and a linked
// work tree have nothing that needs trust: git's sample hooks, boolean
// settings and the user's own configuration are not the repository's
// programs.
func TestProgramsOrdinaryRepositoryHasNone(t *testing.T) {
	home := isolate(t)
	write(t, filepath.Join(home, ".gitconfig"), "[core]\n\teditor = vim\n[alias]\n\tx = !echo mine\n[credential]\n\thelper = store\n", 0o644)
	repo := t.TempDir()
	plainGit(t, repo, "init", "-q", "-b", "main")
	write(t, filepath.Join(repo, "a.txt"), "a\n", 0o644)
	plainGit(t, repo, "add", ".")
	plainGit(t, repo, "-c", "user.name=u", "-c", "user.email=u@example.com", "commit", "-q", "-m", "init")
	plainGit(t, repo, "config", "core.fsmonitor", "false")
	plainGit(t, repo, "config", "pager.log", "true")
	plainGit(t, repo, "config", "alias.co", "checkout")
	clone := filepath.Join(t.TempDir(), "clone")
	plainGit(t, repo, "clone", "-q", repo, clone)
	wt := filepath.Join(t.TempDir(), "wt")
	plainGit(t, repo, "worktree", "add", "-q", "-b", "side", wt)
	sub := filepath.Join(repo, "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{repo, clone, wt, sub, t.TempDir()} {
		items, err := Programs(context.Background(), dir)
		if err != nil || len(items) > 0 {
			t.Errorf("%s: %v, %v; want none", dir, names(items), err)
		}
	}
}

// Every program-valued key of the repository's own configuration, from
// .git/config and from a file it includes, is one item with its value as
// it is and the file it is in; an executable hook that is not a sample is
// one too. Reading them runs none of them.
func TestProgramsListsTheRepositorysPrograms(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	m := t.TempDir()
	mark := func(name string) string { return "touch '" + filepath.Join(m, name) + "'" }
	for k, v := range map[string]string{
		"core.fsmonitor":            mark("fsmonitor") + "; false",
		"core.hooksPath":            "evil-hooks",
		"core.sshCommand":           mark("ssh"),
		"core.pager":                mark("pager"),
		"pager.log":                 mark("pager-log"),
		"diff.external":             mark("external"),
		"diff.evil.textconv":        mark("textconv"),
		"filter.evil.clean":         mark("clean"),
		"filter.evil.required":      "true",
		"merge.evil.driver":         mark("merge"),
		"alias.st":                  "!" + mark("alias"),
		"credential.helper":         "!" + mark("cred"),
		"gpg.ssh.program":           mark("gpg"),
		"remote.origin.uploadpack":  mark("uploadpack"),
		"include.path":              "extra.conf",
		"protocol.ext.allow":        "always",
		"submodule.lib.update":      "!" + mark("update"),
		"core.alternateRefsCommand": mark("alternates"),
	} {
		plainGit(t, repo, "config", k, v)
	}
	write(t, filepath.Join(repo, ".git", "extra.conf"), "[core]\n\teditor = "+mark("editor")+"\n", 0o644)
	hook := filepath.Join(repo, ".git", "hooks", "post-checkout")
	write(t, hook, "#!/bin/sh\n"+mark("hook")+"\n", 0o755)
	write(t, filepath.Join(repo, ".git", "hooks", "pre-push"), "#!/bin/sh\n", 0o644) // not executable: git does not run it

	items, err := Programs(context.Background(), filepath.Join(repo))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]trust.Item{}
	for _, it := range items {
		got[it.Name] = it
	}
	want := map[string]string{
		"core.fsmonitor":            mark("fsmonitor") + "; false",
		"core.hookspath":            "evil-hooks",
		"core.sshcommand":           mark("ssh"),
		"core.pager":                mark("pager"),
		"pager.log":                 mark("pager-log"),
		"diff.external":             mark("external"),
		"diff.evil.textconv":        mark("textconv"),
		"filter.evil.clean":         mark("clean"),
		"merge.evil.driver":         mark("merge"),
		"alias.st":                  "!" + mark("alias"),
		"credential.helper":         "!" + mark("cred"),
		"gpg.ssh.program":           mark("gpg"),
		"remote.origin.uploadpack":  mark("uploadpack"),
		"protocol.ext.allow":        "always",
		"submodule.lib.update":      "!" + mark("update"),
		"core.alternaterefscommand": mark("alternates"),
		"core.editor":               mark("editor"),
	}
	for k, v := range want {
		it, ok := got[k]
		if !ok || it.Kind != trust.KindGitConfig || it.Detail != v {
			t.Errorf("%s: got %+v, want a git config item with %q", k, it, v)
		}
	}
	if src := got["core.fsmonitor"].Source; src != filepath.Join(repo, ".git", "config") {
		t.Errorf("core.fsmonitor's source is %q", src)
	}
	if src := got["core.editor"].Source; src != filepath.Join(repo, ".git", "extra.conf") {
		t.Errorf("the included core.editor's source is %q", src)
	}
	h, ok := got["post-checkout"]
	if !ok || h.Kind != trust.KindGitHook || h.Detail != "#!/bin/sh\n"+mark("hook")+"\n" || h.Source != hook {
		t.Errorf("the post-checkout hook: %+v", h)
	}
	if len(items) != len(want)+1 {
		t.Errorf("%d items, want %d: %v", len(items), len(want)+1, names(items))
	}
	if ran := markers(t, m); len(ran) > 0 {
		t.Errorf("reading the configuration ran %v", ran)
	}

	// A binary hook is its size and digest.
	bin := filepath.Join(repo, ".git", "hooks", "pre-rebase")
	write(t, bin, "\x7fELF\x00\x01", 0o755)
	if got, err := hookDetail(bin); err != nil || got != "a program of 6 bytes, sha256 "+fmt.Sprintf("%x", sha256.Sum256([]byte("\x7fELF\x00\x01"))) {
		t.Errorf("a binary hook: %q, %v", got, err)
	}

	// A hook that changes is a new item, asked about again.
	write(t, hook, "#!/bin/sh\n"+mark("hook2")+"\n", 0o755)
	again, err := Programs(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range again {
		if it.Name == "post-checkout" && it.Key() == h.Key() {
			t.Error("the changed hook has the same identity as before")
		}
	}
}

// A bare repository committed in a subdirectory, fawn opened inside it:
// the user's git would take it up there, so its programs are listed,
// though fawn's own git refuses it.
func TestProgramsOfAnEmbeddedBareRepository(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	bare := filepath.Join(repo, "vendor", "evil")
	plainGit(t, repo, "init", "-q", "--bare", bare)
	plainGit(t, bare, "config", "core.worktree", ".")
	plainGit(t, bare, "config", "core.fsmonitor", "touch x")
	items, err := Programs(context.Background(), bare)
	if err != nil || len(items) != 1 || items[0].Name != "core.fsmonitor" || items[0].Detail != "touch x" ||
		items[0].Source != filepath.Join(bare, "config") {
		t.Errorf("in the bare repository: %v, %v", names(items), err)
	}
	// Beside it, the enclosing repository's (none).
	if items, err := Programs(context.Background(), filepath.Join(repo, "vendor")); err != nil || len(items) > 0 {
		t.Errorf("beside it: %v, %v", names(items), err)
	}
}

func TestRunsProgram(t *testing.T) {
	for _, c := range []struct {
		key, value string
		want       bool
	}{
		{"core.fsmonitor", "true", false},
		{"core.fsmonitor", "0", false},
		{"core.fsmonitor", "./monitor", true},
		{"pager.diff", "off", false},
		{"pager.diff", "less -R", true},
		{"alias.co", "checkout", false},
		{"alias.co", " !sh -c x", true},
		{"alias.a.b", "!x", true},
		{"diff.external", "x", true},
		{"diff.evil.command", "x", true},
		{"diff.color", "x", false},
		{"filter.x.y.smudge", "x", true},
		{"filter.x.required", "true", false},
		{"credential.https://h.example.helper", "store", true},
		{"protocol.allow", "always", true},
		{"protocol.file.allow", "always", false},
		{"submodule.x.update", "rebase", false},
		{"user.name", "!x", false},
	} {
		if got := runsProgram(c.key, c.value, true); got != c.want {
			t.Errorf("runsProgram(%q, %q) = %v, want %v", c.key, c.value, got, c.want)
		}
	}
}
