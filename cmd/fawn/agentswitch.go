package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fawn-ide/fawn/acp/host"
	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/editor"
)

// backendOf is a task's agent backend in the workspace ws: fawn's own
// (hosted "") or the ACP agent the configuration names hosted, with the
// services it offers and what stops it.
func (k *taskKit) backendOf(ctx context.Context, c *config.Config, ws *workspace, ed *editor.Tabs, store *session.Store, hosted string) (backend.Agent, backend.Services, func(), error) {
	if hosted == "" {
		sess, err := agent.NewSession(ctx, agent.Options{Config: c, Env: ws.env, Tools: ws.tools, Interactive: true, Store: store, Redactor: k.red, SaveRule: ruleSaver(c), Skills: ws.skills, Subagents: ws.agents, AskUser: true, Trust: k.decision, Sandboxed: ws.sandbox.On, Pools: k.pools})
		if err != nil {
			return nil, backend.Services{}, nil, fmt.Errorf("cannot start its session: %w", err)
		}
		if k.pools == nil {
			k.pools = sess.Pools() // the next tasks share its slots
		}
		return sess, backend.SessionServices(sess), sess.Close, nil
	}
	h, err := hostedAgent(c, hosted, k.decision, k.red, ws, true, ed)
	if err != nil {
		return nil, backend.Services{}, nil, err
	}
	return h, hostedServices(h), func() { closeHosted(h) }, nil
}

// hostedServices are the services a hosted agent offers fawn.
func hostedServices(h *host.Host) backend.Services {
	s := backend.Services{AgentCommands: h, Auth: h, Attach: h}
	if h.Checkpoints() != nil {
		s.Rewind = h // the checkpoints of its edits
	}
	return s
}

// agentControl is /agent over the configured agents: each opens in a task
// of its own on the project (the project's own task keeps the agent fawn
// started with).
type agentControl struct {
	kit   *taskKit
	first string // the agent of the project's own task
}

func (a agentControl) Names() []string {
	names := make([]string, 0, len(a.kit.cfg.Agents))
	for n := range a.kit.cfg.Agents {
		if n != commands.OwnAgent {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return append([]string{commands.OwnAgent}, names...)
}

func (a agentControl) Describe(name string) string {
	if name == commands.OwnAgent {
		return "fawn's own agent · " + a.kit.cfg.Models.Chat.Model
	}
	ag := a.kit.cfg.Agents[name]
	return "ACP · " + strings.Join(append([]string{ag.Command}, ag.Args...), " ")
}

func (a agentControl) Open(name string) {
	app := a.kit.app
	if name == a.first {
		app.ShowTask(0)
		return
	}
	hosted, about := name, "the ACP agent "+name+" works on the project; its conversation is its own"
	if name == commands.OwnAgent {
		hosted, about = "", "fawn's own agent works on the project"
	}
	dir := a.kit.cfg.ProjectDir
	app.OpenTask(name, about+" (this task's edits and shell are its own; the other task's conversation goes on)", func(ctx context.Context) (ui.TaskOptions, error) {
		return a.kit.openOn(ctx, dir, hosted, false)
	})
}

func (a agentControl) LogPath(name string) string { return agentLogPath(a.kit.cfg, name) }

func (a agentControl) Tail(path string, max int) (string, error) { return host.LogTail(path, max) }

// agentLogPath is where agent name's stderr and protocol go: DATA/agents/NAME.log.
func agentLogPath(cfg *config.Config, name string) string {
	if cfg.DataDir == "" {
		return ""
	}
	return filepath.Join(cfg.DataDir, "agents", name+".log")
}
