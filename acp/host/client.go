package host

import (
	"context"

	acp "github.com/coder/acp-go-sdk"
)

// client is the Host as the SDK's acp.Client: what the agent may ask of
// fawn. p is the run of the agent it serves.
type client struct {
	h *Host
	p *agentProc
}

var _ acp.Client = (*client)(nil)

func (c *client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	defer c.p.noteDone()
	c.h.update(n)
	return nil
}

func (c *client) RequestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.p.caughtUp()
	return c.h.requestPermission(ctx, p)
}

func (c *client) ReadTextFile(_ context.Context, p acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return c.h.readTextFile(p)
}

func (c *client) WriteTextFile(ctx context.Context, p acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	c.p.caughtUp()
	return c.h.writeTextFile(ctx, p)
}

func (c *client) CreateTerminal(ctx context.Context, p acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	c.p.caughtUp()
	return c.h.createTerminal(ctx, p)
}

func (c *client) KillTerminal(_ context.Context, p acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return c.h.killTerminal(p)
}

func (c *client) TerminalOutput(_ context.Context, p acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return c.h.terminalOutput(p)
}

func (c *client) ReleaseTerminal(_ context.Context, p acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return c.h.releaseTerminal(p)
}

func (c *client) WaitForTerminalExit(ctx context.Context, p acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return c.h.waitForTerminalExit(ctx, p)
}
