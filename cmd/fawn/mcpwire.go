package main

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
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
