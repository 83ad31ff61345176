package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/mcp/mcptest"
)

// fileAttacher stands for the session's @-mentions of files: it records
// what it was asked.
type fileAttacher struct{ asked []string }

func (f *fileAttacher) Attach(_ context.Context, path string) (agent.Attachment, error) {
	f.asked = append(f.asked, path)
	return agent.Attachment{}, errors.New(path + ": no such file or directory")
}
func (f *fileAttacher) RunInput(context.Context, agent.Input) <-chan agent.Event { return nil }
func (f *fileAttacher) AcceptsImages() bool                                      { return false }

// An @-mention SERVER:URI of a configured MCP server is read from it (text
// attached, binary named); any other mention is the session's.
func TestMentionedMCPResources(t *testing.T) {
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.Library() }, nil))
	m := mcp.Start(context.Background(), map[string]config.MCPServer{"library": {URL: srv.URL}}, t.TempDir(), nil, nil)
	t.Cleanup(func() {
		m.Close()
		srv.CloseClientConnections()
		srv.Close()
	})
	m.WaitStarted(context.Background())
	files := &fileAttacher{}
	r := &mcpResources{Attacher: files}
	ctx := context.Background()
	if _, err := r.Attach(ctx, "library:library://notes"); err == nil {
		t.Error("a resource was read before the servers were given")
	}
	r.m.Store(m)
	att, err := r.Attach(ctx, "library:library://notes")
	if err != nil || att.Text != "The notes of the library." || att.About != "text, 25 B" || att.Path != "library:library://notes" {
		t.Errorf("notes: %+v, %v", att, err)
	}
	att, err = r.Attach(ctx, "library:library://logo.bin")
	if err != nil || !strings.Contains(att.Text, "binary") || !strings.Contains(att.About, "not attached") {
		t.Errorf("logo: %+v, %v", att, err)
	}
	if _, err := r.Attach(ctx, "main.go"); err == nil || strings.Join(files.asked, " ") != "library:library://notes main.go" {
		t.Errorf("the files asked for %v (%v)", files.asked, err)
	}
}
