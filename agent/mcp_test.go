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

// calcMCP starts the test calculator as an MCP server over HTTP and returns
// fawn's client of it, ready.
func calcMCP(t *testing.T) *mcp.Manager {
	t.Helper()
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.Calc() }, nil))
	m := mcp.Start(context.Background(), map[string]config.MCPServer{"calc": {URL: srv.URL}}, t.TempDir(), nil, nil)
	t.Cleanup(func() {
		m.Close()
		srv.CloseClientConnections()
		srv.Close()
	})
	m.WaitStarted(context.Background())
	if st := m.Status()[0]; st.State != mcp.Ready {
		t.Fatalf("the calculator is not ready: %+v", st)
	}
	return m
}

// MCP tools are offered to the model, ask as commands do, and their
// results (and errors) reach it.
func TestMCP(t *testing.T) {
	m := calcMCP(t)
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "h", Name: "mcp__calc__add", Arguments: `{"a":2,"b":3}`},
			{ID: "f", Name: "mcp__calc__fail", Arguments: `{}`},
		}},
		text("5."),
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
	if got["h"].Result != "5" || !got["f"].IsError || !strings.Contains(got["f"].Result, "this tool always fails") {
		t.Errorf("results:\n%s", render(evs))
	}
	if len(asked) != 2 || asked[0] != `calc: add {"a":2,"b":3}` {
		t.Errorf("asked %q", asked)
	}
	tools := h.srv.ChatRequests()[0].Tools
	if len(tools) != 7 || tools[3].Function.Name != "mcp__calc__add" || !strings.Contains(string(tools[3].Function.Parameters), `"a"`) {
		t.Errorf("tools offered: %d %+v", len(tools), tools[3])
	}
}

// An image a tool returns reaches a model that takes images as an image,
// after the results; the result itself names it.
func TestMCPImagesReachAVisionModel(t *testing.T) {
	m := calcMCP(t)
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
