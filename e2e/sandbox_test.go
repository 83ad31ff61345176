package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/sandbox"
)

// sandboxed is the environment that turns the shell's sandbox on (the
// default, which TestMain turns off for the other tests).
var sandboxed = []string{"FAWN_SANDBOX_MODE=workspace-write"}

// sandboxEnv is sandboxed with a temp directory of the test's own beside
// the project (both are the test's temp directories, in /tmp), as on a
// machine whose projects are not in /tmp: the shell then makes no temp
// directory of its own in /tmp that would outlive the test.
func sandboxEnv(t *testing.T) []string {
	return append([]string{"TMPDIR=" + t.TempDir()}, sandboxed...)
}

func needSandbox(t *testing.T) {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
}

// Headless -p gets the same sandbox: in ask mode, where nobody could
// answer a dialog, the agent's commands run, confined.
func TestHeadlessCommandsRunSandboxed(t *testing.T) {
	needSandbox(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "src", "keep.txt"), "x\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo inside > src/made.txt; touch ../outside; echo status=$?"}`)}},
		{Text: "Done."},
	}})
	cmd := exec.Command(binary, "--base-url", srv.URL(), "--model", "scripted", "-p", "go", proj)
	cmd.Env = append(os.Environ(), append([]string{"FAWN_HOME=" + t.TempDir(), "OPENAI_API_KEY="}, sandboxEnv(t)...)...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	if _, err := os.Stat(filepath.Join(root, "outside")); err == nil {
		t.Error("../outside was created")
	}
	if data, err := os.ReadFile(filepath.Join(proj, "src", "made.txt")); err != nil || string(data) != "inside\n" {
		t.Errorf("the command did not run in the project: %q %v", data, err)
	}
	msgs := srv.ChatRequests()[1].Messages
	if last := msgs[len(msgs)-1]; !strings.Contains(string(last.Content), "Permission denied") || !strings.Contains(string(last.Content), "status=1") {
		t.Errorf("tool result: %s", last.Content)
	}
}

// startSandboxed opens the IDE on proj with the sandbox on and a home of
// its own (FAWN_HOME, which the sandbox keeps unreadable, is elsewhere).
func startSandboxed(t *testing.T, srv *llmtest.Server, proj string) *Term {
	t.Helper()
	env := append([]string{"HOME=" + t.TempDir()}, sandboxEnv(t)...)
	tm := Start(t, 150, 42, proj, env, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Chat", "Editor", "Terminal", "To-do", "Ask fawn")
	return tm
}

// The pane's title says the sandbox, and the user's own typing in the
// shared shell is confined as the agent's commands are.
func TestSandboxedShellInTheIDE(t *testing.T) {
	needSandbox(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "src", "keep.txt"), "x\n")
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startSandboxed(t, srv, proj)
	tm.WaitFor("Terminal · sandboxed: project, no network")
	tm.Keys("M-t")
	tm.run("touch ../outside-user; echo rc=$?")
	tm.WaitFor("Permission denied", "rc=1")
	if _, err := os.Stat(filepath.Join(root, "outside-user")); err == nil {
		t.Error("the user's command wrote outside the project")
	}
}

// A refused command's card says so; the agent asks to run it once outside
// the sandbox, the dialog names it, it runs once, and the next command is
// confined again.
func TestRunOnceOutsideTheSandbox(t *testing.T) {
	needSandbox(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "src", "keep.txt"), "x\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"touch ../escalated"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"touch ../escalated","outside_sandbox":true}`)}},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"touch ../again"}`)}},
		{Text: "All done."},
	}})
	tm := startSandboxed(t, srv, proj)
	tm.prompt("make the file")
	tm.WaitFor("refused by the sandbox", "the agent may ask to run it once outside", "Run once outside the sandbox: $ touch ../escalated", "y allow once")
	if _, err := os.Stat(filepath.Join(root, "escalated")); err == nil {
		t.Fatal("the refused command wrote outside before the user allowed it")
	}
	tm.Keys("y")
	tm.WaitFor("ran once outside the sandbox", "All done.")
	if _, err := os.Stat(filepath.Join(root, "escalated")); err != nil {
		t.Errorf("the command allowed outside did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "again")); err == nil {
		t.Error("the next command was not confined")
	}
	msgs := srv.ChatRequests()[3].Messages
	if last := msgs[len(msgs)-1]; !strings.Contains(string(last.Content), "the sandbox refused this") {
		t.Errorf("the third command's result: %s", last.Content)
	}
}

// /sandbox shows the policy; /sandbox off asks, then the shell starts
// again unconfined and says so; /sandbox on confines it again.
func TestSandboxCommand(t *testing.T) {
	needSandbox(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "src", "keep.txt"), "x\n")
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startSandboxed(t, srv, proj)
	tm.prompt("/sandbox")
	tm.WaitFor("Shell: sandboxed: project, no network.", "Network: closed", "/sandbox off turns it off")
	tm.prompt("/sandbox off")
	tm.WaitFor("Turn the sandbox off?", "y turn it off")
	tm.Keys("y")
	tm.WaitFor("Terminal · not sandboxed: off for this session", "started again")
	tm.Keys("M-t")
	tm.run("touch ../free; echo rc=$?")
	tm.WaitFor("rc=0")
	if _, err := os.Stat(filepath.Join(root, "free")); err != nil {
		t.Fatalf("the shell is still confined after /sandbox off: %v", err)
	}
	tm.Keys(`C-\`, "M-c") // in the terminal every key is the program's but after the escape key
	tm.prompt("/sandbox on")
	tm.WaitFor("Terminal · sandboxed: project, no network", "Shell: sandboxed: project, no network (the shell")
	tm.Keys("M-t")
	tm.run("touch ../boxed; echo rc=$?")
	tm.WaitFor("rc=1")
	if _, err := os.Stat(filepath.Join(root, "boxed")); err == nil {
		t.Fatal("the shell is not confined after /sandbox on")
	}
}

// fawn acp gets the same sandbox: the editor is asked about the edit, not
// about the command, which runs confined.
func TestACPCommandsRunSandboxed(t *testing.T) {
	needSandbox(t)
	for _, kv := range sandboxEnv(t) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"create","path":"note.txt","file_text":"hi\n"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"cat note.txt; touch ../outside-acp; echo rc=$?"}`)}},
		{Text: "Done."},
	}})
	root := t.TempDir()
	dir := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(dir, "src", "keep.txt"), "x\n")
	conn, cl, _, stderr := startACP(t, srv, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The client offers terminals: a sandboxed shell keeps the agent's
	// commands all the same (the editor's terminals are not sandboxed, and
	// sandboxed commands run without a request).
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber, ClientCapabilities: acp.ClientCapabilities{Terminal: true}}); err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr)
	}
	sess, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: dir, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v\n%s", err, stderr)
	}
	if resp, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("go")}}); err != nil || resp.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v\n%s", resp, err, stderr)
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if len(cl.asks) != 1 {
		t.Errorf("%d permission requests, want 1 (the edit; the command runs in the sandbox)", len(cl.asks))
	}
	if _, err := os.Stat(filepath.Join(root, "outside-acp")); err == nil {
		t.Error("the command wrote outside the project")
	}
	msgs := srv.ChatRequests()[2].Messages
	if last := msgs[len(msgs)-1]; !strings.Contains(string(last.Content), "hi") || !strings.Contains(string(last.Content), "rc=1") {
		t.Errorf("the command's result: %s", last.Content)
	}
}

// After the user replaced the shared shell with exec, the agent's commands
// run in fawn's own bash: sandboxed as the shared shell was, since with the
// sandbox on they run without a request.
func TestAgentShellAfterExecIsSandboxed(t *testing.T) {
	needSandbox(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "src", "keep.txt"), "x\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"touch ../outside-after-exec; echo rc=$?"}`)}},
		{Text: "It ran."},
	}})
	args := []string{"--base-url", srv.URL(), "--model", "scripted"}
	tm := Start(t, 150, 42, proj, sandboxEnv(t), args...)
	tm.WaitFor("Chat", "Editor", "Terminal", "Ask fawn")
	tm.Keys("M-t")
	tm.run("exec sh")
	tm.WaitFor("(exec'd: no fawn markers)")
	tm.Keys(`C-\`, "M-c")
	tm.prompt("run it")
	tm.WaitFor("It ran.", "rc=1")
	if _, err := os.Stat(filepath.Join(root, "outside-after-exec")); err == nil {
		t.Fatal("the agent's own bash wrote outside the project: it is not sandboxed")
	}
}
