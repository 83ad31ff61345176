package main

import (
	"context"
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
