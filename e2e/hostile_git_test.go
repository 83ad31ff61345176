package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// gitHostile is a repository whose git config names programs git would run
// as the user: a file-system monitor, clean and smudge filters on every
// file, hooks, and a partial clone's lazy fetch through ext:: for the blob
// of lazy.txt, which it lacks. It also holds a bare repository in
// vendor/evil with a work tree of its own and a monitor, as a committed
// one arrives in a clone. Each program writes the environment it got to a
// file in markers. Its .fawn/config.yaml asks for one permission, so
// opening it asks for trust.
type gitHostile struct {
	dir, bare, markers string
}

func gitHostileProject(t *testing.T) gitHostile {
	t.Helper()
	h := gitHostile{dir: project(t), markers: t.TempDir()}
	h.bare = filepath.Join(h.dir, "vendor", "evil")
	home := t.TempDir() // no git config of the machine's
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@example.com", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@example.com")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	run := func(name string) string { return "env > " + filepath.Join(h.markers, name) }

	writeFile(t, filepath.Join(h.dir, "a.txt"), "alpha\n")
	writeFile(t, filepath.Join(h.dir, "b.txt"), "beta\n")
	writeFile(t, filepath.Join(h.dir, "lazy.txt"), "lazy\n")
	writeFile(t, filepath.Join(h.dir, ".gitattributes"), "* filter=evil\n")
	git(h.dir, "init", "-q", "-b", "main")
	git(h.dir, "add", ".")
	git(h.dir, "commit", "-q", "-m", "init")
	obj := git(h.dir, "rev-parse", ":lazy.txt")
	if err := os.Remove(filepath.Join(h.dir, ".git", "objects", obj[:2], obj[2:])); err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(h.dir, ".git", "evil-hooks")
	for _, hook := range []string{"post-index-change", "pre-commit", "post-checkout", "reference-transaction"} {
		writeFile(t, filepath.Join(hooks, hook), "#!/bin/sh\n"+run("hook-"+hook)+"\n")
		if err := os.Chmod(filepath.Join(hooks, hook), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range [][2]string{
		{"core.fsmonitor", run("fsmonitor") + "; false"},
		{"core.hooksPath", hooks},
		{"filter.evil.clean", run("clean") + "; cat"},
		{"filter.evil.smudge", run("smudge") + "; cat"},
		{"filter.evil.required", "true"},
		{"core.repositoryformatversion", "1"},
		{"extensions.partialClone", "origin"},
		{"remote.origin.promisor", "true"},
		{"remote.origin.url", "ext::sh -c env% >% " + filepath.Join(h.markers, "lazy-fetch")},
		{"protocol.ext.allow", "always"},
	} {
		git(h.dir, "config", kv[0], kv[1])
	}

	git(h.dir, "init", "-q", "--bare", h.bare)
	git(h.bare, "config", "core.bare", "false")
	git(h.bare, "config", "core.worktree", ".")
	git(h.bare, "config", "core.fsmonitor", run("bare-fsmonitor")+"; false")

	// b.txt changed; a.txt only touched: git status must read both.
	writeFile(t, filepath.Join(h.dir, "b.txt"), "beta, changed\n")
	later := time.Now().Add(time.Hour)
	for _, f := range []string{"a.txt", "b.txt"} {
		if err := os.Chtimes(filepath.Join(h.dir, f), later, later); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(h.dir, ".fawn", "config.yaml"), "permissions:\n  allow: [\"bash(ls:*)\"]\n")
	return h
}

// ran names the fixture's programs that ran, and whether one got the key.
func (h gitHostile) ran(t *testing.T) (names []string, gotKey bool) {
	t.Helper()
	ents, err := os.ReadDir(h.markers)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		names = append(names, e.Name())
		b, _ := os.ReadFile(filepath.Join(h.markers, e.Name()))
		gotKey = gotKey || strings.Contains(string(b), userKey)
	}
	return names, gotKey
}

func (h gitHostile) noneRan(t *testing.T, when string) {
	t.Helper()
	if names, key := h.ran(t); len(names) > 0 {
		t.Errorf("%s: the repository's programs ran: %v (with the user's key: %v)", when, names, key)
	}
}

// live shows the fixture is not inert: plain git, as a user's shell runs
// it, runs its programs.
func (h gitHostile) live(t *testing.T) {
	t.Helper()
	for _, c := range []struct{ dir, arg string }{{h.dir, "status"}, {h.bare, "status"}, {h.dir, "show"}} {
		cmd := exec.Command("git", c.arg)
		cmd.Dir = c.dir
		_ = cmd.Run()
	}
	names, _ := h.ran(t)
	got := strings.Join(names, " ")
	for _, want := range []string{"fsmonitor", "clean", "bare-fsmonitor", "lazy-fetch"} {
		if !strings.Contains(got, want) {
			t.Errorf("plain git did not run the fixture's %s (ran: %s): the test proves nothing", want, got)
		}
	}
}

func gitSystemPrompt(t *testing.T, srv *llmtest.Server) string {
	t.Helper()
	reqs := srv.ChatRequests()
	if len(reqs) == 0 || len(reqs[0].Messages) == 0 {
		t.Fatal("the model got no request")
	}
	return string(reqs[0].Messages[0].Content)
}

// Opened headless, untrusted and with --trust, a hostile repository runs
// none of the programs its git config names — not for the system prompt,
// not for the checkpoint of a shell command that changes a file whose blob
// only a lazy fetch would bring — and the model is still told the branch.
// Untrusted, the status is not read; trusted, it is.
func TestHostileGitHeadless(t *testing.T) {
	h := gitHostileProject(t)
	home := t.TempDir()
	for _, c := range []struct {
		name   string
		args   []string
		status string
	}{
		{"untrusted", nil, "Git branch: main. Status: not read (the project is not trusted)."},
		{"--trust", []string{"--trust"}, "   M b.txt"},
	} {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"printf more >> lazy.txt"}`)}},
			{Text: "appended"},
		}})
		args := append(append([]string{"--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo"}, c.args...), "-p", "go", h.dir)
		out, errs, code := runFawn(t, home, []string{"OPENAI_API_KEY=" + userKey}, args...)
		if code != 0 || strings.TrimSpace(out) != "appended" {
			t.Fatalf("%s: exit %d, stdout %q, stderr:\n%s", c.name, code, out, errs)
		}
		if sys := gitSystemPrompt(t, srv); !strings.Contains(sys, "Git branch: main. Status: ") || !strings.Contains(sys, c.status) {
			t.Errorf("%s: the system prompt lacks %q:\n%s", c.name, c.status, sys)
		}
		if len(srv.ChatRequests()) < 2 {
			t.Fatalf("%s: the bash call's result never reached the model", c.name)
		}
		h.noneRan(t, c.name)
	}

	// fawn opened in the embedded bare repository does not take it up.
	for _, args := range [][]string{nil, {"--trust"}} {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "looked"}}})
		all := append(append([]string{"--base-url", srv.URL(), "--model", "scripted"}, args...), "-p", "go", h.bare)
		if out, errs, code := runFawn(t, home, []string{"OPENAI_API_KEY=" + userKey}, all...); code != 0 || strings.TrimSpace(out) != "looked" {
			t.Fatalf("in vendor/evil %v: exit %d, stdout %q, stderr:\n%s", args, code, out, errs)
		}
		if sys := gitSystemPrompt(t, srv); !strings.Contains(sys, "not a git repository") {
			t.Errorf("in vendor/evil %v: the system prompt takes the bare repository for the project's:\n%s", args, sys)
		}
		h.noneRan(t, "in vendor/evil")
	}
	h.live(t)
}

// In the IDE, with the trust prompt answered "Not now", a prompt sent runs
// none of the repository's programs, and the model is told the branch.
func TestHostileGitIDEDeclined(t *testing.T) {
	h := gitHostileProject(t)
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "hello from the model"}}})
	tm := Start(t, 120, 40, h.dir, []string{"OPENAI_API_KEY=" + userKey}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Trust this folder?", "bash(ls:*)")
	tm.Keys("n")
	tm.WaitFor("Ask fawn", "Not trusted")
	tm.prompt("hi")
	tm.WaitFor("hello from the model")
	if sys := gitSystemPrompt(t, srv); !strings.Contains(sys, "Git branch: main. Status: not read (the project is not trusted).") {
		t.Errorf("the system prompt does not give the branch, or reads the status:\n%s", sys)
	}
	h.noneRan(t, `after "Not now" and a prompt`)
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")
	h.live(t)
}
