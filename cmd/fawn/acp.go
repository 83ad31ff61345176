package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/fawn-ide/fawn/acp/serve"
	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/commands"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/trust"
)

// acpCommand is `fawn acp [DIR]`: fawn's agent as an ACP agent on stdin
// and stdout, for an editor that hosts agents. Every session opens the
// directory the client names (its cwd), or DIR when one is given, with
// the configuration, trust, tools, shell and MCP servers the IDE would
// have there. environ is the environment fawn started with (the model
// keys are read from it, once for each session's configuration).
func acpCommand(ctx context.Context, c *cli, environ []string, stdin io.Reader, stderr io.Writer) int {
	proto, err := guardStdout()
	if err != nil {
		fmt.Fprintf(stderr, "fawn acp: %v\n", err)
		return exitFailure
	}
	defer proto.Close()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	restoreGC()
	err = serve.Serve(ctx, stdin, proto, serve.Options{
		Version: version,
		Log:     log,
		Open: func(ctx context.Context, dir string, client *serve.Client) (*serve.Project, error) {
			if c.dir != "" {
				dir = c.dir
			}
			return openACP(ctx, c, environ, dir, client, stderr)
		},
		List: func(dir string) ([]session.Info, error) {
			if c.dir != "" {
				dir = c.dir
			}
			return listACP(c, environ, dir)
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "fawn acp: %v\n", err)
		return exitFailure
	}
	if code := signalExit(ctx, nil); code != 0 {
		return code
	}
	return exitOK
}

// guardStdout keeps stdout for the protocol alone: it returns a file on a
// copy of the original stdout (not inherited by children), and points
// descriptor 1, and os.Stdout, at stderr. A stray print — fawn's own, a
// library's, a child's that inherits descriptor 1 — then lands in the
// log, never in the middle of a JSON-RPC message.
func guardStdout() (*os.File, error) {
	fd, err := unix.FcntlInt(uintptr(unix.Stdout), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, fmt.Errorf("cannot keep stdout for the protocol: %w", err)
	}
	if err := unix.Dup2(unix.Stderr, unix.Stdout); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("cannot point stdout at stderr: %w", err)
	}
	os.Stdout = os.Stderr
	return os.NewFile(uintptr(fd), "acp-stdout"), nil
}

// openACP builds the fawn of one ACP session in dir. Trust is decided
// without asking, since stdout is the protocol's and the client shows no
// fawn prompt: a directory is trusted when the user trusted it in the IDE
// before (and nothing changed since) or when fawn acp runs with --trust;
// otherwise what its files would run or widen (MCP servers, model
// settings, language servers, hooks, its git configuration's programs) is
// ignored, and the first prompt's answer says so. What the client offers
// (its buffers, its terminals) replaces the disk and fawn's shell for the
// agent's tools.
func openACP(ctx context.Context, c *cli, environ []string, dir string, client *serve.Client, stderr io.Writer) (*serve.Project, error) {
	dir, err := projectDir(dir)
	if err != nil {
		return nil, err
	}
	opts := config.Options{ProjectDir: dir, File: c.configFile, Flags: c.flags(), Env: environ}
	cfg, rep, err := config.Load(opts)
	if err != nil {
		return nil, fmt.Errorf("%v (`fawn config --check %s` lists every problem)", err, dir)
	}
	red := dropKeys(environ, cfg, stderr)
	ts := checkTrust(dir, opts, cfg, rep)
	decision := ts.decide(c.trust)
	if decision == nil {
		decision = trust.Deny(dir, ts.items, ts.verdict.State)
	} else if cfg, rep, err = loadTrusted(opts, decision, cfg, rep); err != nil {
		return nil, fmt.Errorf("%v (`fawn config --check %s` lists every problem)", err, dir)
	} else {
		red = dropKeys(environ, cfg, stderr)
	}
	for _, p := range ts.problems {
		fmt.Fprintln(stderr, "fawn acp:", p)
	}
	ws, err := newWorkspace(cfg, decision, red, project.NewWatchers(project.WatchOptions{}))
	if err != nil {
		return nil, err
	}
	if err := ws.term.Started(); err != nil {
		ws.Close()
		return nil, fmt.Errorf("cannot start the shell: %w", err)
	}
	useClient(ws, client, clientEnv(environ, cfg, decision))
	sess, err := agent.NewSession(ctx, agent.Options{Config: cfg, Env: ws.env, Tools: ws.tools, Interactive: true, Store: newStore(cfg, red),
		Redactor: red, SaveRule: ruleSaver(cfg), Skills: ws.skills, Subagents: ws.agents, AskUser: true, Trust: decision, Sandboxed: ws.sandbox.On})
	if err != nil {
		ws.Close()
		return nil, err
	}
	closers := []func(){sess.Close, ws.Close}
	var offered *acpMCP
	if len(cfg.Tools.MCPServers) > 0 {
		// A server's tools join the session when it is ready, as in the
		// IDE; its prompts and resources are offered from then on.
		offered = &acpMCP{}
		// Not ctx: that is session/new's, over when it is answered; the
		// servers live as long as the session (m.Close).
		m := mcp.Start(context.WithoutCancel(ctx), cfg.Tools.MCPServers, cfg.ProjectDir, ws.environ, func(ch mcp.Change) {
			defer offered.changed()
			if ch.Catalog {
				return
			}
			if len(ch.NewTools) > 0 {
				if err := sess.AddTools(ch.NewTools...); err != nil {
					fmt.Fprintf(stderr, "fawn acp: MCP: %v\n", err)
				}
			}
			if ch.State == mcp.Failed {
				fmt.Fprintf(stderr, "fawn acp: MCP: %s: %s\n", ch.Server, ch.Err)
			}
		})
		offered.m = m
		closers = append([]func(){m.Close}, closers...)
	}
	return &serve.Project{
		Agent:    sess,
		Services: backend.SessionServices(sess),
		Root:     ws.env.Root,
		Commands: commands.Load(cfg.ConfigDir, cfg.ProjectDir),
		MCP:      mcpOffer(offered),
		Notices:  append(acpNotices(cfg, rep, decision), sandboxNotices(ws.sandbox)...),
		Close: func() {
			for _, f := range closers {
				f()
			}
		},
	}, nil
}

// useClient has the workspace's tools use what the client offers: its
// buffers for text_editor's file content, its terminals for bash (whose
// commands start with env set). The shell fawn started stays, unused by
// the agent — unless it is sandboxed: then the agent's commands stay in
// it, since commands in a sandboxed shell run without a request, and the
// editor's terminals are not sandboxed.
func useClient(ws *workspace, client *serve.Client, env []string) {
	ws.env.Buffers = client.Buffers
	if ws.sandbox.On() {
		return
	}
	r := client.Runner(ws.env.Root, env)
	if r == nil {
		return
	}
	for i, t := range ws.tools {
		if t.Name() == "bash" {
			ws.tools[i] = tools.NewBash(ws.env, r)
		}
	}
}

// clientEnv is what a command in the client's terminal gets set over the
// editor's environment, which fawn does not choose: what fawn's own shell
// sets for the agent's commands (no pager; in a project fawn does not
// trust, git that runs nothing its configuration names), and every
// variable fawn keeps from its shell (the model keys, shell.unset_env)
// emptied.
func clientEnv(environ []string, cfg *config.Config, d *trust.Decision) []string {
	env := []string{"PAGER=cat", "GIT_PAGER=cat"}
	if !d.Trusted() {
		env = append(env, terminal.GitGuardEnv(environ)...)
	}
	_, removed := config.CleanEnv(environ, cfg.Shell)
	for _, name := range removed {
		env = append(env, name+"=")
	}
	return env
}

// listACP lists the stored sessions of the project at dir. Listing runs
// nothing of the project, so its configuration is read untrusted: the
// data directory is the user's to choose.
func listACP(c *cli, environ []string, dir string) ([]session.Info, error) {
	dir, err := projectDir(dir)
	if err != nil {
		return nil, err
	}
	cfg, _, err := config.Load(config.Options{ProjectDir: dir, File: c.configFile, Flags: c.flags(), Env: environ})
	if err != nil {
		return nil, err
	}
	st := newStore(cfg, secret.NewRedactor(secrets(cfg)...))
	if st == nil {
		return nil, nil
	}
	return st.List()
}

// acpNotices are said at the start of a session's first answer: what of
// an untrusted project fawn ignores and how to trust it, the demo model,
// configuration warnings.
func acpNotices(cfg *config.Config, rep *config.Report, d *trust.Decision) []string {
	var out []string
	if ign := d.Ignored(); len(ign) > 0 {
		out = append(out, fmt.Sprintf("this directory is not trusted, so fawn ignores %s of %s. Trust it by opening it once in fawn's IDE and answering its prompt, or start the agent with `fawn acp --trust`.",
			safetext.Exact(trust.Summary(ign)), safetext.Exact(strings.Join(trust.Files(ign), ", "))))
	}
	if cfg.Models.Chat.Demo && cfg.Models.Chat.DemoReason != "" {
		out = append(out, config.DemoNotice(cfg.ConfigDir))
	}
	for _, w := range rep.Warnings {
		out = append(out, "warning: "+strings.TrimPrefix(w.String(), "config: "))
	}
	return out
}
