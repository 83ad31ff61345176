package agent

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The test binary doubles as a stdio MCP server: TestMain runs
// serveMCPStdio when this variable is set.
const mcpStdioEnv = "FAWN_AGENT_TEST_MCP_STDIO"

type addIn struct {
	A int `json:"a" jsonschema:"the first number"`
	B int `json:"b" jsonschema:"the second number"`
}

// tinyPNG is a 4×4 PNG.
var tinyPNG = func() []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 4)))
	return b.Bytes()
}()

func calcServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "calc", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds two numbers."},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails."},
		func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("this tool always fails")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "picture", Description: "Returns a picture."},
		func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Here it is:"},
				&mcp.ImageContent{Data: tinyPNG, MIMEType: "image/png"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "die", Description: "Ends the server's process."},
		func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "calc: dying as asked")
			os.Exit(3)
			return nil, nil, nil
		})
	return s
}

func serveMCPStdio() {
	if err := calcServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// changes records what StartMCP reports.
type changes struct {
	mu  sync.Mutex
	got []MCPChange
}

func (c *changes) add(ch MCPChange) {
	c.mu.Lock()
	c.got = append(c.got, ch)
	c.mu.Unlock()
}

// waitFor waits until a change satisfies ok.
func (c *changes) waitFor(t *testing.T, what string, ok func(MCPChange) bool) {
	t.Helper()
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		c.mu.Lock()
		for _, ch := range c.got {
			if ok(ch) {
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t.Fatalf("no change %s; got %+v", what, c.got)
}

func stdioServer(t *testing.T) config.MCPServer {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return config.MCPServer{Command: self, Args: []string{"-test.run=^$"}, Env: map[string]string{mcpStdioEnv: "1"}}
}

func TestMCP(t *testing.T) {
	httpSrv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return calcServer() }, nil))
	t.Cleanup(func() {
		httpSrv.CloseClientConnections()
		httpSrv.Close()
	})
	var ch changes
	m := StartMCP(context.Background(), map[string]config.MCPServer{
		"calc":   {URL: httpSrv.URL},
		"stdio":  stdioServer(t),
		"broken": {Command: "/nonexistent/mcp-server"},
	}, t.TempDir(), nil, ch.add)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	st := map[string]MCPStatus{}
	for _, s := range m.Status() {
		st[s.Name] = s
	}
	if b := st["broken"]; b.State != MCPFailed || !strings.Contains(b.LastError, "cannot start or reach it") {
		t.Errorf("broken: %+v", b)
	}
	if c := st["calc"]; c.State != MCPReady || strings.Join(c.Tools, " ") != "mcp__calc__add mcp__calc__die mcp__calc__fail mcp__calc__picture" {
		t.Errorf("calc: %+v", c)
	}
	ch.waitFor(t, "stdio ready with its tools", func(c MCPChange) bool { return c.Server == "stdio" && c.State == MCPReady && len(c.NewTools) == 4 })
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Name())
	}
	if len(names) != 8 || names[0] != "mcp__calc__add" || names[4] != "mcp__stdio__add" || names[6] != "mcp__stdio__fail" {
		t.Fatalf("tools %v", names)
	}

	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "h", Name: "mcp__calc__add", Arguments: `{"a":2,"b":3}`},
			{ID: "s", Name: "mcp__stdio__add", Arguments: `{"a":40,"b":2}`},
			{ID: "f", Name: "mcp__calc__fail", Arguments: `{}`},
		}},
		text("5 and 42."),
	}}, ModeAsk, func(o *Options) { o.Tools = append(o.Tools, m.Tools()...) })
	var asked []string
	evs := runChecked(t, h, context.Background(), "add", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			asked = append(asked, ev.Permission.Action.Summary)
			h.s.Approve(ev.ID, Answer{Decision: AllowOnce})
		}
	})
	got := map[string]Event{}
	for _, e := range ofType(evs, EventToolRunEnded) {
		got[e.ID] = e
	}
	if got["h"].Result != "5" || got["s"].Result != "42" || !got["f"].IsError || !strings.Contains(got["f"].Result, "this tool always fails") {
		t.Errorf("results:\n%s", render(evs))
	}
	if len(asked) != 3 || asked[0] != `calc: add {"a":2,"b":3}` {
		t.Errorf("asked %q", asked)
	}
	tools := h.srv.ChatRequests()[0].Tools
	if len(tools) != 11 || tools[3].Function.Name != "mcp__calc__add" || !strings.Contains(string(tools[3].Function.Parameters), `"a"`) {
		t.Errorf("tools offered: %d %+v", len(tools), tools[3])
	}
}

// A stdio server that dies is started again and says so; its tools work
// again under the same names.
func TestMCPRestartsAServerThatDies(t *testing.T) {
	var ch changes
	m := StartMCP(context.Background(), map[string]config.MCPServer{"calc": stdioServer(t)}, t.TempDir(), nil, ch.add)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "d", Name: "mcp__calc__die", Arguments: `{}`}}},
		text("It died."),
		{ToolCalls: []llmtest.ToolCall{{ID: "a", Name: "mcp__calc__add", Arguments: `{"a":1,"b":1}`}}},
		text("Back."),
	}}, ModeYolo, func(o *Options) { o.Tools = append(o.Tools, m.Tools()...) })
	runChecked(t, h, context.Background(), "die", nil)
	ch.waitFor(t, "restarting, with the server's last words", func(c MCPChange) bool {
		return c.State == MCPRestarting && strings.Contains(c.Err, "dying as asked") && c.Wait > 0
	})
	ch.waitFor(t, "back", func(c MCPChange) bool { return c.State == MCPReady && c.Back })
	evs := runChecked(t, h, context.Background(), "add", nil)
	if e := ofType(evs, EventToolRunEnded); len(e) != 1 || e[0].Result != "2" {
		t.Errorf("after the restart: %s", render(evs))
	}
	if st := m.Status()[0]; st.Restarts != 1 || st.State != MCPReady {
		t.Errorf("status %+v", st)
	}
	// /mcp restart: on demand.
	if err := m.Restart("calc"); err != nil {
		t.Fatal(err)
	}
	ch.waitFor(t, "restarted by the user", func(c MCPChange) bool { return c.Err == "restarted by the user" })
	if err := m.Restart("nope"); err == nil || !strings.Contains(err.Error(), "calc") {
		t.Errorf("Restart(nope) = %v", err)
	}
}

// An HTTP server that goes away is reconnected once it is back.
func TestMCPReconnectsAnHTTPServerThatComesBack(t *testing.T) {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return calcServer() }, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
	srv.Start()
	var ch changes
	m := StartMCP(context.Background(), map[string]config.MCPServer{"web": {URL: "http://" + addr}}, t.TempDir(), nil, ch.add)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	tl := m.Tools()[0] // add
	srv.CloseClientConnections()
	srv.Close()
	if _, err := tl.(tool.InvokableTool).InvokableRun(context.Background(), `{"a":1,"b":2}`); err == nil || !strings.Contains(err.Error(), "reconnecting") {
		t.Fatalf("a call to a server that is gone: %v", err)
	}
	ch.waitFor(t, "restarting", func(c MCPChange) bool { return c.State == MCPRestarting })
	ln2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	srv2 := &httptest.Server{Listener: ln2, Config: &http.Server{Handler: handler}}
	srv2.Start()
	t.Cleanup(func() {
		srv2.CloseClientConnections()
		srv2.Close()
	})
	ch.waitFor(t, "back", func(c MCPChange) bool { return c.State == MCPReady && c.Back })
}

// An image a tool returns reaches a model that takes images as an image,
// after the results; the result itself names it.
func TestMCPImagesReachAVisionModel(t *testing.T) {
	m := StartMCP(context.Background(), map[string]config.MCPServer{"calc": stdioServer(t)}, t.TempDir(), nil, nil)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	for _, vision := range []string{"yes", "no"} {
		h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{{ID: "p", Name: "mcp__calc__picture", Arguments: `{}`}}},
			text("A tiny picture."),
		}}, ModeYolo, func(o *Options) {
			o.Tools = append(o.Tools, m.Tools()...)
			o.Config.Models.Chat.Vision = vision
		})
		evs := runChecked(t, h, context.Background(), "show me", nil)
		if e := ofType(evs, EventToolRunEnded); len(e) != 1 || e[0].Result != "Here it is:\n[image 4×4 PNG]" {
			t.Errorf("vision %s: result %s", vision, render(evs))
		}
		msgs := h.srv.ChatRequests()[1].Messages
		last := msgs[len(msgs)-1]
		switch vision {
		case "yes":
			if last.Role != "user" || len(last.Images) != 1 || !strings.Contains(string(last.Content), "[image 4×4 PNG] from mcp__calc__picture") {
				t.Errorf("the image did not follow the result: %+v", last)
			}
		case "no":
			if last.Role != "tool" {
				t.Errorf("an image went to a model that does not take images: %+v", last)
			}
		}
	}
}

// A stdio server's own children end with it when fawn closes the server,
// also one that left its process group with setsid.
func TestMCPCloseEndsTheServersChildren(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	grand, sid := filepath.Join(dir, "grandchild"), filepath.Join(dir, "setsid")
	srv := config.MCPServer{Command: "bash", Args: []string{"-c",
		`sleep 300 & echo $! > "$1"; setsid sleep 300 & echo $! > "$2"; exec "$3" -test.run='^$'`, "server", grand, sid, self},
		Env: map[string]string{mcpStdioEnv: "1"}}
	var ch changes
	m := StartMCP(context.Background(), map[string]config.MCPServer{"calc": srv}, dir, nil, ch.add)
	m.WaitStarted(context.Background())
	ch.waitFor(t, "ready", func(c MCPChange) bool { return c.State == MCPReady })
	var pids []int
	for _, f := range []string{grand, sid} {
		b, _ := os.ReadFile(f)
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("the server wrote no child's pid to %s: %q", f, b)
		}
		pids = append(pids, pid)
	}
	m.Close()
	for i, pid := range pids {
		for end := time.Now().Add(deadline); ; time.Sleep(20 * time.Millisecond) {
			st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			if err != nil || strings.Contains(string(st), ") Z ") {
				break
			}
			if time.Now().After(end) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the MCP server's child %s outlived the server", []string{"in its process group", "in a session of its own"}[i])
			}
		}
	}
}
