package agent

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/mcp/mcptest"
)

// An MCP tool its server marks readOnlyHint runs without asking in ask
// and plan mode, as fawn's own reads do; one without the hint asks. A deny
// rule still refuses the read-only one, and an ask rule still asks.
func TestMCPReadOnlyHintDoesNotAsk(t *testing.T) {
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.Library() }, nil))
	m := mcp.Start(context.Background(), map[string]config.MCPServer{"library": {URL: srv.URL}}, t.TempDir(), nil, nil)
	t.Cleanup(func() {
		m.Close()
		srv.CloseClientConnections()
		srv.Close()
	})
	m.WaitStarted(context.Background())
	calls := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "l", Name: "mcp__library__lookup", Arguments: `{"title":"Dune"}`},
			{ID: "s", Name: "mcp__library__shelve", Arguments: `{"title":"Dune"}`},
		}},
		text("Done."),
	}}
	for _, c := range []struct {
		name      string
		mode      Mode
		edit      func(*Options)
		asked     string // the calls that asked, by ID
		looked    bool   // whether lookup ran
		lookupDoc string // what lookup's result says
	}{
		{name: "ask mode", mode: ModeAsk, asked: "s", looked: true},
		{name: "accept-edits", mode: ModeAcceptEdits, asked: "s", looked: true},
		{name: "plan mode", mode: ModePlan, asked: "", looked: true},
		{name: "deny rule", mode: ModeAsk, edit: func(o *Options) { o.Config.Permissions.Deny = []string{"mcp__library__lookup"} }, asked: "s", lookupDoc: "denied by the user's permission rule"},
		{name: "ask rule", mode: ModeAsk, edit: func(o *Options) { o.Config.Permissions.Ask = []string{"mcp__library"} }, asked: "ls", looked: true},
		{name: "ask rule in plan mode", mode: ModePlan, edit: func(o *Options) { o.Config.Permissions.Ask = []string{"mcp__library__lookup"} }, asked: "l", looked: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, calls, c.mode, func(o *Options) {
				o.Tools = append(o.Tools, m.Tools()...)
				if c.edit != nil {
					c.edit(o)
				}
			})
			asked := ""
			evs := runChecked(t, h, context.Background(), "file Dune", func(ev Event) {
				if ev.Type == EventPermissionAsked {
					asked += ev.ID
					h.s.Approve(ev.ID, Answer{Decision: AllowOnce})
				}
			})
			if asked != c.asked {
				t.Errorf("asked for %q, want %q:\n%s", asked, c.asked, render(evs))
			}
			got := map[string]Event{}
			for _, e := range ofType(evs, EventToolRunEnded) {
				got[e.ID] = e
			}
			if c.looked && got["l"].Result != "found Dune" {
				t.Errorf("lookup did not run: %+v\n%s", got["l"], render(evs))
			}
			if c.lookupDoc != "" && !strings.Contains(got["l"].Result, c.lookupDoc) {
				t.Errorf("lookup = %q, want %q", got["l"].Result, c.lookupDoc)
			}
		})
	}
}
