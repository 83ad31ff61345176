package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fawn-ide/fawn/acp/serve"
	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/mcp"
)

// mcpResources is the session's @-mentions plus the MCP servers'
// resources: a mention SERVER:URI that names a configured server is read
// from that server (mcp.Manager.ReadResource); any other is the
// session's. The servers start after the app is built: until then (m
// unset) every mention is the session's.
type mcpResources struct {
	backend.Attacher
	m atomic.Pointer[mcp.Manager]
}

func (r *mcpResources) Attach(ctx context.Context, path string) (agent.Attachment, error) {
	m := r.m.Load()
	if m == nil {
		return r.Attacher.Attach(ctx, path)
	}
	if _, _, ok := m.ResourceRef(path); !ok {
		return r.Attacher.Attach(ctx, path)
	}
	res, err := m.ReadResource(ctx, path)
	if err != nil {
		return agent.Attachment{}, err
	}
	return agent.Attachment{Path: path, Text: res.Text, About: res.About}, nil
}

// mcpPrompt expands a headless prompt that names an MCP server's prompt
// ("/mcp__github__review 42", its arguments bound as in the chat); named
// is false for any other prompt. A /mcp__… name no ready server offers is
// an error that lists those that are offered.
func mcpPrompt(ctx context.Context, m *mcp.Manager, text string) (prompt string, named bool, err error) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/mcp__") {
		return "", false, nil
	}
	name, args, _ := strings.Cut(t[1:], " ")
	var offered []string
	if m != nil {
		for _, p := range m.Prompts() {
			if p.Command() != name {
				offered = append(offered, "/"+p.Command())
				continue
			}
			vals, err := p.Bind(strings.TrimSpace(args))
			if err != nil {
				return "", true, err
			}
			prompt, err := m.GetPrompt(ctx, p.Server, p.Name, vals)
			return prompt, true, err
		}
	}
	if len(offered) == 0 {
		return "", true, fmt.Errorf("/%s: no MCP server offers prompts (/mcp in the IDE shows the servers)", name)
	}
	return "", true, fmt.Errorf("/%s: no MCP server offers that prompt; these are offered: %s", name, strings.Join(offered, ", "))
}

// acpMCP is what the MCP servers offer an editor's session through
// `fawn acp` beside their tools (serve.MCP): prompts as slash commands,
// resources as @SERVER:URI. Its watchers are told of every change of the
// servers, from the manager's goroutines.
type acpMCP struct {
	m *mcp.Manager

	mu       sync.Mutex
	watchers []func()
}

var _ serve.MCP = (*acpMCP)(nil)

func (a *acpMCP) Prompts() []serve.Command {
	var out []serve.Command
	for _, p := range a.m.Prompts() {
		desc := p.Description
		if desc == "" {
			desc = p.Title
		}
		if desc == "" {
			desc = "prompt of the MCP server " + p.Server
		}
		out = append(out, serve.Command{Name: p.Command(), Description: safetext.Line(desc), Hint: safetext.Line(p.Synopsis())})
	}
	return out
}

func (a *acpMCP) Expand(ctx context.Context, name, args string) (string, bool, error) {
	if !strings.HasPrefix(name, "mcp__") {
		return "", false, nil
	}
	text, named, err := mcpPrompt(ctx, a.m, "/"+name+" "+args)
	return text, named, err
}

func (a *acpMCP) Resource(ctx context.Context, ref string) (agent.Attachment, bool, error) {
	if _, _, ok := a.m.ResourceRef(ref); !ok {
		return agent.Attachment{}, false, nil
	}
	res, err := a.m.ReadResource(ctx, ref)
	if err != nil {
		return agent.Attachment{}, true, err
	}
	return agent.Attachment{Path: ref, Text: res.Text, About: res.About}, true, nil
}

func (a *acpMCP) Watch(f func()) {
	a.mu.Lock()
	a.watchers = append(a.watchers, f)
	a.mu.Unlock()
}

// changed tells the watchers that the servers changed.
func (a *acpMCP) changed() {
	a.mu.Lock()
	ws := slices.Clone(a.watchers)
	a.mu.Unlock()
	for _, f := range ws {
		f()
	}
}

// mcpOffer is a as a serve.MCP: nil when no server is configured.
func mcpOffer(a *acpMCP) serve.MCP {
	if a == nil {
		return nil
	}
	return a
}
