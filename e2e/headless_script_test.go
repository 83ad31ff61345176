package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// runHeadlessIn is runHeadless with stdin (nil: /dev/null, as for a
// script run without input).
func runHeadlessIn(t *testing.T, srv *llmtest.Server, project string, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	all := append([]string{"--base-url", srv.URL(), "--model", "scripted"}, args...)
	all = append(all, project)
	cmd := exec.Command(binary, all...)
	// HOME is empty: the machine's ~/.bashrc must not decide whether the
	// agent's shell comes up.
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "HOME="+home, "OPENAI_API_KEY=")
	cmd.Stdin = stdin
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

// userText is the text of the last user message of the request.
func userText(t *testing.T, req *llmtest.ChatRequest) string {
	t.Helper()
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" {
			continue
		}
		return string(m.Content)
	}
	t.Fatalf("no user message in %+v", req.Messages)
	return ""
}

func answerOnly() llmtest.Script {
	return llmtest.Script{Responses: []llmtest.Response{{Text: "Done."}}}
}

// -p - reads the prompt from standard input.
func TestHeadlessPromptFromStdin(t *testing.T) {
	srv := llmtest.Start(t, answerOnly())
	out, errs, code := runHeadlessIn(t, srv, project(t), strings.NewReader("what is in the README?\n"), "-p", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.TrimSpace(out) != "Done." {
		t.Errorf("stdout = %q", out)
	}
	if got := userText(t, srv.ChatRequests()[0]); strings.TrimSpace(got) != "what is in the README?" {
		t.Errorf("the model was sent %q, want the prompt read from stdin", got)
	}

	// Nothing on stdin: a usage error, and no request.
	srv2 := llmtest.Start(t, answerOnly())
	_, errs, code = runHeadlessIn(t, srv2, project(t), strings.NewReader("  \n"), "-p", "-")
	if code != 2 || !strings.Contains(errs, "empty prompt") || len(srv2.ChatRequests()) != 0 {
		t.Errorf("empty stdin: exit %d, %d requests, stderr %q", code, len(srv2.ChatRequests()), errs)
	}
}

// Text piped to fawn -p TEXT is attached to the prompt; binary or oversized
// input is refused before anything is sent.
func TestHeadlessPipedInputIsAttached(t *testing.T) {
	srv := llmtest.Start(t, answerOnly())
	log := "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n"
	_, errs, code := runHeadlessIn(t, srv, project(t), strings.NewReader(log), "-p", "why did this crash?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := userText(t, srv.ChatRequests()[0])
	if !strings.HasPrefix(got, "why did this crash?") || !strings.Contains(got, "<attached kind=\"stdin\">\n"+strings.TrimRight(log, "\n")+"\n</attached>") {
		t.Errorf("the model was sent %q, want the prompt with the piped text attached", got)
	}

	for name, in := range map[string]string{
		"binary":    "PK\x03\x04\x00\x00binary",
		"too large": strings.Repeat("x", 1<<20+1),
	} {
		srv := llmtest.Start(t, answerOnly())
		_, errs, code := runHeadlessIn(t, srv, project(t), strings.NewReader(in), "-p", "look")
		want := map[string]string{"binary": "is not text", "too large": "over 1 MiB"}[name]
		if code != 2 || !strings.Contains(errs, want) || len(srv.ChatRequests()) != 0 {
			t.Errorf("%s stdin: exit %d, %d requests, stderr %q (want exit 2 saying %q)", name, code, len(srv.ChatRequests()), errs, want)
		}
	}
}

// loopScript asks for a command in every response: the agent never ends on
// its own.
func loopScript(n int) llmtest.Script {
	var rs []llmtest.Response
	for range n {
		rs = append(rs, llmtest.Response{Text: "Once more.", ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo again"}`)}})
	}
	return llmtest.Script{Responses: rs}
}

// --max-turns N stops after N model round-trips, says so on stderr and
// exits 1.
func TestHeadlessMaxTurns(t *testing.T) {
	srv := llmtest.Start(t, loopScript(5))
	out, errs, code := runHeadlessIn(t, srv, project(t), nil, "-p", "loop", "--max-turns", "2", "--permission-mode", "yolo", "--output-format", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, errs)
	}
	if n := len(srv.ChatRequests()); n != 2 {
		t.Errorf("%d model requests, want 2 (--max-turns 2)", n)
	}
	if !strings.Contains(errs, "used its 2 turns") || !strings.Contains(errs, "--max-turns") {
		t.Errorf("stderr does not say the turn limit stopped it: %q", errs)
	}
	var v struct {
		IsError bool   `json:"is_error"`
		Subtype string `json:"subtype"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || !v.IsError || v.Subtype != "error_max_turns" {
		t.Errorf("json = %s (%v), want is_error and subtype error_max_turns", out, err)
	}

	// Without -p it is a usage error.
	_, errs, code = runHeadlessIn(t, srv, project(t), nil, "--max-turns", "2")
	if code != 2 || !strings.Contains(errs, "--max-turns goes with -p") {
		t.Errorf("--max-turns without -p: exit %d, %q", code, errs)
	}
}

// toolResult is what the model was sent back for the call in the request.
func toolResult(t *testing.T, req *llmtest.ChatRequest) string {
	t.Helper()
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "tool" {
		t.Fatalf("the last message is not a tool result: %+v", last)
	}
	return string(last.Content)
}

// --allowed-tools lets a call run that headless would refuse (nobody can be
// asked); --disallowed-tools refuses one the mode would allow.
func TestHeadlessAllowedAndDisallowedTools(t *testing.T) {
	script := func() llmtest.Script {
		return llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo hi-from-bash"}`)}},
			{Text: "Done."},
		}}
	}
	srv := llmtest.Start(t, script())
	_, errs, code := runHeadlessIn(t, srv, project(t), nil, "-p", "say hi", "--allowed-tools", "bash(echo:*), text_editor")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if got := toolResult(t, srv.ChatRequests()[1]); !strings.Contains(got, "hi-from-bash") {
		t.Errorf("with --allowed-tools bash(echo:*) the command did not run: %q (stderr %q)", got, errs)
	}

	srv = llmtest.Start(t, script())
	_, errs, _ = runHeadlessIn(t, srv, project(t), nil, "-p", "say hi", "--permission-mode", "yolo", "--disallowed-tools", "bash(echo:*)")
	if got := toolResult(t, srv.ChatRequests()[1]); strings.Contains(got, "hi-from-bash") || !strings.Contains(errs, "denied bash") {
		t.Errorf("with --disallowed-tools bash(echo:*) the command ran: %q (stderr %q)", got, errs)
	}

	// A rule that does not parse is a usage error before anything runs.
	srv = llmtest.Start(t, script())
	_, errs, code = runHeadlessIn(t, srv, project(t), nil, "-p", "say hi", "--allowed-tools", "bash(echo")
	if code != 2 || !strings.Contains(errs, "--allowed-tools") || len(srv.ChatRequests()) != 0 {
		t.Errorf("bad rule: exit %d, %d requests, stderr %q", code, len(srv.ChatRequests()), errs)
	}
}

// stream-json starts with an init line: the session, the model, the tools,
// the directory and the permission mode.
func TestHeadlessStreamJSONStartsWithInit(t *testing.T) {
	srv := llmtest.Start(t, headlessScript())
	dir := project(t)
	out, errs, code := runHeadlessIn(t, srv, dir, nil, "-p", "what is this?", "--output-format", "stream-json", "--permission-mode", "plan")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	var lines []map[string]any
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line is not JSON: %q", sc.Text())
		}
		lines = append(lines, ev)
	}
	if len(lines) < 2 {
		t.Fatalf("output: %s", out)
	}
	init, end := lines[0], lines[len(lines)-1]
	if init["type"] != "init" {
		t.Fatalf("first line is %v, want type init", init)
	}
	tools, _ := init["tools"].([]any)
	var names []string
	for _, n := range tools {
		names = append(names, n.(string))
	}
	if init["session_id"] == "" || init["session_id"] != end["session_id"] || init["model"] != "openai/scripted" ||
		init["cwd"] != dir || init["permission_mode"] != "plan" || !strings.Contains(","+strings.Join(names, ",")+",", ",bash,") {
		t.Errorf("init = %v (turn_end session %v)", init, end["session_id"])
	}
}

// The json result says what the run cost at the model's price: the
// built-in table's for a known model, price_per_mtok's when set, and
// nothing (not 0) for a model without a price.
func TestHeadlessJSONCost(t *testing.T) {
	cost := func(t *testing.T, model string, extra ...string) (float64, bool) {
		t.Helper()
		srv := llmtest.Start(t, headlessScript()) // 1200 prompt tokens, 18 out in all
		args := append([]string{"-p", "what is this?", "--output-format", "json", "--model", model}, extra...)
		out, errs, code := runHeadlessIn(t, srv, project(t), nil, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		c, ok := v["cost_usd"].(float64)
		return c, ok
	}
	// gpt-4o: $2.50 in, $10 out per million.
	if c, ok := cost(t, "gpt-4o"); !ok || c < 0.00317 || c > 0.00319 {
		t.Errorf("gpt-4o: cost_usd = %v (%v), want 0.00318", c, ok)
	}
	if c, ok := cost(t, "scripted"); ok {
		t.Errorf("a model without a price: cost_usd = %v, want the key left out", c)
	}
	cfg := t.TempDir() + "/config.yaml"
	writeFile(t, cfg, "models:\n  chat_model:\n    price_per_mtok: {input: 1000, output: 2000}\n")
	// 1200×1000/1e6 + 18×2000/1e6 = 1.2 + 0.036.
	if c, ok := cost(t, "scripted", "--config", cfg); !ok || c < 1.2359 || c > 1.2361 {
		t.Errorf("price_per_mtok: cost_usd = %v (%v), want 1.236", c, ok)
	}
}

// An @-mention in the prompt attaches the file as the chat does; one that
// names nothing is reported on stderr and the run goes on; a mention in
// piped text is data and attaches nothing.
func TestHeadlessMentionsAttachFiles(t *testing.T) {
	srv := llmtest.Start(t, answerOnly())
	dir := project(t)
	writeFile(t, filepath.Join(dir, "notes.txt"), "the launch is on Tuesday\n")
	_, errs, code := runHeadlessIn(t, srv, dir, strings.NewReader("see also @README.md\n"), "-p", "summarise @notes.txt and @missing/x.go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := userText(t, srv.ChatRequests()[0])
	if !strings.Contains(got, `<attached path="notes.txt">`) || !strings.Contains(got, "the launch is on Tuesday") {
		t.Errorf("the model was not sent notes.txt:\n%s", got)
	}
	if strings.Contains(got, `<attached path="README.md">`) {
		t.Errorf("a mention in piped text attached a file:\n%s", got)
	}
	if !strings.Contains(errs, "not attached: missing/x.go") {
		t.Errorf("stderr does not name the failed mention: %q", errs)
	}
}
