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

// gitshellProject is a repository as a tarball brings it: its own
// .git/config names a file-system monitor and a hooks directory whose
// pre-commit hook is a program, and vendor/evil is a bare repository
// whose alias st is a program; each leaves a file in markers when it
// runs. Its .fawn/config.yaml asks for one permission, so it is
// not trusted until the user says so. The user's own config allows
// bash(git status), bash(git commit:*) and bash(env:*).
type gitshellFixture struct {
	home, dir, markers string
}

func gitshellProject(t *testing.T) gitshellFixture {
	t.Helper()
	f := gitshellFixture{home: t.TempDir(), dir: project(t), markers: t.TempDir()}
	gitHome := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = f.dir
		if args[0] == "-C" {
			cmd.Dir, args = args[1], args[2:]
			cmd.Args = append([]string{"git"}, args...)
		}
		cmd.Env = append(os.Environ(), "HOME="+gitHome, "XDG_CONFIG_HOME="+gitHome, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	hooks := filepath.Join(f.dir, ".git", "evil-hooks")
	git("init", "-q", "-b", "main")
	writeFile(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\ntouch "+filepath.Join(f.markers, "pre-commit")+"\n")
	if err := os.Chmod(filepath.Join(hooks, "pre-commit"), 0o755); err != nil {
		t.Fatal(err)
	}
	git("config", "core.fsmonitor", "touch "+filepath.Join(f.markers, "fsmonitor")+"; false")
	git("config", "core.hooksPath", hooks)
	// A bare repository committed in a subdirectory, whose alias is a
	// program.
	bare := filepath.Join(f.dir, "vendor", "evil")
	git("init", "-q", "--bare", bare)
	git("-C", bare, "config", "alias.st", "!touch "+filepath.Join(f.markers, "bare-alias"))
	writeFile(t, filepath.Join(f.dir, ".fawn", "config.yaml"), "permissions:\n  allow: [\"bash(ls:*)\"]\n")
	writeFile(t, filepath.Join(f.home, "config.yaml"), "permissions:\n  allow: [\"bash(git status)\", \"bash(git commit:*)\", \"bash(env:*)\"]\n")
	return f
}

// ran names the fixture's programs that ran.
func (f gitshellFixture) ran(t *testing.T) []string { return markersIn(t, f.markers) }

// run is fawn -p in the fixture, with a model that calls bash with cmd;
// it returns stderr and the tool result the model got.
func (f gitshellFixture) run(t *testing.T, cmd string, args ...string) (stderr, result string) {
	t.Helper()
	return runGitCall(t, f.home, f.dir, cmd, args...)
}

// Headless and untrusted, the user's rule allow bash(git status) does not
// let git status through: it is refused, stderr and the model are told
// that git reads the repository's own configuration and the project is
// not trusted, and the monitor .git/config names never runs. With --trust
// the rule allows it as before (and git runs the monitor: the fixture is
// live).
func TestHostileGitshellAllowRuleAsksUntrusted(t *testing.T) {
	f := gitshellProject(t)
	const why = "git reads this repository's own configuration (.git/config), which can make it run programs, and the project is not trusted"

	errs, result := f.run(t, "git status")
	if !strings.Contains(errs, "fawn: denied bash (call-git)") || !strings.Contains(errs, why) || !strings.Contains(errs, "--trust") {
		t.Errorf("untrusted: stderr does not say why git status was refused:\n%s", errs)
	}
	if !strings.Contains(result, "denied") || !strings.Contains(result, why) {
		t.Errorf("untrusted: the model got %q", result)
	}
	if ran := f.ran(t); len(ran) > 0 {
		t.Errorf("untrusted: the repository's programs ran: %v", ran)
	}

	// Behind a wrapper the rules also allow, the same.
	errs, _ = f.run(t, "env LC_ALL=C git status")
	if !strings.Contains(errs, why) {
		t.Errorf("untrusted, env git status: stderr:\n%s", errs)
	}
	if ran := f.ran(t); len(ran) > 0 {
		t.Errorf("untrusted, env git status: the repository's programs ran: %v", ran)
	}

	errs, result = f.run(t, "git status", "--trust")
	if strings.Contains(errs, "denied") || !strings.Contains(result, "On branch main") {
		t.Errorf("--trust: git status was not allowed by the rule: result %q, stderr:\n%s", result, errs)
	}
	if ran := f.ran(t); strings.Join(ran, " ") != "fsmonitor" {
		t.Errorf("--trust: the fixture's monitor did not run (%v): the test proves nothing", ran)
	}
}

// Headless and untrusted, a git command that does run (yolo here; an
// answer in the IDE alike) runs none of the programs the repository's
// .git/config names and does not take up the bare repository: the
// agent's shell sets core.fsmonitor=false, core.hooksPath=/dev/null and
// safe.bareRepository=explicit for it. Trusted, git is the user's and
// runs them.
func TestHostileGitshellApprovedGitRunsNoRepositoryProgram(t *testing.T) {
	f := gitshellProject(t)
	const cmd = "git -C vendor/evil st; git status && git commit -q --allow-empty -m x && git log --oneline -1"
	_, result := f.run(t, cmd, "--permission-mode", "yolo")
	if !strings.Contains(result, " x") {
		t.Fatalf("untrusted yolo: the commands did not run: %q", result)
	}
	if ran := f.ran(t); len(ran) > 0 {
		t.Errorf("untrusted yolo: the repository's programs ran: %v", ran)
	}

	_, result = f.run(t, cmd, "--permission-mode", "yolo", "--trust")
	if !strings.Contains(result, " x") {
		t.Fatalf("--trust yolo: the commands did not run: %q", result)
	}
	if ran := f.ran(t); strings.Join(ran, " ") != "bare-alias fsmonitor pre-commit" {
		t.Errorf("--trust yolo: the fixture's programs did not run (%v): the test proves nothing", ran)
	}
}

// Headless, trusted or not, an allow rule for git log, git diff, find,
// sort or go test does not let through an argument that writes a file
// wherever it says: each is refused with the flag named, and no file is
// written, in .git/hooks or outside the project. The same commands
// without it run.
func TestHostileGitshellWritingFlagsAsk(t *testing.T) {
	f := gitshellProject(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(f.home, "config.yaml"), "permissions:\n  allow: [\"bash(git log:*)\", \"bash(git diff:*)\", \"bash(find:*)\", \"bash(sort:*)\", \"bash(go test:*)\"]\n")
	if err := os.MkdirAll(filepath.Join(f.dir, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"log":  "git log -1 --format=x --output=" + filepath.Join(outside, "bashrc"),
		"diff": "git diff --output=.git/hooks/post-checkout",
		"find": "find . -name nothing -fprint " + filepath.Join(outside, "found"),
		"sort": "sort -o " + filepath.Join(outside, "sorted") + " README.md",
		"go":   "go test -c -o .git/hooks/pre-commit ./...",
	}
	var calls []llmtest.ToolCall
	for id, cmd := range cases {
		calls = append(calls, rulesCall("call-"+id, "bash", fmt.Sprintf(`{"command":%q}`, cmd)))
	}
	calls = append(calls, rulesCall("call-plain", "bash", `{"command":"sort README.md"}`))
	for _, args := range [][]string{nil, {"--trust"}} {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{ToolCalls: calls}, {Text: "Done."}}})
		all := append(append([]string{"--base-url", srv.URL(), "--model", "scripted"}, args...), "-p", "look", f.dir)
		out, errs, code := runFawn(t, f.home, nil, all...)
		if code != 0 || strings.TrimSpace(out) != "Done." {
			t.Fatalf("%v: exit %d, stdout %q, stderr:\n%s", args, code, out, errs)
		}
		results := rulesToolResults(t, srv)
		for id, cmd := range cases {
			if r := results["call-"+id]; !strings.Contains(r, "denied") || !strings.Contains(r, "writes a file") {
				t.Errorf("%v %q: the model got %q", args, cmd, r)
			}
			if !strings.Contains(errs, "fawn: denied bash (call-"+id+"): this command always asks: ") {
				t.Errorf("%v %q: stderr does not say why:\n%s", args, cmd, errs)
			}
		}
		if r := results["call-plain"]; !strings.Contains(r, "# Widget") {
			t.Errorf("%v: sort README.md did not run: %q", args, r)
		}
		for _, p := range []string{filepath.Join(outside, "bashrc"), filepath.Join(outside, "found"), filepath.Join(outside, "sorted"),
			filepath.Join(f.dir, ".git", "hooks", "post-checkout"), filepath.Join(f.dir, ".git", "hooks", "pre-commit")} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%v: %s was written", args, p)
			}
		}
	}
}

// In the IDE, with the trust prompt answered "Not now", the user's rule
// allow bash(git status) does not let the model's git status through: the
// dialog says that git reads the repository's own configuration. Allowed
// once, it runs, and the monitor .git/config names does not.
func TestHostileGitshellIDEDeclinedAsks(t *testing.T) {
	f := gitshellProject(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{rulesCall("call-git", "bash", `{"command":"git status"}`)}},
		{Text: "Looked at the status."},
	}})
	tm := Start(t, 160, 50, f.dir, []string{"GIT_CONFIG_NOSYSTEM=1"},
		"--base-url", srv.URL(), "--model", "scripted", "--config", filepath.Join(f.home, "config.yaml"))
	tm.WaitFor("Trust this folder?", "bash(ls:*)")
	tm.Keys("n")
	tm.WaitFor("Ask fawn", "Not trusted")
	tm.prompt("what is the status?")
	tm.WaitFor("always asks: git reads this repository's own", "y allow once")
	tm.Keys("y")
	tm.WaitFor("Looked at the status.", "idle")
	if r := rulesToolResults(t, srv)["call-git"]; !strings.Contains(r, "On branch main") {
		t.Errorf("git status, allowed once, did not run: %q", r)
	}
	if ran := f.ran(t); len(ran) > 0 {
		t.Errorf("the repository's programs ran: %v", ran)
	}
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")
}
