package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// gitconfigEnv is the environment of the fixtures' git and of fawn: no
// system or user git configuration of the machine's, and a committer.
func gitconfigEnv(home string) []string {
	return []string{
		"GIT_CONFIG_NOSYSTEM=1", "XDG_CONFIG_HOME=" + home,
		"GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@example.com", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@example.com",
	}
}

// gitconfigGit runs git in dir as a user's shell would, to build a fixture.
func gitconfigGit(t *testing.T, home, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append(gitconfigEnv(home), "HOME="+home)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// gitconfigFixture is a directory as a tarball or a shared directory
// brings it: a git repository with a commit and no .fawn directory at
// all; hostile ones add a program to .git/config or .git/hooks that
// leaves a file in markers when it runs. The user's own config allows
// bash(git status) and bash(git commit:*).
type gitconfigFixture struct {
	home, dir, markers string
}

func gitconfigProject(t *testing.T) gitconfigFixture {
	t.Helper()
	f := gitconfigFixture{home: t.TempDir(), dir: project(t), markers: t.TempDir()}
	f.git(t, "init", "-q", "-b", "main")
	f.git(t, "add", ".")
	f.git(t, "commit", "-q", "-m", "init")
	writeFile(t, filepath.Join(f.home, "config.yaml"), "permissions:\n  allow: [\"bash(git status)\", \"bash(git commit:*)\"]\n")
	return f
}

func (f gitconfigFixture) git(t *testing.T, args ...string) {
	t.Helper()
	gitconfigGit(t, f.home, f.dir, args...)
}

// mark is a shell command that leaves the file name in markers.
func (f gitconfigFixture) mark(name string) string {
	return "touch " + filepath.Join(f.markers, name)
}

// ran names the fixture's programs that ran.
func (f gitconfigFixture) ran(t *testing.T) []string { return markersIn(t, f.markers) }

// run is fawn -p in the fixture, with a model that calls bash with cmd;
// it returns stderr and the tool result the model got.
func (f gitconfigFixture) run(t *testing.T, cmd string, args ...string) (stderr, result string) {
	t.Helper()
	return runGitCall(t, f.home, f.dir, cmd, args...)
}

// markersIn names the marker files a fixture's programs left in dir.
func markersIn(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// runGitCall runs fawn -p on dir with a model that calls bash with cmd, in
// gitconfigEnv; it returns stderr and the tool result the model got.
func runGitCall(t *testing.T, home, dir, cmd string, args ...string) (stderr, result string) {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{rulesCall("call-git", "bash", fmt.Sprintf(`{"command":%q}`, cmd))}},
		{Text: "Done."},
	}})
	all := append(append([]string{"--base-url", srv.URL(), "--model", "scripted"}, args...), "-p", "look", dir)
	out, errs, code := runFawn(t, home, gitconfigEnv(home), all...)
	if code != 0 || strings.TrimSpace(out) != "Done." {
		t.Fatalf("%v %q: exit %d, stdout %q, stderr:\n%s", args, cmd, code, out, errs)
	}
	return errs, rulesToolResults(t, srv)["call-git"]
}

// Headless, a repository whose only hostile part is core.fsmonitor in its
// .git/config (no .fawn directory) is not trusted: the user's rule allow
// bash(git status) does not let the model's git status through, stderr
// names the key, its program and the file, and the monitor never runs.
// With --trust the rule allows it and git runs the monitor (the fixture is
// live).
func TestHostileGitconfigFsmonitorNeedsTrust(t *testing.T) {
	f := gitconfigProject(t)
	monitor := f.mark("fsmonitor") + "; false"
	f.git(t, "config", "core.fsmonitor", monitor)

	errs, result := f.run(t, "git status")
	if !strings.Contains(errs, "fawn: denied bash (call-git)") || !strings.Contains(errs, "git reads this repository's own configuration") {
		t.Errorf("untrusted: stderr does not say why git status was refused:\n%s", errs)
	}
	want := "this directory is not trusted, so fawn ignores what " + filepath.Join(f.dir, ".git", "config") +
		" would make it do: git config core.fsmonitor (touch " + f.markers
	if !strings.Contains(errs, want) {
		t.Errorf("untrusted: stderr does not name the git configuration that needs trust (want %q):\n%s", want, errs)
	}
	if !strings.Contains(result, "denied") {
		t.Errorf("untrusted: the model got %q", result)
	}
	if ran := f.ran(t); len(ran) > 0 {
		t.Errorf("untrusted: the repository's programs ran: %v", ran)
	}

	errs, result = f.run(t, "git status", "--trust")
	if strings.Contains(errs, "denied") || !strings.Contains(result, "On branch main") {
		t.Errorf("--trust: git status was not allowed by the rule: result %q, stderr:\n%s", result, errs)
	}
	if ran := f.ran(t); strings.Join(ran, " ") != "fsmonitor" {
		t.Errorf("--trust: the fixture's monitor did not run (%v): the test proves nothing", ran)
	}
}

// Headless, an executable hook in .git/hooks that is not one of git's
// samples makes the repository untrusted too: bash(git commit:*) does not
// let the model's commit through and the hook does not run; with --trust
// the commit runs its hook.
func TestHostileGitconfigHookNeedsTrust(t *testing.T) {
	f := gitconfigProject(t)
	hook := filepath.Join(f.dir, ".git", "hooks", "pre-commit")
	writeFile(t, hook, "#!/bin/sh\n"+f.mark("pre-commit")+"\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	const cmd = "git commit -q --allow-empty -m x"

	errs, result := f.run(t, cmd)
	if !strings.Contains(errs, "fawn: denied bash (call-git)") || !strings.Contains(errs, "would make it do: git hook pre-commit (#!/bin/sh touch "+f.markers) {
		t.Errorf("untrusted: stderr does not say the hook needs trust:\n%s", errs)
	}
	if !strings.Contains(result, "denied") {
		t.Errorf("untrusted: the model got %q", result)
	}
	if ran := f.ran(t); len(ran) > 0 {
		t.Errorf("untrusted: the repository's hook ran: %v", ran)
	}

	errs, _ = f.run(t, cmd, "--trust")
	if strings.Contains(errs, "denied") {
		t.Errorf("--trust: the commit was not allowed by the rule:\n%s", errs)
	}
	if ran := f.ran(t); strings.Join(ran, " ") != "pre-commit" {
		t.Errorf("--trust: the fixture's hook did not run (%v): the test proves nothing", ran)
	}
}

// In the IDE an ordinary repository (git init, a commit: only git's
// sample hooks, no program in .git/config) opens with no trust prompt
// and no notice of anything ignored. The same
// repository with an "!" alias in .git/config asks, showing the key and
// the command; after "Not now" the notice names it.
func TestHostileGitconfigIDEPromptsOnlyForPrograms(t *testing.T) {
	f := gitconfigProject(t)
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "hello"}}})
	open := func() *Term {
		return Start(t, 160, 50, f.dir, gitconfigEnv(f.home),
			"--base-url", srv.URL(), "--model", "scripted", "--config", filepath.Join(f.home, "config.yaml"))
	}

	tm := open()
	s := tm.WaitFor("Ask fawn")
	if strings.Contains(s, "Trust this folder") || strings.Contains(s, "Not trusted") {
		t.Errorf("an ordinary repository was asked about:\n%s", s)
	}
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")

	alias := "!" + f.mark("alias")
	f.git(t, "config", "alias.st", alias)
	tm = open()
	tm.WaitFor("Trust this folder?", "let git run the program its configuration names in alias.st", alias, "in .git/config")
	tm.Keys("n")
	tm.WaitFor("Ask fawn", "Not trusted: fawn ignores git config alias.st")
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")
	if ran := f.ran(t); len(ran) > 0 {
		t.Errorf("the repository's alias ran: %v", ran)
	}
}
