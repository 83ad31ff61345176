package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// acpClient is an editor on the SDK's client side: it records the updates
// and allows every permission request (answer picks otherwise).
type acpClient struct {
	mu      sync.Mutex
	updates []acp.SessionNotification
	asks    []acp.RequestPermissionRequest
}

func (c *acpClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates = append(c.updates, n)
	return nil
}

func (c *acpClient) RequestPermission(_ context.Context, req acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asks = append(c.asks, req)
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected("allow")}, nil
}

var errNotOffered = errors.New("not offered by this client")

func (c *acpClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errNotOffered
}

func (c *acpClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errNotOffered
}

func (c *acpClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errNotOffered
}

func (c *acpClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNotOffered
}

func (c *acpClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNotOffered
}

func (c *acpClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNotOffered
}

func (c *acpClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNotOffered
}

// jsonLines passes fawn's stdout on to the client and records every line
// that is not a JSON-RPC 2.0 message.
type jsonLines struct {
	pr  *io.PipeReader
	mu  sync.Mutex
	bad []string
	n   int
}

func watchLines(r io.Reader) *jsonLines {
	pr, pw := io.Pipe()
	j := &jsonLines{pr: pr}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			var m struct {
				JSONRPC string `json:"jsonrpc"`
			}
			j.mu.Lock()
			j.n++
			if err := json.Unmarshal(line, &m); err != nil || m.JSONRPC != "2.0" {
				j.bad = append(j.bad, string(line))
			}
			j.mu.Unlock()
			if _, err := pw.Write(append(append([]byte(nil), line...), '\n')); err != nil {
				return
			}
		}
		pw.CloseWithError(sc.Err())
	}()
	return j
}

// startACP runs `fawn acp` on the scripted server with a fresh FAWN_HOME
// and connects a client to it.
func startACP(t *testing.T, srv *llmtest.Server, home string, args ...string) (*acp.ClientSideConnection, *acpClient, *jsonLines, *strings.Builder) {
	t.Helper()
	all := append([]string{"acp", "--base-url", srv.URL(), "--model", "scripted"}, args...)
	cmd := exec.Command(binary, all...)
	// HOME is the fresh one too: the machine's ~/.bashrc may be slow or
	// wait on a lock, and the agent's shell reads it.
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "HOME="+home, "OPENAI_API_KEY=", "ANTHROPIC_API_KEY=", "OPENAI_BASE_URL=")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &syncWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the client goes away: fawn acp ends
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("fawn acp exited: %v\n%s", err, stderr.String())
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("fawn acp did not exit when its stdin closed")
		}
	})
	lines := watchLines(stdout)
	cl := &acpClient{}
	return acp.NewClientSideConnection(cl, stdin, lines.pr), cl, lines, &stderr
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestACPBinary drives the real `fawn acp` as an editor would: a turn that
// edits a file and runs a command, asked about and allowed, in a project
// whose configuration is not trusted. Every line fawn writes to stdout is
// a JSON-RPC message; the untrusted project's MCP server never starts,
// and the first answer says why.
func TestACPBinary(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Writing.", ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"create","path":"note.txt","file_text":"hi\n"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"cat note.txt; echo exit-$((6*7))"}`)}},
		{Text: "Done."},
	}})
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "mcp-ran")
	writeFile(t, filepath.Join(dir, ".fawn", "config.yaml"),
		fmt.Sprintf("tools:\n  mcp_servers:\n    x:\n      command: sh\n      args: [\"-c\", \"echo ran > %s\"]\n", marker))
	conn, cl, lines, stderr := startACP(t, srv, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr)
	}
	sess, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: dir, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v\n%s", err, stderr)
	}
	resp, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("write a note and show it")}})
	if err != nil || resp.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v\n%s", resp, err, stderr)
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	var msg, out strings.Builder
	for _, n := range cl.updates {
		if c := n.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
			msg.WriteString(c.Content.Text.Text)
		}
		if u := n.Update.ToolCallUpdate; u != nil {
			for _, c := range u.Content {
				if c.Content != nil && c.Content.Content.Text != nil {
					out.WriteString(c.Content.Content.Text.Text)
				}
			}
		}
	}
	if !strings.HasPrefix(msg.String(), "fawn: this directory is not trusted, so fawn ignores") || !strings.HasSuffix(msg.String(), "Done.") {
		t.Errorf("the answer: %q", msg.String())
	}
	if !strings.Contains(out.String(), "exit-42") {
		t.Errorf("the command's output is not in its tool call: %q", out.String())
	}
	if len(cl.asks) != 2 {
		t.Errorf("%d permission requests, want 2 (the edit and the command)", len(cl.asks))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "note.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("note.txt: %q, %v", b, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the untrusted project's MCP server ran")
	}
	lines.mu.Lock()
	defer lines.mu.Unlock()
	if len(lines.bad) > 0 || lines.n == 0 {
		t.Errorf("stdout held %d lines that are not JSON-RPC (of %d): %q", len(lines.bad), lines.n, lines.bad)
	}
}
