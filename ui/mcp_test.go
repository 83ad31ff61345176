package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gdamore/tcell/v2"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/mcp"
)

// /tools lists an MCP server's tools as soon as it is ready, /mcp shows
// the servers and restarts one.
func TestToolsAndMCPCommands(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 120, 40)
	r.typeText("/mcp")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("no MCP servers are configured")

	s := sdk.NewServer(&sdk.Implementation{Name: "calc", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{}, nil, nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	m := mcp.Start(context.Background(), map[string]config.MCPServer{"calc": {URL: srv.URL}}, t.TempDir(), nil, nil)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	r.onUI(func() { r.app.SetMCP(m) })

	r.typeText("/tools")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("MCP calc (ready): add")
	r.waitScreen("tools: bash, text_editor, todo_write")
	r.typeText("/mcp")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("calc — ready · 1 tool · http://")
	r.typeText("/mcp restart nope")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen(`no MCP server is called "nope"`)
	r.typeText("/mcp restart calc")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("MCP: restarting calc")
}
