package main

import (
	"context"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/lsp"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/editor"
)

// lspServers are the built-in language servers changed by lsp.*.
func lspServers(cfg *config.Config) []lsp.Server {
	conf := make(map[string]lsp.Server, len(cfg.LSP))
	for name, s := range cfg.LSP {
		conf[name] = lsp.Server{Command: s.Command, Args: s.Args, Extensions: s.Extensions, RootMarkers: s.RootMarkers,
			Env: s.Env, InitOptions: s.InitOptions, Disabled: s.Disabled}
	}
	return lsp.Merge(lsp.Defaults(), conf)
}

// lspSource is the trust source of the language servers the project would
// start: a server runs on the project's code (and some run its build
// scripts or plugins), so it starts only in a trusted directory.
func lspSource(cfg *config.Config) trust.Source {
	return trust.SourceFunc(func(dir string) ([]trust.Item, error) {
		return lsp.Items(dir, lspServers(cfg)), nil
	})
}

// newLSP builds the project's language server manager (nothing starts
// yet). What the servers say is published on w.topics.
func newLSP(cfg *config.Config, w *workspace, d *trust.Decision) *lsp.Manager {
	return lsp.New(lsp.Options{
		Root: w.env.Root, Servers: lspServers(cfg), Env: w.environ, Allowed: d.Allows,
		OnDiagnostics: func(path string, ps []lsp.Problem) {
			w.topics.problems.Publish(fileProblems{Path: path, Problems: ps})
		},
		OnEvent: func(msg string, problem bool) {
			w.topics.lspNews.Publish(lspNews{Text: msg, Problem: problem})
		},
	})
}

// wireLSP connects the language servers to the app: their diagnostics
// mark the editor, their news go to the chat, the editor's opened and
// saved files go to them, F12 and hover ask them. The function it returns
// ends the subscriptions.
func wireLSP(app *ui.App, ed *editor.Tabs, ws *workspace) (unsubscribe func()) {
	app.SetLSP(ws.lsp)
	return wireEditorLSP(app, ed, ws)
}

// wireEditorLSP connects a workspace's language servers to its editor (a
// task's): diagnostics, opened and saved files, F12 and hover.
func wireEditorLSP(app *ui.App, ed *editor.Tabs, ws *workspace) (unsubscribe func()) {
	m := ws.lsp
	endProblems := ws.topics.problems.Subscribe(func(n fileProblems) {
		out := make([]editor.Problem, len(n.Problems))
		for i, p := range n.Problems {
			out[i] = editor.Problem{Line: p.Line, Col: p.Col, EndLine: p.EndLine, EndCol: p.EndCol, Severity: p.Severity, Message: p.Message, Source: p.Source}
		}
		app.QueueUpdate(func() {
			ed.SetProblems(n.Path, out)
			app.RequestDraw()
		})
	})
	endNews := ws.topics.lspNews.Subscribe(func(n lspNews) { app.Notify(n.Text, n.Problem) })
	unsubscribe = func() {
		endProblems()
		endNews()
	}
	if !m.Available() {
		return unsubscribe
	}
	ed.SetOnFile(m.Open)
	ed.SetOnType(m.Typed)
	ed.SetCodeNav(func(what, path string, line, col int) {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			if what == "hover" {
				h, err := m.Hover(ctx, path, line, col)
				msg, bad := strings.Join(strings.Fields(strings.ReplaceAll(h, "```", " ")), " "), false
				switch {
				case err != nil:
					msg, bad = err.Error(), true
				case msg == "":
					msg = "the language server has nothing to say about this place"
				}
				app.QueueUpdate(func() { ed.Flash(msg, bad); app.RequestDraw() })
				return
			}
			locs, err := m.Locate(ctx, "definition", path, line, col)
			app.QueueUpdate(func() {
				switch {
				case err != nil:
					ed.Flash(err.Error(), true)
				case len(locs) == 0:
					ed.Flash("no definition found here", true)
				default:
					if err := ed.Open(locs[0].Path, locs[0].Line); err != nil {
						ed.Flash(err.Error(), true)
					}
				}
				app.RequestDraw()
			})
		}()
	})
	return unsubscribe
}
