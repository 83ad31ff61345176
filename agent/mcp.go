package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino-ext/components/tool/mcp/officialmcp"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
)

// mcpConnectTimeout bounds starting one MCP server and listing its tools.
const mcpConnectTimeout = 20 * time.Second

// MCP is the connection to the MCP servers of tools.mcp_servers.
type MCP struct {
	// Tools are the servers' tools, named mcp__SERVER__TOOL; each asks
	// permission like a command (their effects are unknown to fawn).
	Tools []tools.Tool
	// Problems lists the servers that could not be used, and why.
	Problems []error

	sessions []*mcp.ClientSession
}

// ConnectMCP starts (command) or connects to (url) every server, all at
// once, and lists their tools. A server that fails is reported in Problems
// and left out; the others are still used. Commands run in dir. Close the
// result when done: it stops the servers fawn started.
func ConnectMCP(ctx context.Context, servers map[string]config.MCPServer, dir string) *MCP {
	names := make([]string, 0, len(servers))
	for name := range servers {
		names = append(names, name)
	}
	sort.Strings(names)
	type conn struct {
		tools []tools.Tool
		sess  *mcp.ClientSession
		err   error
	}
	conns := make([]conn, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts, sess, err := connectMCP(ctx, name, servers[name], dir)
			conns[i] = conn{ts, sess, err}
		}()
	}
	wg.Wait()
	m := &MCP{}
	for i, c := range conns {
		if c.err != nil {
			m.Problems = append(m.Problems, fmt.Errorf("mcp server %s: %w", names[i], c.err))
			continue
		}
		m.Tools = append(m.Tools, c.tools...)
		m.sessions = append(m.sessions, c.sess)
	}
	return m
}

// Close ends every session and stops the servers fawn started.
func (m *MCP) Close() {
	for _, s := range m.sessions {
		_ = s.Close()
	}
	m.sessions = nil
}

func connectMCP(ctx context.Context, name string, srv config.MCPServer, dir string) ([]tools.Tool, *mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(ctx, mcpConnectTimeout)
	defer cancel()
	var transport mcp.Transport
	stderr := &tailBuffer{max: 2048}
	switch {
	case srv.Command != "":
		// Not CommandContext: the server outlives this connect call.
		cmd := exec.Command(srv.Command, srv.Args...)
		cmd.Dir = dir
		cmd.Env = os.Environ()
		for k, v := range srv.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Stderr = stderr // never onto fawn's screen
		transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	case srv.URL != "":
		transport = &mcp.StreamableClientTransport{Endpoint: srv.URL}
	default:
		return nil, nil, fmt.Errorf("neither command nor url is set")
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "fawn", Version: "1"}, nil)
	sess, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, nil, withStderr(fmt.Errorf("cannot start or reach it: %w", err), stderr)
	}
	base, err := officialmcp.GetTools(ctx, &officialmcp.Config{
		Cli:           sess,
		ServerName:    name,
		ListToolsMode: officialmcp.ListToolsAllPages,
		ToolNameMapper: func(_ context.Context, in officialmcp.ToolNameMapperInput) (officialmcp.ToolNameMapperOutput, error) {
			return officialmcp.ToolNameMapperOutput{ExposedName: mcpToolName(in.ServerName, in.Tool.Name)}, nil
		},
		ResultPolicy: &officialmcp.ResultPolicy{MaxChars: 100_000, PreserveTailChars: 10_000},
	})
	if err != nil {
		_ = sess.Close()
		return nil, nil, withStderr(fmt.Errorf("listing its tools: %w", err), stderr)
	}
	var out []tools.Tool
	for _, bt := range base {
		it, ok := bt.(tool.InvokableTool)
		if !ok {
			continue
		}
		info, err := it.Info(ctx)
		if err != nil {
			continue
		}
		raw, _ := info.Extra[officialmcp.ExtraMCPRawToolName].(string)
		out = append(out, &mcpTool{inner: it, info: info, server: name, raw: raw})
	}
	return out, sess, nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// mcpToolName is the name the model calls: mcp__SERVER__TOOL, in the
// characters and length every provider accepts.
func mcpToolName(server, tool string) string {
	n := "mcp__" + unsafeName.ReplaceAllString(server, "_") + "__" + unsafeName.ReplaceAllString(tool, "_")
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// mcpTool is one MCP server tool as a fawn tool.
type mcpTool struct {
	inner       tool.InvokableTool
	info        *schema.ToolInfo
	server, raw string
}

func (t *mcpTool) Name() string                                   { return t.info.Name }
func (t *mcpTool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// Plan describes the call; fawn cannot know what an MCP tool does, so it
// is KindOther and asks like a command.
func (t *mcpTool) Plan(_ context.Context, argsJSON string) (tools.Action, error) {
	return tools.Action{Kind: tools.KindOther, Summary: fmt.Sprintf("%s: %s %s", t.server, t.raw, clip(argsJSON, 160))}, nil
}

// InvokableRun calls the tool and returns its text content as text (other
// content stays JSON).
func (t *mcpTool) InvokableRun(ctx context.Context, argsJSON string, opts ...tool.Option) (string, error) {
	out, err := t.inner.InvokableRun(ctx, argsJSON, opts...)
	if err != nil {
		return "", err
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal([]byte(out), &res) != nil || len(res.Content) == 0 {
		return out, nil
	}
	var texts []string
	for _, c := range res.Content {
		if c.Type != "text" {
			return out, nil
		}
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, "\n"), nil
}

// tailBuffer keeps the last bytes a server wrote to stderr, for messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (w *tailBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > w.max {
		w.b = w.b[len(w.b)-w.max:]
	}
	return len(p), nil
}

func withStderr(err error, w *tailBuffer) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s := strings.TrimSpace(string(w.b)); s != "" {
		return fmt.Errorf("%w; it said: %s", err, clip(s, 500))
	}
	return err
}
