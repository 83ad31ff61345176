package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/termview"
	"github.com/fawn-ide/fawn/ui/theme"
)

// workspace is what both modes share: the project's tool environment, the
// shell the agent's commands run in, and the tools.
type workspace struct {
	env   *tools.Env
	term  *terminal.Terminal
	tools []tools.Tool
	close []func()
	// redraw is the app's RequestDraw once the app exists; the terminal's
	// damage callback is fixed at Start, before the app is built.
	redraw atomic.Pointer[func()]
}

func (w *workspace) Close() {
	for i := len(w.close) - 1; i >= 0; i-- {
		w.close[i]()
	}
}

func newWorkspace(cfg *config.Config) (*workspace, error) {
	env, err := tools.NewEnv(cfg.ProjectDir)
	if err != nil {
		return nil, err
	}
	env.BashTimeout = cfg.Tools.Bash.Timeout
	w := &workspace{env: env}
	term, err := terminal.Start(terminal.Options{
		Dir:        env.Root,
		Scrollback: cfg.Tools.Bash.Scrollback,
		OnDamage: func() {
			if f := w.redraw.Load(); f != nil {
				(*f)()
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("cannot start the shell: %w", err)
	}
	w.term = term
	w.close = append(w.close, func() { _ = term.Close() })
	w.tools = append(tools.Builtin(env), tools.NewBash(env, term))
	return w, nil
}

func headless(ctx context.Context, c *cli, cfg *config.Config, stdout, stderr io.Writer) int {
	ws, err := newWorkspace(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	defer ws.Close()
	// Headless runs one turn: it waits for the MCP servers (bounded per server).
	toolset := ws.tools
	if len(cfg.Tools.MCPServers) > 0 {
		m := agent.ConnectMCP(ctx, cfg.Tools.MCPServers, cfg.ProjectDir)
		defer m.Close()
		for _, p := range m.Problems {
			fmt.Fprintf(stderr, "fawn: %v\n", p)
		}
		toolset = append(toolset, m.Tools...)
	}
	sess, err := agent.NewSession(ctx, agent.Options{Config: cfg, Env: ws.env, Tools: toolset, Interactive: false})
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	defer sess.Close()
	return agent.RunHeadless(ctx, sess, c.prompt, c.outputFormat, stdout, stderr)
}

func interactive(ctx context.Context, c *cli, cfg *config.Config, rep *config.Report, stderr io.Writer) int {
	ws, err := newWorkspace(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	defer ws.Close()

	th := theme.Get(cfg.UI.Theme)
	edKeys := editor.DefaultKeys()
	ed := editor.New(cfg.ProjectDir, th, edKeys)
	defer ed.Close()
	ws.env.Guard = ed
	termKeys := termview.DefaultKeys()
	tv := termview.New(ws.term, th, termKeys)
	tv.SetBorder(false) // the app frames every pane and shows the view's live title
	keys := []*keymap.Table{edKeys, termKeys}

	sess, err := agent.NewSession(ctx, agent.Options{Config: cfg, Env: ws.env, Tools: ws.tools, Interactive: true})
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	defer sess.Close()

	app, err := ui.New(ui.Options{
		Agent:    sess,
		Config:   cfg,
		Root:     cfg.ProjectDir,
		Editor:   ed,
		Terminal: tv,
		Keys:     keys,
		Notices:  notices(cfg, rep),
	})
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	ed.SetRedraw(app.RequestDraw)
	draw := app.RequestDraw
	ws.redraw.Store(&draw)
	if len(cfg.Tools.MCPServers) > 0 {
		defer connectMCP(ctx, app, sess, cfg)()
	}
	if err := app.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// connectMCP starts the MCP servers in the background, so the IDE opens at
// once; their tools join the session from the next turn on. It returns the
// function that stops them.
func connectMCP(ctx context.Context, app *ui.App, sess *agent.Session, cfg *config.Config) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan *agent.MCP, 1)
	app.Go(func() {
		m := agent.ConnectMCP(ctx, cfg.Tools.MCPServers, cfg.ProjectDir)
		done <- m
		for _, p := range m.Problems {
			app.Notify(fmt.Sprintf("MCP: %v (check tools.mcp_servers)", p), true)
		}
		if len(m.Tools) == 0 {
			return
		}
		if err := sess.AddTools(m.Tools...); err != nil {
			app.Notify("MCP: "+err.Error(), true)
			return
		}
		app.Notify(fmt.Sprintf("MCP: %s ready from %s", count(len(m.Tools), "tool", "tools"),
			count(len(cfg.Tools.MCPServers)-len(m.Problems), "server", "servers")), false)
	})
	return func() {
		cancel() // a server still starting gives up
		select {
		case m := <-done:
			m.Close()
		case <-time.After(time.Second):
		}
	}
}

// notices are shown in the chat when the IDE opens.
func notices(cfg *config.Config, rep *config.Report) []string {
	var out []string
	if cfg.Models.Chat.Demo && cfg.Models.Chat.DemoReason != "" {
		out = append(out, config.DemoNotice(cfg.ConfigDir))
	}
	for _, w := range rep.Warnings {
		out = append(out, "warning: "+strings.TrimPrefix(w.String(), "config: "))
	}
	return out
}

// count says n of a thing: "1 tool", "3 tools".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
