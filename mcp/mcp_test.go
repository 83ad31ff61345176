package mcp

import (
	"context"
	"fmt"
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
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/mcp/mcptest"
	"github.com/fawn-ide/fawn/tools"
)

// TestMain lets the test binary double as a stdio MCP server.
func TestMain(m *testing.M) {
	mcptest.ServeStdioIfAsked()
	os.Exit(m.Run())
}

// deadline bounds every wait of these tests: generous for a loaded machine.
const deadline = 20 * time.Second

// changes records what Start reports.
type changes struct {
	mu  sync.Mutex
	got []Change
}

func (c *changes) add(ch Change) {
	c.mu.Lock()
	c.got = append(c.got, ch)
	c.mu.Unlock()
}

// waitFor waits until a change satisfies ok.
func (c *changes) waitFor(t *testing.T, what string, ok func(Change) bool) {
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
	return config.MCPServer{Command: self, Args: []string{"-test.run=^$"}, Env: map[string]string{mcptest.StdioEnv: "1"}}
}

func TestMCP(t *testing.T) {
	httpSrv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.Calc() }, nil))
	t.Cleanup(func() {
		httpSrv.CloseClientConnections()
		httpSrv.Close()
	})
	var ch changes
	m := Start(context.Background(), map[string]config.MCPServer{
		"calc":   {URL: httpSrv.URL},
		"stdio":  stdioServer(t),
		"broken": {Command: "/nonexistent/mcp-server"},
	}, t.TempDir(), nil, ch.add)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	st := map[string]Status{}
	for _, s := range m.Status() {
		st[s.Name] = s
	}
	if b := st["broken"]; b.State != Failed || !strings.Contains(b.LastError, "cannot start or reach it") {
		t.Errorf("broken: %+v", b)
	}
	if c := st["calc"]; c.State != Ready || strings.Join(c.Tools, " ") != "mcp__calc__add mcp__calc__die mcp__calc__fail mcp__calc__picture" {
		t.Errorf("calc: %+v", c)
	}
	ch.waitFor(t, "stdio ready with its tools", func(c Change) bool { return c.Server == "stdio" && c.State == Ready && len(c.NewTools) == 4 })
	byName := map[string]tools.Tool{}
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Name())
		byName[tl.Name()] = tl
	}
	if len(names) != 8 || names[0] != "mcp__calc__add" || names[4] != "mcp__stdio__add" || names[6] != "mcp__stdio__fail" {
		t.Fatalf("tools %v", names)
	}

	ctx := context.Background()
	info, err := byName["mcp__calc__add"].Info(ctx)
	if err != nil || info.Desc != "Adds two numbers." {
		t.Errorf("info %+v %v", info, err)
	} else if js, err := info.ParamsOneOf.ToJSONSchema(); err != nil || js.Properties.Len() != 2 {
		t.Errorf("parameters %+v %v", js, err)
	}
	if act, err := byName["mcp__calc__add"].Plan(ctx, `{"a":2,"b":3}`); err != nil || act.Kind != tools.KindOther || act.Summary != `calc: add {"a":2,"b":3}` {
		t.Errorf("plan %+v %v", act, err)
	}
	for name, want := range map[string]string{"mcp__calc__add": "5", "mcp__stdio__add": "42"} {
		args := map[string]string{"mcp__calc__add": `{"a":2,"b":3}`, "mcp__stdio__add": `{"a":40,"b":2}`}[name]
		if got, err := byName[name].(tool.InvokableTool).InvokableRun(ctx, args); err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if got, err := byName["mcp__calc__fail"].(tool.InvokableTool).InvokableRun(ctx, `{}`); err != nil || !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "this tool always fails") {
		t.Errorf("fail = %q, %v", got, err)
	}
	// A picture comes back named in the text and as itself through Emit.
	var imgs []tools.Image
	ectx := tools.WithEmitter(ctx, func(ev any) {
		if p, ok := ev.(tools.Images); ok {
			imgs = append(imgs, p.Images...)
		}
	})
	if got, err := byName["mcp__stdio__picture"].(tool.InvokableTool).InvokableRun(ectx, `{}`); err != nil || got != "Here it is:\n[image 4×4 PNG]" {
		t.Errorf("picture = %q, %v", got, err)
	}
	if len(imgs) != 1 || imgs[0].MIME != "image/png" || imgs[0].Width != 4 {
		t.Errorf("images emitted: %+v", imgs)
	}
}

// A stdio server that dies is started again and says so; its tools work
// again under the same names.
func TestMCPRestartsAServerThatDies(t *testing.T) {
	var ch changes
	m := Start(context.Background(), map[string]config.MCPServer{"calc": stdioServer(t)}, t.TempDir(), nil, ch.add)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	call := func(name, args string) (string, error) {
		for _, tl := range m.Tools() {
			if tl.Name() == name {
				return tl.(tool.InvokableTool).InvokableRun(context.Background(), args)
			}
		}
		t.Fatalf("no tool %s", name)
		return "", nil
	}
	if _, err := call("mcp__calc__die", `{}`); err == nil {
		t.Error("a call whose server died on it did not fail")
	}
	ch.waitFor(t, "restarting, with the server's last words", func(c Change) bool {
		return c.State == Restarting && strings.Contains(c.Err, "dying as asked") && c.Wait > 0
	})
	ch.waitFor(t, "back", func(c Change) bool { return c.State == Ready && c.Back })
	if got, err := call("mcp__calc__add", `{"a":1,"b":1}`); err != nil || got != "2" {
		t.Errorf("after the restart: %q, %v", got, err)
	}
	if st := m.Status()[0]; st.Restarts != 1 || st.State != Ready {
		t.Errorf("status %+v", st)
	}
	// /mcp restart: on demand.
	if err := m.Restart("calc"); err != nil {
		t.Fatal(err)
	}
	ch.waitFor(t, "restarted by the user", func(c Change) bool { return c.Err == "restarted by the user" })
	if err := m.Restart("nope"); err == nil || !strings.Contains(err.Error(), "calc") {
		t.Errorf("Restart(nope) = %v", err)
	}
}

// An HTTP server that goes away is reconnected once it is back.
func TestMCPReconnectsAnHTTPServerThatComesBack(t *testing.T) {
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.Calc() }, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
	srv.Start()
	var ch changes
	m := Start(context.Background(), map[string]config.MCPServer{"web": {URL: "http://" + addr}}, t.TempDir(), nil, ch.add)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	tl := m.Tools()[0] // add
	srv.CloseClientConnections()
	srv.Close()
	if _, err := tl.(tool.InvokableTool).InvokableRun(context.Background(), `{"a":1,"b":2}`); err == nil || !strings.Contains(err.Error(), "reconnecting") {
		t.Fatalf("a call to a server that is gone: %v", err)
	}
	ch.waitFor(t, "restarting", func(c Change) bool { return c.State == Restarting })
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
	ch.waitFor(t, "back", func(c Change) bool { return c.State == Ready && c.Back })
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
		Env: map[string]string{mcptest.StdioEnv: "1"}}
	var ch changes
	m := Start(context.Background(), map[string]config.MCPServer{"calc": srv}, dir, nil, ch.add)
	m.WaitStarted(context.Background())
	ch.waitFor(t, "ready", func(c Change) bool { return c.State == Ready })
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
