package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// procsGoProject is a Go module whose .fawn/config.yaml turns the built-in
// gopls off and defines a language server of its own (the real gopls,
// under another name).
func procsGoProject(t *testing.T, gopls string) string {
	t.Helper()
	dir := project(t)
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() {\n\tprintln(2)\n}\n")
	writeFile(t, filepath.Join(dir, ".fawn", "config.yaml"), fmt.Sprintf(`lsp:
  gopls:
    disabled: true
  projgo:
    command: %s
    extensions: [".go"]
    root_markers: ["go.mod"]
`, gopls))
	return dir
}

// Finding 11: a language server the project defines starts once the user
// trusts the project at the prompt, and /lsp shows it running; answered
// "Not now", nothing starts and /lsp says why.
func TestHostileProcsTrustedProjectLSPStarts(t *testing.T) {
	path := goplsPath(t)
	gopls, err := exec.LookPath("gopls")
	if err != nil {
		gopls = filepath.Join(strings.Split(path, string(os.PathListSeparator))[0], "gopls")
	}
	dir := procsGoProject(t, gopls)
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"main.go"}`)}},
		{Text: "Viewed it."},
	}})
	home := t.TempDir()
	open := func() *Term {
		return Start(t, 150, 42, dir, []string{"FAWN_HOME=" + home, "PATH=" + path, "GOFLAGS=-mod=mod", "GOPROXY=off"},
			"--base-url", srv.URL(), "--model", "scripted")
	}

	tm := open()
	tm.WaitFor("Trust this folder?", "projgo")
	tm.Keys("n")
	tm.WaitFor("Ask fawn")
	tm.prompt("look at main.go")
	tm.WaitFor("Viewed it.")
	tm.prompt("/lsp")
	// Untrusted, the project's lsp keys are ignored: no projgo, and gopls,
	// which loads the project's code, does not start either.
	s := tm.WaitFor("Language servers:", "gopls — not started: this directory is not trusted")
	if strings.Contains(s, "— ready") || strings.Contains(s, "projgo — ") {
		t.Errorf("a language server runs in the untrusted project:\n%s", s)
	}
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")

	tm = open()
	tm.WaitFor("Trust this folder?", "projgo")
	tm.Keys("y")
	tm.WaitFor("Ask fawn")
	tm.prompt("look at main.go")
	tm.WaitFor("Viewed it.")
	// /lsp shows the state when asked: ask until gopls has started.
	asked := time.Time{}
	s = tm.WaitUntil("projgo ready in /lsp", func(s string) bool {
		if strings.Contains(s, "projgo — ready (pid ") {
			return true
		}
		if time.Since(asked) > 3*time.Second {
			tm.prompt("/lsp")
			asked = time.Now()
		}
		return false
	})
	if strings.Contains(s, "not trusted") {
		t.Errorf("after trusting, /lsp still says not trusted:\n%s", s)
	}
}

// procsPID is the pid of the fawn that srv's --base-url names.
func procsPID(t *testing.T, srv *llmtest.Server) string {
	t.Helper()
	out, err := exec.Command("pgrep", "-f", binary+" --base-url "+srv.URL()).Output()
	if err != nil {
		t.Fatalf("fawn's pid: %v", err)
	}
	return strings.Fields(string(out))[0]
}

// Finding 8: SIGQUIT (sent by a program the project runs, or by the user)
// ends fawn as SIGTERM does: the terminal leaves the alternate screen and
// mouse reporting, and fawn exits 131 (128+3), not with Go's goroutine dump.
func TestHostileProcsSIGQUITRestoresTheTerminal(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startIDE(t, srv, "")
	modes := "#{alternate_on} #{mouse_any_flag} #{mouse_button_flag} #{mouse_standard_flag} #{mouse_all_flag}"
	if got := strings.TrimSpace(tm.tmux("display", "-p", "-t", tm.name, modes)); !strings.HasPrefix(got, "1 ") || !strings.Contains(got[2:], "1") {
		t.Fatalf("the IDE is not in the alternate screen with the mouse on (%q): the test checks nothing", got)
	}
	if err := exec.Command("kill", "-QUIT", procsPID(t, srv)).Run(); err != nil {
		t.Fatal(err)
	}
	s := tm.WaitFor("fawn-exited-")
	if !strings.Contains(s, "fawn-exited-131") {
		t.Errorf("SIGQUIT: want exit 131:\n%s", s)
	}
	if strings.Contains(s, "goroutine ") || strings.Contains(s, "╭─ Chat") {
		t.Errorf("SIGQUIT left the IDE or a goroutine dump on the screen:\n%s", s)
	}
	if got := strings.TrimSpace(tm.tmux("display", "-p", "-t", tm.name, modes)); got != "0 0 0 0 0" {
		t.Errorf("after SIGQUIT the terminal is left in alternate screen / mouse modes %q (want all 0)", got)
	}
}

// procsProtectedFiles are files that make git, direnv, an editor, a dev
// container or CI run programs: an agent edit to one always asks.
var procsProtectedFiles = []string{".envrc", ".gitattributes", ".vscode/tasks.json", ".githooks/pre-commit",
	".devcontainer/devcontainer.json", ".github/workflows/ci.yml"}

// procsProtectedScript creates an ordinary file, then each protected one.
func procsProtectedScript() llmtest.Script {
	calls := []llmtest.ToolCall{call("text_editor", `{"command":"create","path":"plain.txt","file_text":"ok\n"}`)}
	for _, p := range procsProtectedFiles {
		calls = append(calls, call("text_editor", `{"command":"create","path":"`+p+`","file_text":"touch /tmp/pwned\n"}`))
	}
	return llmtest.Script{Responses: []llmtest.Response{{Text: "Setting things up.", ToolCalls: calls}, {Text: "All set."}}}
}

// Finding 8: in accept-edits, an edit to .envrc, .gitattributes,
// .vscode/tasks.json, .githooks/, .devcontainer/ or .github/workflows/
// asks, saying why, and "n" leaves it unwritten, while an ordinary file is
// written without a question; headless, they are refused.
func TestHostileProcsProtectedPathsAskInAcceptEdits(t *testing.T) {
	t.Run("ide", func(t *testing.T) {
		dir := project(t)
		srv := llmtest.Start(t, procsProtectedScript())
		tm := startIDE(t, srv, dir, "--permission-mode", "accept-edits")
		tm.prompt("set the project up")
		for _, p := range procsProtectedFiles {
			tm.WaitFor("Create "+p+" (1 line)", "this edit always asks: it ", "y allow once")
			tm.Keys("n")
		}
		tm.WaitFor("All set.", "idle")
		procsCheckProtected(t, dir)
	})
	t.Run("headless", func(t *testing.T) {
		dir := project(t)
		srv := llmtest.Start(t, procsProtectedScript())
		_, stderr, code := runHeadless(t, srv, dir, "-p", "set the project up", "--permission-mode", "accept-edits")
		if code != 0 {
			t.Errorf("exit %d: %s", code, stderr)
		}
		procsCheckProtected(t, dir)
	})
}

func procsCheckProtected(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "plain.txt")); err != nil {
		t.Errorf("the ordinary edit was not made: %v", err)
	}
	for _, p := range procsProtectedFiles {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was written in accept-edits without the user's yes", p)
		}
	}
}

// procsFullDir mounts a small tmpfs and fills it (root only: the test
// skips otherwise); free gives its room back.
func procsFullDir(t *testing.T) (dir string, free func()) {
	t.Helper()
	dir = t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("skipped: a full data directory needs a tmpfs, and mounting one failed (not root?): %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	filler := filepath.Join(dir, "filler")
	// dd stops at "no space left on device", which is the point.
	_ = exec.Command("dd", "if=/dev/zero", "of="+filler, "bs=4k").Run()
	return dir, func() {
		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
	}
}

// Finding 8: headless on a full data directory answers, but exits 1 and
// says the session could not be saved and why, and gives no session ID to
// resume.
func TestHostileProcsHeadlessFullDataDirFails(t *testing.T) {
	home, _ := procsFullDir(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: strings.Repeat("The answer. ", 800)}}})
	stdout, stderr, code := runFawn(t, home, []string{"OPENAI_API_KEY="}, "--base-url", srv.URL(), "--model", "scripted",
		"-p", "hi", "--output-format", "json", project(t))
	if code != 1 {
		t.Errorf("exit %d on a full data directory, want 1\nstderr: %s", code, stderr)
	}
	if !strings.Contains(stderr, "the session could not be saved") || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("stderr does not say the session was not saved, and why:\n%s", stderr)
	}
	if !strings.Contains(stdout, `"session_id":""`) || !strings.Contains(stdout, "The answer.") {
		t.Errorf("stdout: the answer with no session ID wanted:\n%.300s", stdout)
	}
}

// procsKill kills the process whose pid is in path, if any: a test that
// failed leaves nothing running.
func procsKill(path string) {
	if b, err := os.ReadFile(path); err == nil {
		if pid := strings.TrimSpace(string(b)); pid != "" {
			_ = exec.Command("kill", "-9", pid).Run()
		}
	}
}

// procsGone waits (generously) until the process whose pid is in path has
// ended; it kills it and fails when it outlives the deadline.
func procsGone(t *testing.T, path, what string) {
	t.Helper()
	b, err := os.ReadFile(path)
	pid := strings.TrimSpace(string(b))
	if err != nil || pid == "" {
		t.Fatalf("%s: no pid in %s (%v)", what, path, err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		st, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			_ = exec.Command("kill", "-9", pid).Run()
			t.Fatalf("%s (pid %s) outlived fawn", what, pid)
		}
	}
}

// Finding 8: an MCP server a project defines starts only when trusted, and
// what it starts itself (a child of its own) ends when fawn exits.
func TestHostileProcsMCPServerChildEndsWithFawn(t *testing.T) {
	every := npmBin(t, "mcp-server-everything")
	dir := project(t)
	kid := filepath.Join(t.TempDir(), "kid")
	t.Cleanup(func() { procsKill(kid) })
	writeFile(t, filepath.Join(dir, ".fawn", "config.yaml"), fmt.Sprintf(`tools:
  mcp_servers:
    kids:
      command: bash
      args: ["-c", "sleep 300 & echo $! > %s; exec %s stdio"]
`, kid, every))
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "hello"}}})
	args := []string{"--base-url", srv.URL(), "--model", "scripted", "-p", "hi"}

	_, stderr, code := runFawn(t, t.TempDir(), []string{"OPENAI_API_KEY="}, append(args, dir)...)
	if code != 0 {
		t.Fatalf("untrusted: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(kid); err == nil {
		t.Fatal("the untrusted project's MCP server ran")
	}
	if !strings.Contains(stderr, "MCP server kids") {
		t.Errorf("stderr does not say the MCP server was ignored:\n%s", stderr)
	}

	_, stderr, code = runFawn(t, t.TempDir(), []string{"OPENAI_API_KEY="}, append(args, "--trust", dir)...)
	if code != 0 {
		t.Fatalf("trusted: exit %d: %s", code, stderr)
	}
	procsGone(t, kid, "the MCP server's child")
}

// procsRunFawn is runFawn with a deadline: a run that hangs past it is
// killed and fails the test (a generous bound, not a timing assertion).
func procsRunFawn(t *testing.T, home string, args ...string) (stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "HOME="+home, "OPENAI_API_KEY=")
	var e strings.Builder
	cmd.Stderr = &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("fawn %v hung: killed after 60 s\nstderr: %s", args, e.String())
	}
	return e.String(), cmd.ProcessState.ExitCode()
}

// Finding 10: a project's hook that leaves a child in a session of its own
// (setsid) holding its stdout is still ended at its timeout, child and
// all, and the turn goes on; untrusted, the hook never runs.
func TestHostileProcsHookTimeoutEndsASetsidChild(t *testing.T) {
	dir := project(t)
	kid := filepath.Join(t.TempDir(), "kid")
	t.Cleanup(func() { procsKill(kid) })
	writeFile(t, filepath.Join(dir, ".fawn", "config.yaml"), fmt.Sprintf(`hooks:
  UserPromptSubmit:
    - hooks:
        - type: command
          command: "setsid sleep 300 & echo $! > %s; sleep 300"
          timeout: 0.3
`, kid))
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "hello"}}})
	args := []string{"--base-url", srv.URL(), "--model", "scripted", "-p", "hi"}

	stderr, code := procsRunFawn(t, t.TempDir(), append(args, dir)...)
	if code != 0 {
		t.Fatalf("untrusted: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(kid); err == nil {
		t.Fatal("the untrusted project's hook ran")
	}

	stderr, code = procsRunFawn(t, t.TempDir(), append(args, "--trust", dir)...)
	if code != 0 {
		t.Fatalf("trusted: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "killed after its timeout") {
		t.Errorf("stderr does not report the hook's timeout:\n%s", stderr)
	}
	procsGone(t, kid, "the hook's setsid child")
}

// Finding 8: in the IDE, a session whose data directory is full says it is
// not being saved; once there is room, the next turn saves it again, whole,
// and says so.
func TestHostileProcsIDEResumesSavingWhenThereIsRoom(t *testing.T) {
	home, free := procsFullDir(t)
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: strings.Repeat("Noted. ", 800)}}})
	dir := project(t)
	tm := Start(t, 150, 42, dir, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Ask fawn")
	tm.prompt("first")
	tm.WaitFor("the session is not being saved", "no space left on device")
	free()
	tm.prompt("second")
	tm.WaitFor("the session is being saved again")
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")
	md, stderr, code := runFawn(t, home, nil, "export", dir)
	if code != 0 || !strings.Contains(md, "first") || !strings.Contains(md, "second") {
		t.Errorf("the saved session does not hold both prompts (exit %d, %s):\n%.400s", code, stderr, md)
	}
}
