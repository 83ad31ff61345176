package agent

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

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
	return s
}

func serveMCPStdio() {
	if err := calcServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func TestMCP(t *testing.T) {
	httpSrv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return calcServer() }, nil))
	t.Cleanup(httpSrv.Close)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	m := ConnectMCP(context.Background(), map[string]config.MCPServer{
		"calc":   {URL: httpSrv.URL},
		"stdio":  {Command: self, Args: []string{"-test.run=^$"}, Env: map[string]string{mcpStdioEnv: "1"}},
		"broken": {Command: "/nonexistent/mcp-server"},
	}, t.TempDir())
	t.Cleanup(m.Close)
	if len(m.Problems) != 1 || !strings.Contains(m.Problems[0].Error(), "mcp server broken: cannot start or reach it") {
		t.Errorf("problems: %v", m.Problems)
	}
	var names []string
	for _, tl := range m.Tools {
		names = append(names, tl.Name())
	}
	if strings.Join(names, " ") != "mcp__calc__add mcp__calc__fail mcp__stdio__add mcp__stdio__fail" {
		t.Fatalf("tools %v", names)
	}

	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "h", Name: "mcp__calc__add", Arguments: `{"a":2,"b":3}`},
			{ID: "s", Name: "mcp__stdio__add", Arguments: `{"a":40,"b":2}`},
			{ID: "f", Name: "mcp__calc__fail", Arguments: `{}`},
		}},
		text("5 and 42."),
	}}, ModeAsk, func(o *Options) { o.Tools = append(o.Tools, m.Tools...) })
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
	if len(tools) != 7 || tools[3].Function.Name != "mcp__calc__add" || !strings.Contains(string(tools[3].Function.Parameters), `"a"`) {
		t.Errorf("tools offered: %+v", tools)
	}
}
