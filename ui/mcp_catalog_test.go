package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/mcp/mcptest"
)

// library starts the test library as an MCP server and gives it to the app.
func library(t *testing.T, r *running) {
	t.Helper()
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.Library() }, nil))
	m := mcp.Start(context.Background(), map[string]config.MCPServer{"library": {URL: srv.URL}}, t.TempDir(), nil, nil)
	t.Cleanup(func() {
		m.Close()
		srv.CloseClientConnections()
		srv.Close()
	})
	m.WaitStarted(context.Background())
	r.onUI(func() { r.app.SetMCP(m) })
}

// An MCP server's prompts are slash commands: completed with their
// arguments and description, their arguments bound from what is typed,
// their messages sent as the user's and shown in the chat.
func TestMCPPromptsAreSlashCommands(t *testing.T) {
	r, srv, _, _, _ := mentionParts(t, "scripted", llmtest.Response{Text: "Reviewed."})
	library(t, r)
	r.typeText("/mcp__lib")
	r.waitScreen("/mcp__library__review <file> [focus]")
	r.waitScreen("[focus]  Review a file. · MC")
	r.waitScreen("/mcp__library__greet")
	r.onUI(func() { r.app.task.input.SetText("", true) })

	r.typeText("/mcp__library__greet hello")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("/mcp__library__greet takes no arguments")

	r.typeText("/mcp__library__review main.go the error paths")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("› Review main.go. Look at the error paths.")
	r.waitScreen("Reviewed.")
	msgs := srv.ChatRequests()[0].Messages
	if sent := string(msgs[len(msgs)-1].Content); sent != "Review main.go. Look at the error paths." {
		t.Errorf("the model was sent %q", sent)
	}
}

// Typing @ offers the MCP servers' resources, as SERVER:URI, beside the
// project's files; one whose name could drive the terminal is left out.
func TestMCPResourcesAreOfferedAsMentions(t *testing.T) {
	r, _, _, _, _ := mentionParts(t, "scripted")
	library(t, r)
	r.typeText("see @libnotes")
	r.waitScreen("@library:library://notes")
	r.key(tcell.KeyTab, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "see @library:library://notes " {
			t.Errorf("Tab gave %q", got)
		}
	})
	r.typeText("@library")
	r.waitScreen("@library:library://logo.bin")
	if s := r.text(); strings.Contains(s, "library://hostile") {
		t.Errorf("the @ list offers a resource whose URI holds a bidi override:\n%s", s)
	}
}
