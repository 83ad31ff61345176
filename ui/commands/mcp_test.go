package commands

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/mcp"
)

// /mcp says how many prompts and resources a server offers, and how the
// chat reaches them.
func TestMCPTextShowsPromptsAndResources(t *testing.T) {
	got := mcpText([]mcp.Status{
		{Name: "library", State: mcp.Ready, Tools: []string{"mcp__library__lookup"}, Prompts: 2, Resources: 1, Endpoint: "http://127.0.0.1:1/mcp"},
		{Name: "calc", State: mcp.Ready, Endpoint: "calc"},
	})
	if want := "library — ready · 1 tool · 2 prompts (/mcp__library__…) · 1 resource (@library:…) · http://127.0.0.1:1/mcp"; !strings.Contains(got, want) {
		t.Errorf("/mcp:\n%s\nwant %q", got, want)
	}
	if !strings.Contains(got, "calc — ready · 0 tools · calc") {
		t.Errorf("/mcp:\n%s", got)
	}
}
