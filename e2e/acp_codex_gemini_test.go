package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// hostedRun runs one headless turn of the agent cfg names, in a project
// of its own, and returns its stdout, stderr and log.
func hostedRun(t *testing.T, cfg, agentName string) (stdout, stderr, log string) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(binary, "--config", cfg, "--agent", agentName, "-p", "say hello", t.TempDir())
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "OPENAI_API_KEY=")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	b, _ := os.ReadFile(filepath.Join(home, "data", "agents", agentName+".log"))
	return o.String(), e.String(), string(b)
}

// TestHostedCodexGetsToTheModel: Codex through its ACP adapter starts,
// is signed in with the key its environment sets (it asks to be told to
// use it), opens a session, offers its slash commands, sends the prompt
// to its model over the OpenAI Responses API (the scripted server's
// /v1/responses) and fawn prints the model's answer.
func TestHostedCodexGetsToTheModel(t *testing.T) {
	prog := agentBin(t, "codex-acp")
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "hello from the scripted model"}}})
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".codex", "config.toml"), "model = \"gpt-5\"\nopenai_base_url = \""+srv.URL()+"\"\n")
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "agents:\n  codex:\n    command: "+prog+"\n    env:\n      HOME: "+home+"\n      CODEX_HOME: "+filepath.Join(home, ".codex")+
		"\n      TMPDIR: "+t.TempDir()+"\n      OPENAI_API_KEY: sk-scripted-codex\n")
	stdout, stderr, log := hostedRun(t, cfg, "codex")
	for _, want := range []string{`"method":"authenticate"`, `"methodId":"openai-api-key"`, `"sessionUpdate":"available_commands_update"`, `"name":"review"`} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %s:\n%s", want, log)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(stdout), "hello from the scripted model") {
		t.Errorf("stdout %q does not end with the model's answer; stderr: %s", stdout, stderr)
	}
	sent := false
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Path == "/v1/responses" && strings.Contains(string(r.Body), "say hello") {
			sent = true
		}
	}
	if !sent {
		t.Error("the prompt never reached the model's Responses API")
	}
	if strings.Contains(log, "sk-scripted-codex") || strings.Contains(stderr, "sk-scripted-codex") || strings.Contains(stdout, "sk-scripted-codex") {
		t.Error("the agent's key reached its log or the screen")
	}
}

// TestHostedGeminiGetsToTheModel: Gemini CLI (--acp) starts, opens a
// session, has its router pick a model (the scripted server's first
// answer, the JSON the router asks for), streams the prompt's answer from
// the scripted server's Gemini API, and fawn prints it.
func TestHostedGeminiGetsToTheModel(t *testing.T) {
	prog := agentBin(t, "gemini")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: `{"complexity_reasoning": "Trivial.", "complexity_score": 5}`},
		{Text: "hello from the scripted model"},
	}})
	home := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "agents:\n  gemini:\n    command: "+prog+"\n    args: [--acp]\n    env:\n      HOME: "+home+"\n      TMPDIR: "+t.TempDir()+
		"\n      GEMINI_API_KEY: scripted-gemini-key\n      GOOGLE_GEMINI_BASE_URL: "+strings.TrimSuffix(srv.URL(), "/v1")+"\n")
	stdout, stderr, log := hostedRun(t, cfg, "gemini")
	for _, want := range []string{`"authMethods"`, `"method":"session/new"`, `"method":"session/prompt"`} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %s:\n%s", want, log)
		}
	}
	if strings.TrimSpace(stdout) != "hello from the scripted model" {
		t.Errorf("stdout %q, want the model's answer; stderr: %s", stdout, stderr)
	}
	streamed := false
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, ":streamGenerateContent") && strings.Contains(string(r.Body), "say hello") {
			streamed = true
		}
	}
	if !streamed {
		t.Error("the prompt never reached the model's Gemini API")
	}
	if strings.Contains(log, "scripted-gemini-key") || strings.Contains(stderr, "scripted-gemini-key") {
		t.Error("the agent's key reached its log or the screen")
	}
}
