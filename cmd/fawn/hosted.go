package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fawn-ide/fawn/acp/host"
	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/trust"
)

// hostedAgent is the ACP agent --agent names, hosted in ws: it works in the
// project, runs terminal/* commands in the shared shell, and is answered by
// the configured permission rules and mode. Its stderr goes to
// DATA/agents/NAME.log.
func hostedAgent(cfg *config.Config, name string, d *trust.Decision, red *secret.Redactor, ws *workspace, interactive bool, guard tools.EditGuard) (*host.Host, error) {
	a, ok := cfg.Agents[name]
	if !ok {
		names := make([]string, 0, len(cfg.Agents))
		for n := range cfg.Agents {
			names = append(names, n)
		}
		sort.Strings(names)
		have := "none is configured"
		if len(names) > 0 {
			have = "configured: " + strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("--agent %s: no such agent (%s); add it under agents: in your config (see config.example.yaml)", name, have)
	}
	logPath := agentLogPath(cfg, name)
	if logPath != "" && os.MkdirAll(filepath.Dir(logPath), 0o700) != nil {
		logPath = ""
	}
	book := hostedCheckpoints(cfg, name, ws.env.Root, red)
	h, err := host.New(host.Options{
		Name:        name,
		Agent:       a,
		Environ:     ws.environ,
		Root:        ws.env.Root,
		LogPath:     logPath,
		Permissions: cfg.Permissions,
		Trusted:     d.Trusted(),
		Interactive: interactive,
		SaveRule:    ruleSaver(cfg),
		Redactor:    red,
		Guard:       guard,
		Shell:       ws.term,
		MCPServers:  cfg.Tools.MCPServers,
		Checkpoints: book,
	})
	if err != nil && book != nil {
		_ = book.Close()
	}
	return h, err
}

// hostedCheckpoints is the checkpoint book of a run of the hosted agent,
// kept apart from fawn's own sessions (DATA/agents/NAME/sessions/…); nil
// without a data directory.
func hostedCheckpoints(cfg *config.Config, name, root string, red *secret.Redactor) *checkpoint.Book {
	if cfg.DataDir == "" {
		return nil
	}
	st, err := session.New(filepath.Join(cfg.DataDir, "agents", name), root, session.Options{Secrets: red.Values(), Fawn: version})
	if err != nil {
		return nil
	}
	id := session.NewID()
	b, err := checkpoint.Open(filepath.Join(st.Dir(), id), root, st.Blobs(id), checkpoint.Options{})
	if err != nil {
		return nil
	}
	return b
}

// closeHosted stops the hosted agent and closes its checkpoint book.
func closeHosted(h *host.Host) {
	h.Close()
	if b := h.Checkpoints(); b != nil {
		_ = b.Close()
	}
}

// headlessHosted runs one turn of the hosted agent, printed as fawn's own
// are (agent.RunHeadless).
func headlessHosted(ctx context.Context, c *cli, cfg *config.Config, d *trust.Decision, red *secret.Redactor, ws *workspace, stdout, stderr io.Writer) int {
	h, err := hostedAgent(cfg, c.agent, d, red, ws, false, nil)
	restoreGC()
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	defer closeHosted(h)
	prompt, err := customCommand(cfg, c.prompt)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	code := agent.RunHeadless(ctx, h, prompt, c.outputFormat, stdout, stderr)
	if sc := signalExit(ctx, nil); code == exitInterrupted && sc != 0 {
		return sc
	}
	return code
}
