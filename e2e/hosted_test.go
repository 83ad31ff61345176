package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// acpscript builds the scripted ACP agent (acp/acptest) once.
var acpscript = sync.OnceValues(func() (string, error) {
	out := filepath.Join(filepath.Dir(binary), "acpscript")
	_, here, _, _ := runtime.Caller(0)
	build := exec.Command("go", "build", "-o", out, "./acp/acptest/cmd/acpscript")
	build.Dir = filepath.Join(filepath.Dir(here), "..")
	if b, err := build.CombinedOutput(); err != nil {
		return "", &buildError{err, string(b)}
	}
	return out, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// acpConfig writes a config file that makes the scripted agent, playing
// scenario, the agent "scripted"; it returns the file and the report path.
func acpConfig(t *testing.T, scenario string) (file, report string) {
	t.Helper()
	prog, err := acpscript()
	if err != nil {
		t.Fatalf("building acpscript: %v", err)
	}
	dir := t.TempDir()
	report = filepath.Join(dir, "report")
	file = filepath.Join(dir, "config.yaml")
	writeFile(t, file, "agents:\n  scripted:\n    command: "+prog+"\n    env:\n      FAWN_ACP_SCRIPT: "+scenario+"\n      FAWN_ACP_REPORT: "+report+"\n")
	return file, report
}

// TestHostedHeadless: fawn -p --agent runs one turn of the hosted agent with
// fawn's output formats: the answer after the last call as text, the calls
// and their results in stream-json, their files changed by the agent.
func TestHostedHeadless(t *testing.T) {
	cfg, _ := acpConfig(t, "edit")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hello.txt"), "one\nhello, wrld\nthree\n")
	run := func(args ...string) (string, string, int) {
		cmd := exec.Command(binary, append(append([]string{"--config", cfg, "--agent", "scripted"}, args...), dir)...)
		cmd.Env = append(os.Environ(), "FAWN_HOME="+t.TempDir(), "OPENAI_API_KEY=")
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		_ = cmd.Run()
		return o.String(), e.String(), cmd.ProcessState.ExitCode()
	}
	out, errs, code := run("-p", "fix the greeting")
	if code != 0 || strings.TrimSpace(out) != "Done." {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "hello.txt")); string(b) != "one\nhello, world\nthree\n" {
		t.Errorf("hello.txt = %q", b)
	}
	out, errs, code = run("-p", "fix it again", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var names []string
	var end map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		switch m["type"] {
		case "tool_call":
			names = append(names, m["id"].(string)+":"+m["name"].(string))
		case "turn_end":
			end = m
		}
	}
	if strings.Join(names, " ") != "plan-1:todo_write e1:text_editor x1:execute" {
		t.Errorf("tool calls %v\n%s", names, out)
	}
	if end == nil || end["is_error"] != false {
		t.Errorf("turn_end %v", end)
	}

	// An unknown agent is a usage error naming the configured ones.
	_, errs, code = run("-p", "hi", "--agent", "nobody")
	if code != 2 || !strings.Contains(errs, "no such agent") || !strings.Contains(errs, "scripted") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// TestHostedCrash: an agent dying mid-turn fails the run (exit 1) with
// the reason on stderr; nothing hangs.
func TestHostedCrash(t *testing.T) {
	cfg, _ := acpConfig(t, "crash")
	cmd := exec.Command(binary, "--config", cfg, "--agent", "scripted", "-p", "build", t.TempDir())
	cmd.Env = append(os.Environ(), "FAWN_HOME="+t.TempDir(), "OPENAI_API_KEY=")
	var e bytes.Buffer
	cmd.Stderr = &e
	_ = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(e.String(), "status 3") || !strings.Contains(e.String(), "fell over") {
		t.Errorf("exit %d: %s", code, e.String())
	}
}

// TestHostedEditorTab: in the IDE, the hosted agent's edit of a file opens its
// tab with the new text, its card shows the edit, its command shows as a
// card, its plan fills the to-do view.
func TestHostedEditorTab(t *testing.T) {
	cfg, _ := acpConfig(t, "edit")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hello.txt"), "one\nhello, wrld\nthree\n")
	tm := Start(t, 140, 40, dir, nil, "--config", cfg, "--agent", "scripted")
	tm.WaitFor("acp/scripted")
	tm.Keys("fix the greeting", "Enter")
	tm.WaitFor("Edit hello.txt", "+1 −1", "hello, world", "$ go test ./...", "Done.")
	if s := tm.WaitFor("To-do 0/2"); strings.Contains(s, "demo model") {
		t.Errorf("the demo model's notice shows with a hosted agent:\n%s", s)
	}
	// The command it ran itself shows in the agent terminal tab too.
	tm.WaitFor("│ Agent │", "$ go test ./...", "[done]")
	// Its edit is in the checkpoints: /diff lists it, /rewind puts the
	// file back (the files only: the conversation is the agent's).
	tm.Keys("/diff", "Enter")
	tm.WaitFor("Changed in this session", "hello.txt  +1 −1 · agent tool")
	tm.Keys("Escape")
	tm.WaitUntil("the picker closes", func(s string) bool { return !strings.Contains(s, "Changed in this session") })
	tm.Keys("/rewind", "Enter")
	tm.WaitFor("fix the greeting")
	tm.Keys("Enter")
	tm.WaitFor("files only")
	tm.Keys("f")
	tm.WaitFor("2 hello, wrld", "rewind: restored hello.txt")
	if b, _ := os.ReadFile(filepath.Join(dir, "hello.txt")); string(b) != "one\nhello, wrld\nthree\n" {
		t.Errorf("after /rewind: %q", b)
	}
}

// agentBin finds a program of the ACP agents the tests host for real
// (.ci/run installs them, pinned, under ~/.cache/fawn-test-npm-acp or
// $ACP_TEST_PACKAGES_DIR, from .ci/npm-acp-agents).
func agentBin(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("ACP_TEST_PACKAGES_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "fawn-test-npm-acp")
	}
	p := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed: .ci/run installs the agents of .ci/npm-acp-agents under %s", name, dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed (apt-get install -y nodejs)")
	}
	return p
}

// TestHostedClaudeCode: Claude Code, through its ACP adapter, on the scripted
// Anthropic server: it reads a file (the tab opens), edits it (the tab
// shows the edit, marked, and the card its diff) and runs a command (its
// card shows the output). Offline: the adapter is told the server's URL.
func TestHostedClaudeCode(t *testing.T) {
	prog := agentBin(t, "claude-agent-acp")
	dir := t.TempDir()
	p := filepath.Join(dir, "hello.txt")
	writeFile(t, p, "one\nhello, wrld\nthree\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Reading it first.", ToolCalls: []llmtest.ToolCall{call("Read", `{"file_path": "`+p+`"}`)}},
		{Text: "Fixing the typo.", ToolCalls: []llmtest.ToolCall{call("Edit", `{"file_path": "`+p+`", "old_string": "wrld", "new_string": "world"}`)}},
		{Text: "Checking.", ToolCalls: []llmtest.ToolCall{call("Bash", `{"command": "cat hello.txt | wc -l", "description": "Count the lines"}`)}},
		{Text: "The greeting is fixed."},
	}})
	home := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "agents:\n  claude:\n    command: "+prog+"\n    env:\n"+
		"      ANTHROPIC_BASE_URL: "+strings.TrimSuffix(srv.URL(), "/v1")+"\n"+
		"      ANTHROPIC_API_KEY: sk-ant-scripted\n      IS_SANDBOX: \"1\"\n      HOME: "+home+"\n      TMPDIR: "+t.TempDir()+"\n"+
		"      DISABLE_TELEMETRY: \"1\"\n      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: \"1\"\n"+
		"permissions:\n  allow: [\"bash(cat hello.txt)\", \"bash(wc -l)\"]\n")
	tm := Start(t, 160, 45, dir, nil, "--config", cfg, "--agent", "claude", "--permission-mode", "accept-edits")
	tm.WaitFor("acp/claude")
	tm.Keys("fix the greeting", "Enter")
	tm.WaitFor("Edit hello.txt", "+1 −1", "2 + hello, world", "agent edit", "The greeting is fixed.")
	tm.WaitFor("$ cat hello.txt | wc -l", "3")
	tm.WaitFor("│ Agent │", "[done]") // and in the agent terminal tab
	if b, _ := os.ReadFile(p); string(b) != "one\nhello, world\nthree\n" {
		t.Errorf("hello.txt = %q", b)
	}
}

// TestHostedOpencode: opencode on the scripted OpenAI-compatible server (its
// title requests on a second one) writes a file, which opens in a tab, and
// runs a command, whose card shows the output.
func TestHostedOpencode(t *testing.T) {
	prog := agentBin(t, "opencode")
	dir := t.TempDir()
	p := filepath.Join(dir, "hello.txt")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Writing it.", ToolCalls: []llmtest.ToolCall{call("write", `{"filePath": "`+p+`", "content": "hello from opencode\n"}`)}},
		{Text: "Listing.", ToolCalls: []llmtest.ToolCall{call("bash", `{"command": "ls", "description": "List the files"}`)}},
		{Text: "The file is written."},
	}})
	titles := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "A title"}}})
	home := t.TempDir()
	provider := func(name, url, model string) string {
		return `"` + name + `": {"npm": "@ai-sdk/openai-compatible", "name": "` + name + `", "options": {"baseURL": "` + url + `", "apiKey": "scripted"}, "models": {"` + model + `": {"name": "` + model + `"}}}`
	}
	writeFile(t, filepath.Join(home, ".config", "opencode", "opencode.json"), `{"provider": {`+provider("scripted", srv.URL(), "m")+`, `+provider("titles", titles.URL(), "t")+
		`}, "model": "scripted/m", "small_model": "titles/t", "share": "disabled", "autoupdate": false}`)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "agents:\n  opencode:\n    command: "+prog+"\n    args: [acp]\n    env:\n"+
		"      HOME: "+home+"\n      TMPDIR: "+t.TempDir()+"\n      XDG_CONFIG_HOME: "+filepath.Join(home, ".config")+"\n"+
		"      XDG_DATA_HOME: "+filepath.Join(home, ".local", "share")+"\n      XDG_CACHE_HOME: "+filepath.Join(home, ".cache")+"\n"+
		"permissions:\n  allow: [\"bash(ls)\"]\n")
	tm := Start(t, 160, 45, dir, nil, "--config", cfg, "--agent", "opencode", "--permission-mode", "accept-edits")
	tm.WaitFor("acp/opencode")
	tm.Keys("write hello.txt", "Enter")
	tm.WaitFor("hello.txt", "hello from opencode", "agent edit", "The file is written.")
	tm.WaitFor("$ ls")
	tm.WaitFor("│ Agent │", "[done]") // and in the agent terminal tab
	if b, _ := os.ReadFile(p); string(b) != "hello from opencode\n" {
		t.Errorf("hello.txt = %q", b)
	}
}

// TestHostedTypeScriptAgent: an agent on the TypeScript SDK
// (testdata/acp/agent.mjs) reads a file through fawn (fs/read_text_file),
// writes it through fawn's write path (the tab shows the edit, marked) and
// runs a command through terminal/*, which fawn types into its shared
// terminal, where the user sees it run.
func TestHostedTypeScriptAgent(t *testing.T) {
	sdk := npmPackage(t, "@agentclientprotocol/sdk")
	script, _ := filepath.Abs("testdata/acp/agent.mjs")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "notes.txt"), "a draft\nsecond line\n")
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "agents:\n  ts:\n    command: node\n    args: ["+script+", "+sdk+"]\n"+
		"permissions:\n  allow: [\"bash(echo:*)\"]\n")
	tm := Start(t, 160, 45, dir, nil, "--config", cfg, "--agent", "ts", "--permission-mode", "accept-edits")
	tm.WaitFor("acp/ts")
	tm.Keys("tidy the notes", "Enter")
	tm.WaitFor("Edit notes.txt", "+1 −1", "a final", "agent edit", `ts agent read "a draft\nsecond line"; exit 0, output`, `"from-the-ts-agent"`)
	// The command ran in the shared terminal: its line and output are there.
	tm.WaitFor("$ echo from-the-ts-agent", "# echo from-the-ts-agent")
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "a final\nsecond line\n" {
		t.Errorf("notes.txt = %q", b)
	}
}
