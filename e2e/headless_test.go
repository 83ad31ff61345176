package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// headlessScript views a file, then answers.
func headlessScript() llmtest.Script {
	return llmtest.Script{Responses: []llmtest.Response{
		{Text: "Looking at the README.", ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"README.md"}`)},
			Usage: &llmtest.Usage{PromptTokens: 500, CompletionTokens: 10}},
		{Text: "The project is called Widget.", Usage: &llmtest.Usage{PromptTokens: 700, CompletionTokens: 8}},
	}}
}

func runHeadless(t *testing.T, srv *llmtest.Server, project string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	all := append([]string{"--base-url", srv.URL(), "--model", "scripted"}, args...)
	all = append(all, project)
	cmd := exec.Command(binary, all...)
	cmd.Env = append(os.Environ(), "FAWN_HOME="+t.TempDir(), "OPENAI_API_KEY=")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

// fastRetries shortens the waits between the retries of a request to a
// server that is down (models.retry_delay, 1s by default): the same
// attempts, without the seconds of waiting.
const fastRetries = "FAWN_MODELS_RETRY_DELAY=50ms"

func project(t *testing.T) string {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "README.md"), "# Widget\n\nA widget.\n")
	return dir
}

func TestHeadlessText(t *testing.T) {
	srv := llmtest.Start(t, headlessScript())
	out, errs, code := runHeadless(t, srv, project(t), "-p", "what is this?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.TrimSpace(out) != "The project is called Widget." {
		t.Errorf("stdout must be the final answer only, got %q", out)
	}
	// The model got the file's content back as the tool result.
	msgs := srv.ChatRequests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Role != "tool" || !strings.Contains(string(last.Content), "# Widget") {
		t.Errorf("tool result sent back: %+v", last)
	}
}

func TestHeadlessJSON(t *testing.T) {
	srv := llmtest.Start(t, headlessScript())
	out, errs, code := runHeadless(t, srv, project(t), "-p", "what is this?", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		Result    string `json:"result"`
		SessionID string `json:"session_id"`
		IsError   bool   `json:"is_error"`
		NumTurns  int    `json:"num_turns"`
		ToolCalls int    `json:"tool_calls"`
		Usage     struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
		DurationMS *int64 `json:"duration_ms"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if v.Result != "The project is called Widget." || v.SessionID == "" || v.IsError || v.ToolCalls != 1 ||
		v.Usage.InputTokens != 1200 || v.Usage.OutputTokens != 18 || v.DurationMS == nil {
		t.Errorf("json = %+v", v)
	}
}

func TestHeadlessStreamJSON(t *testing.T) {
	srv := llmtest.Start(t, headlessScript())
	out, errs, code := runHeadless(t, srv, project(t), "-p", "what is this?", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var types []string
	ids := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line is not JSON: %q", sc.Text())
		}
		typ, _ := ev["type"].(string)
		if len(types) == 0 || types[len(types)-1] != typ {
			types = append(types, typ)
		}
		if typ == "tool_call" || typ == "tool_result" {
			id, _ := ev["id"].(string)
			ids[typ] = id
		}
	}
	want := []string{"init", "text", "tool_call", "tool_result", "text", "turn_end"}
	if strings.Join(types, ",") != strings.Join(want, ",") {
		t.Errorf("event types %v, want %v", types, want)
	}
	if ids["tool_call"] == "" || ids["tool_call"] != ids["tool_result"] {
		t.Errorf("tool_call and tool_result IDs differ: %v", ids)
	}
}

func TestHeadlessDeadServer(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	url := srv.URL()
	srv.Close()
	cmd := exec.Command(binary, "-p", "hi", "--base-url", url, t.TempDir())
	cmd.Env = append(os.Environ(), "FAWN_HOME="+t.TempDir(), fastRetries)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if o.Len() != 0 {
		t.Errorf("stdout should be empty on failure, got %q", o.String())
	}
	if !strings.Contains(e.String(), strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/v1")) {
		t.Errorf("the error should name the server: %q", e.String())
	}
}

func TestHeadlessInterruptExits130(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: strings.Repeat("slow ", 400), ChunkSize: 5, Delay: llmtest.Duration(100 * time.Millisecond)},
	}})
	cmd := exec.Command(binary, "-p", "hi", "--base-url", srv.URL(), "--output-format", "stream-json", t.TempDir())
	cmd.Env = append(os.Environ(), "FAWN_HOME="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for the first streamed text, then interrupt.
	r := bufio.NewReader(stdout)
	if _, err := r.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	go func() { _, _ = r.WriteTo(new(bytes.Buffer)) }()
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
}

// Finding 9: a signal ends the IDE with the terminal restored and the exit
// code 128+N a shell expects, not 0.
func TestSignalsRestoreTheTerminalAndExit128PlusN(t *testing.T) {
	for _, c := range []struct {
		sig  string
		code int
	}{{"TERM", 143}, {"HUP", 129}, {"INT", 130}} {
		t.Run(c.sig, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Script{})
			tm := startIDE(t, srv, "")
			out, err := exec.Command("pgrep", "-f", binary+" --base-url "+srv.URL()).Output()
			if err != nil {
				t.Fatalf("fawn's pid: %v", err)
			}
			pid := strings.Fields(string(out))[0]
			if err := exec.Command("kill", "-"+c.sig, pid).Run(); err != nil {
				t.Fatal(err)
			}
			s := tm.WaitFor("fawn-exited-")
			if strings.Contains(s, "╭─ Chat") {
				t.Errorf("the IDE is still on screen after SIG%s:\n%s", c.sig, s)
			}
			if want := fmt.Sprintf("fawn-exited-%d", c.code); !strings.Contains(s, want) {
				t.Errorf("SIG%s: want %s:\n%s", c.sig, want, s)
			}
		})
	}
}

// A long command's result leaves the middle out, and the agent reads any
// line of it with view_output, by the call's id.
func TestHeadlessViewOutputPagesALongCommand(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_seq", Name: "bash", Arguments: `{"command":"seq 1 40000"}`}}},
		{ToolCalls: []llmtest.ToolCall{call("view_output", `{"id":"call_seq","offset":20000,"limit":2}`)}},
		{Text: "Read it."},
	}})
	out, errs, code := runHeadless(t, srv, project(t), "-p", "count", "--permission-mode", "yolo")
	if code != 0 || strings.TrimSpace(out) != "Read it." {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
	reqs := srv.ChatRequests()
	first := string(reqs[1].Messages[len(reqs[1].Messages)-1].Content)
	if !strings.Contains(first, "omitted") || strings.Contains(first, "\n20000\n") || !strings.Contains(first, `view_output with id "call_seq"`) {
		t.Fatalf("the bash result:\n%s", first)
	}
	page := string(reqs[2].Messages[len(reqs[2].Messages)-1].Content)
	if !strings.Contains(page, " 20000\t20000\n") || !strings.Contains(page, " 20001\t20001\n") || !strings.Contains(page, "of 40000") {
		t.Errorf("the view_output result:\n%s", page)
	}
}
