package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

// workspace is what both modes share: the project's tool environment and tools.
type workspace struct {
	env   *tools.Env
	tools []tools.Tool
	close []func()
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
	w := &workspace{env: env, tools: []tools.Tool{tools.NewTextEditor(env)}}
	return w, nil
}

func headless(ctx context.Context, c *cli, cfg *config.Config, stdout, stderr io.Writer) int {
	ws, err := newWorkspace(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	defer ws.Close()
	sess, err := agent.NewSession(ctx, agent.Options{Config: cfg, Env: ws.env, Tools: ws.tools, Interactive: false})
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
	ws.env.Guard = ed
	keys := []*keymap.Table{edKeys}

	sess, err := agent.NewSession(ctx, agent.Options{Config: cfg, Env: ws.env, Tools: ws.tools, Interactive: true})
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	defer sess.Close()

	app, err := ui.New(ui.Options{
		Agent:   sess,
		Config:  cfg,
		Root:    cfg.ProjectDir,
		Editor:  ed,
		Keys:    keys,
		Notices: notices(cfg, rep),
	})
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	ed.SetRedraw(app.RequestDraw)
	if err := app.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// notices are shown in the chat when the IDE opens.
func notices(cfg *config.Config, rep *config.Report) []string {
	var out []string
	if cfg.Models.Chat.Demo && cfg.Models.Chat.DemoReason != "" {
		out = append(out, config.DemoHelp(cfg.ConfigDir))
	}
	for _, w := range rep.Warnings {
		out = append(out, "warning: "+strings.TrimPrefix(w.String(), "config: "))
	}
	return out
}
