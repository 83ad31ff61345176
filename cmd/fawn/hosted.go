package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

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
	book := hostedCheckpoints(cfg, name, ws.env, red)
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
		OnSession:   lastConversationOf(cfg, name, ws.env.Root).save,
	})
	if err != nil && book != nil {
		_ = book.Close()
	}
	return h, err
}

// hostedCheckpoints is the checkpoint book of a run of the hosted agent,
// kept apart from fawn's own sessions (DATA/agents/NAME/sessions/…); nil
// without a data directory.
func hostedCheckpoints(cfg *config.Config, name string, env *tools.Env, red *secret.Redactor) *checkpoint.Book {
	root := env.Root
	if cfg.DataDir == "" {
		return nil
	}
	st, err := session.New(filepath.Join(cfg.DataDir, "agents", name), root, session.Options{Secrets: red.Values(), Fawn: version})
	if err != nil {
		return nil
	}
	id := session.NewID()
	b, err := checkpoint.Open(filepath.Join(st.Dir(), id), root, st.Blobs(id), checkpoint.Options{Watch: env.Watch})
	if err != nil {
		return nil
	}
	return b
}

// lastConversation is the file that keeps the ID of the hosted agent's last
// conversation in a project, which --continue loads ("": none kept).
type lastConversation string

// lastConversationOf is agent name's file in the project root, beside
// its checkpoints ("" without a data directory).
func lastConversationOf(cfg *config.Config, name, root string) lastConversation {
	if cfg.DataDir == "" {
		return ""
	}
	return lastConversation(filepath.Join(cfg.DataDir, "agents", name, "sessions", session.ProjectKey(root), "last-conversation"))
}

// save keeps id as the last conversation, and adds it to the project's
// list of them (a failure only loses what --continue or --resume would
// load).
func (l lastConversation) save(id string) {
	if l == "" || strings.ContainsAny(id, "\n\t") {
		return
	}
	if err := os.MkdirAll(filepath.Dir(string(l)), 0o700); err != nil {
		return
	}
	_ = os.WriteFile(string(l), []byte(id+"\n"), 0o600)
	if slices.Contains(l.all(), id) {
		return
	}
	if f, err := os.OpenFile(l.list(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); err == nil {
		fmt.Fprintf(f, "%s\t%s\n", id, time.Now().UTC().Format(time.RFC3339))
		f.Close()
	}
}

// list is the file beside l that keeps every conversation, oldest first.
func (l lastConversation) list() string {
	return filepath.Join(filepath.Dir(string(l)), "conversations")
}

// all are the IDs of the conversations kept, oldest first.
func (l lastConversation) all() []string {
	if l == "" {
		return nil
	}
	b, err := os.ReadFile(l.list())
	if err != nil {
		return nil
	}
	var ids []string
	for _, line := range strings.Split(string(b), "\n") {
		if id, _, _ := strings.Cut(line, "\t"); strings.TrimSpace(id) != "" {
			ids = append(ids, strings.TrimSpace(id))
		}
	}
	return ids
}

// find is the kept conversation id names: itself, or the one it is a
// unique prefix of; an ID fawn did not keep is passed on as given (the
// agent may know it).
func (l lastConversation) find(id string) (string, error) {
	var match []string
	for _, k := range l.all() {
		if k == id {
			return k, nil
		}
		if strings.HasPrefix(k, id) {
			match = append(match, k)
		}
	}
	if len(match) > 1 {
		return "", fmt.Errorf("%q is the start of %d conversations (%s): give more of it", id, len(match), strings.Join(match, ", "))
	}
	if len(match) == 1 {
		return match[0], nil
	}
	return id, nil
}

// read is the ID kept, "" when there is none.
func (l lastConversation) read() string {
	if l == "" {
		return ""
	}
	b, err := os.ReadFile(string(l))
	if err != nil || len(b) > 1024 {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// continueHosted loads the hosted agent's last conversation in the project
// for --continue: its history for the chat (nil when there is none to
// load), and what to tell the user.
func continueHosted(ctx context.Context, cfg *config.Config, name string, h *host.Host, stderr io.Writer) (*agent.Resumed, string) {
	id := lastConversationOf(cfg, name, h.Root()).read()
	if id == "" {
		return nil, fmt.Sprintf("--continue: %s has no conversation in this project to carry on; this is a new one", name)
	}
	fmt.Fprintf(stderr, "fawn: loading %s's last conversation…\n", name)
	res, err := h.Load(ctx, id)
	if err != nil {
		return nil, "--continue: " + err.Error()
	}
	return res, ""
}

// resumeHosted loads the hosted agent's conversation id (--resume ID), or,
// without one, says which conversations in the project it may load.
func resumeHosted(ctx context.Context, cfg *config.Config, name, id string, h *host.Host, stderr io.Writer) (*agent.Resumed, string, error) {
	l := lastConversationOf(cfg, name, h.Root())
	if id == "" {
		ids := l.all()
		if len(ids) == 0 {
			return nil, "", fmt.Errorf("--resume: %s has had no conversation in this project", name)
		}
		slices.Reverse(ids)
		return nil, "", fmt.Errorf("--resume with --agent needs the ID of one of %s's conversations in this project, newest first: %s", name, strings.Join(ids, ", "))
	}
	full, err := l.find(id)
	if err != nil {
		return nil, "", fmt.Errorf("--resume: %w", err)
	}
	fmt.Fprintf(stderr, "fawn: loading %s's conversation %s…\n", name, full)
	res, err := h.Load(ctx, full)
	if err != nil {
		return nil, "--resume: " + err.Error(), nil
	}
	return res, "", nil
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
	if c.sess.cont {
		if _, note := continueHosted(ctx, cfg, c.agent, h, stderr); note != "" {
			fmt.Fprintf(stderr, "fawn: %s\n", note)
		}
	}
	if c.sess.resumeSet {
		_, note, err := resumeHosted(ctx, cfg, c.agent, c.sess.id, h, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "fawn: %v\n", err)
			return exitUsage
		}
		if note != "" {
			fmt.Fprintf(stderr, "fawn: %s\n", note)
		}
	}
	typed := ""
	if prompt == c.prompt {
		typed = prompt // the user's own words, not a command's
	}
	in, err := headlessInput(ctx, h, h.ModelName(), cfg.ProjectDir, typed, withStdin(prompt, c.stdin), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	code := agent.RunHeadlessOnBranch(ctx, h, in, c.outputFormat, "", stdout, stderr)
	if sc := signalExit(ctx, nil); code == exitInterrupted && sc != 0 {
		return sc
	}
	return code
}
