package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// acpScript edits a file and runs a command, answers, then (for a second
// prompt) streams a story that stalls until the client cancels.
func acpScript() llmtest.Script {
	return llmtest.Script{Responses: []llmtest.Response{
		{Text: "Editing.", ToolCalls: []llmtest.ToolCall{{ID: "e1", Name: "text_editor", Arguments: `{"command":"create","path":"a.txt","file_text":"alpha\n"}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "b1", Name: "bash", Arguments: `{"command":"cat a.txt; echo ran-$((2+3))"}`}}},
		{Text: "Done."},
		{Text: "Once upon a time there was a story that went on and on.", Fault: &llmtest.Fault{Kind: llmtest.Stall, After: 2}},
	}}
}

// editorScript views and edits a file and runs a command (through the
// client's fs/* and terminal/* when it offers them), answers, then (for a
// second prompt) streams a story that stalls until the client cancels.
func editorScript() llmtest.Script {
	return llmtest.Script{Responses: []llmtest.Response{
		{Text: "Reading.", ToolCalls: []llmtest.ToolCall{{ID: "v1", Name: "text_editor", Arguments: `{"command":"view","path":"notes.txt"}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "e1", Name: "text_editor", Arguments: `{"command":"str_replace","path":"notes.txt","old_str":"unsaved","new_str":"edited"}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "b1", Name: "bash", Arguments: `{"command":"echo ran-$((2+3)) in $(basename \"$PWD\")"}`}}},
		{Text: "Done."},
		{Text: "Once upon a time there was a story that went on and on.", Fault: &llmtest.Fault{Kind: llmtest.Stall, After: 2}},
	}}
}

// update is the part of a session update the tests look at.
type update struct {
	SessionUpdate string          `json:"sessionUpdate"`
	ToolCallID    string          `json:"toolCallId"`
	Status        string          `json:"status"`
	Kind          string          `json:"kind"`
	Content       json.RawMessage `json:"content"`
	RawOutput     json.RawMessage `json:"rawOutput"`
}

// checkToolCalls fails unless every update of a call follows the call's
// start and each call of ids went pending → in_progress → completed.
func checkToolCalls(t *testing.T, ups []update, ids ...string) {
	t.Helper()
	started := map[string]bool{}
	went := map[string][]string{}
	for _, u := range ups {
		switch u.SessionUpdate {
		case "tool_call":
			started[u.ToolCallID] = true
		case "tool_call_update":
			if !started[u.ToolCallID] {
				t.Errorf("an update of call %q before its tool_call", u.ToolCallID)
			}
		default:
			continue
		}
		if s := u.Status; s != "" && (len(went[u.ToolCallID]) == 0 || went[u.ToolCallID][len(went[u.ToolCallID])-1] != s) {
			went[u.ToolCallID] = append(went[u.ToolCallID], s)
		}
	}
	for _, id := range ids {
		if got := strings.Join(went[id], ","); got != "pending,in_progress,completed" {
			t.Errorf("call %s went %s", id, got)
		}
	}
}

// TestACPTypeScriptClient drives `fawn acp` with a client on the
// TypeScript SDK (testdata/acp/client.mjs), an editor that offers fs/* and
// terminal/*: a turn that views and edits a file in the editor's unsaved
// buffer and runs a command in the editor's terminal, with its permission
// requests answered; a turn cancelled while the model streams; the session
// loaded in a second connection.
func TestACPTypeScriptClient(t *testing.T) {
	sdk := npmPackage(t, "@agentclientprotocol/sdk")
	srv := llmtest.Start(t, editorScript())
	dir, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("saved words\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	client, _ := filepath.Abs("testdata/acp/client.mjs")
	cmd := exec.Command("node", client, sdk, dir, "--", binary, "acp", "--base-url", srv.URL(), "--model", "scripted")
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "HOME="+home, "OPENAI_API_KEY=", "ANTHROPIC_API_KEY=", "OPENAI_BASE_URL=",
		`ACP_CLIENT_BUFFERS={"notes.txt":"unsaved words\n"}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.String())
	}
	var out struct {
		ProtocolVersion int      `json:"protocolVersion"`
		LoadSession     bool     `json:"loadSession"`
		Images          bool     `json:"images"`
		SessionID       string   `json:"sessionId"`
		Mode            string   `json:"mode"`
		Stop1           string   `json:"stop1"`
		Stop2           string   `json:"stop2"`
		Asks            []string `json:"asks"`
		Turn1           []update `json:"turn1"`
		Replay          []update `json:"replay"`
		FS              struct {
			Reads  []string `json:"reads"`
			Writes []string `json:"writes"`
		} `json:"fs"`
		Terminals struct {
			Created []struct {
				ID      string   `json:"id"`
				Command string   `json:"command"`
				Args    []string `json:"args"`
				Cwd     string   `json:"cwd"`
			} `json:"created"`
			Released []string `json:"released"`
		} `json:"terminals"`
		Buffers map[string]string `json:"buffers"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("client output: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if out.ProtocolVersion != 1 || !out.LoadSession || !out.Images || out.SessionID == "" || out.Mode != "ask" {
		t.Errorf("initialize and session/new: %+v", out)
	}
	if out.Stop1 != "end_turn" || strings.Join(out.Asks, ",") != "e1,b1" {
		t.Errorf("first turn: stop %q, permission requests %v", out.Stop1, out.Asks)
	}
	checkToolCalls(t, out.Turn1, "v1", "e1", "b1")
	// The file was viewed and edited in the editor's buffer, through fs/*:
	// the agent saw the unsaved text, the editor has the edit, the disk
	// is as the user saved it.
	if !slices.Contains(out.FS.Reads, "notes.txt") || strings.Join(out.FS.Writes, ",") != "notes.txt" {
		t.Errorf("fs/* calls: %+v", out.FS)
	}
	if got := out.Buffers["notes.txt"]; got != "edited words\n" {
		t.Errorf("the editor's buffer of notes.txt: %q", got)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "saved words\n" {
		t.Errorf("notes.txt on disk: %q, %v", b, err)
	}
	var diff, term, exit bool
	for _, u := range out.Turn1 {
		diff = diff || (u.ToolCallID == "e1" && strings.Contains(string(u.Content), `"type":"diff"`) && strings.Contains(string(u.Content), "unsaved words"))
		term = term || (u.ToolCallID == "b1" && strings.Contains(string(u.Content), `"type":"terminal"`) && strings.Contains(string(u.Content), `"terminalId":"term-1"`))
		exit = exit || (u.ToolCallID == "b1" && strings.Contains(string(u.RawOutput), `"exitCode":0`) && strings.Contains(string(u.RawOutput), "ran-5 in "+filepath.Base(dir)))
	}
	if !diff || !term || !exit {
		t.Errorf("the edit's diff of the buffer (%v), the command's terminal (%v) or its output and exit code (%v) is missing", diff, term, exit)
	}
	// The command ran in the editor's terminal, in the project, and the
	// terminal was released.
	if c := out.Terminals.Created; len(c) != 1 || c[0].Command != "bash" || c[0].Cwd != realDir(t, dir) || strings.Join(out.Terminals.Released, ",") != "term-1" {
		t.Errorf("terminals: %+v", out.Terminals)
	}
	if out.Stop2 != "cancelled" {
		t.Errorf("the cancelled turn stopped with %q", out.Stop2)
	}
	var kinds []string
	for _, u := range out.Replay {
		kinds = append(kinds, u.SessionUpdate)
	}
	if got := strings.Join(kinds, ","); !strings.HasPrefix(got, "user_message_chunk,agent_message_chunk,"+strings.Repeat("tool_call,tool_call_update,tool_call_update,", 3)+"agent_message_chunk,user_message_chunk") {
		t.Errorf("the loaded session replayed %s", got)
	}
}

// realDir is dir with its symlinks resolved, as fawn names the project.
func realDir(t *testing.T, dir string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// TestACPAcpx drives `fawn acp` with acpx, the command-line ACP client:
// `acpx --agent "fawn acp …" --approve-all --format json exec PROMPT`
// prints the two-way transcript as JSON lines.
func TestACPAcpx(t *testing.T) {
	acpx := npmBin(t, "acpx")
	srv := llmtest.Start(t, acpScript())
	dir, home := t.TempDir(), t.TempDir()
	cmd := exec.Command(acpx, "--agent", binary+" acp --base-url "+srv.URL()+" --model scripted", "--approve-all", "--format", "json",
		"--cwd", dir, "--timeout", "120", "exec", "write a.txt and show it")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "HOME="+home, "OPENAI_API_KEY=", "ANTHROPIC_API_KEY=", "OPENAI_BASE_URL=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("acpx: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var ups []update
	var stop string
	var used []string
	asks := 0
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Update update `json:"update"`
			} `json:"params"`
			Result struct {
				StopReason string `json:"stopReason"`
			} `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("acpx printed a line that is not JSON: %q", sc.Text())
		}
		switch m.Method {
		case "session/update":
			ups = append(ups, m.Params.Update)
		case "session/request_permission":
			asks++
		case "fs/write_text_file", "terminal/create":
			// acpx offers fs/* and terminal/*: the edit and the
			// command go through them.
			used = append(used, m.Method)
		}
		if m.Result.StopReason != "" {
			stop = m.Result.StopReason
		}
	}
	if stop != "end_turn" || asks != 2 {
		t.Errorf("stop reason %q, %d permission requests; want end_turn and 2\n%s", stop, asks, stdout.String())
	}
	checkToolCalls(t, ups, "e1", "b1")
	if got := strings.Join(used, ","); got != "fs/write_text_file,terminal/create" {
		t.Errorf("acpx was asked %s; want the edit written and the command run through it", got)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "alpha\n" {
		t.Errorf("a.txt: %q, %v", b, err)
	}
}

// npmPackage finds an npm package the tests use as a library, installed
// as .ci/run installs it; it returns the npm prefix it is under.
func npmPackage(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("NPM_TEST_PACKAGES_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "fawn-test-npm")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", name, "package.json")); err != nil {
		t.Skipf("%s is not installed: .ci/run installs the packages of .ci/npm-test-packages under %s", name, dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed (apt-get install -y nodejs)")
	}
	return dir
}
