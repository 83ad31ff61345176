package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/rules"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
)

// Options configure a Host.
type Options struct {
	// Name is the agent's name in the configuration (agents.NAME).
	Name string
	// Agent is its command, arguments and the environment it adds.
	Agent config.ACPAgent
	// Environ is the environment the agent starts from: fawn's own minus
	// the model keys (config.CleanEnv). Agent.Env is added to it.
	Environ []string
	// Root is the project directory (absolute, symlinks resolved): the
	// agent's working directory and session, and the only place its file
	// requests reach.
	Root string
	// LogPath is the file the agent's stderr is appended to; "" discards it.
	LogPath string
	// Permissions are the permission mode and rules the agent's requests
	// are answered by before anyone is asked.
	Permissions config.Permissions
	// Trusted says the project is trusted (rules.Call.Untrusted otherwise).
	Trusted bool
	// Interactive says someone can answer a permission request (Approve);
	// headless, what the rules and mode do not allow is refused.
	Interactive bool
	// SaveRule keeps an "allow always" answer's rule (as agent.Options.SaveRule).
	SaveRule func(effect, rule string) (where string, err error)
	// Buffer, when set, returns the editor's text of an open file (unsaved
	// edits included) for fs/read_text_file; ok is false for a file not open.
	Buffer func(path string) (text []byte, ok bool)
	// Redactor hides the secrets fawn knows (the agent's own keys among
	// them) in what the agent writes to its log and in the errors shown.
	Redactor *secret.Redactor
	// Guard, when set, may refuse a write (the user has unsaved changes in
	// that file), as it refuses fawn's own agent's edits.
	Guard tools.EditGuard
	// Shell, when set, runs terminal/* commands visibly in fawn's shared
	// terminal; nil leaves the terminal capability out.
	Shell Shell
	// MCPServers are passed to session/new (the stdio ones; an agent that
	// takes HTTP servers gets those too).
	MCPServers map[string]config.MCPServer
	// Checkpoints, when set, records each change fawn sees the agent make
	// to a file (with its content before and after), one checkpoint per
	// prompt: /diff, the Changes tab and /rewind (its files) cover them.
	// What the agent's own commands change is not in it.
	Checkpoints *checkpoint.Book
	// OnSession, when set, is told the ID of each conversation the agent
	// opens, so that it can be loaded again (Load) another time.
	OnSession func(id string)
	// StartTimeout bounds starting the agent and opening its session
	// (default one minute: npx may unpack a package first).
	StartTimeout time.Duration
	// CancelGrace is how long a cancelled turn waits for the agent to
	// answer (default five seconds); then the agent is stopped.
	CancelGrace time.Duration
}

// Shell runs a command in fawn's shared terminal (*terminal.Terminal).
type Shell interface {
	Run(ctx context.Context, c terminal.Command, onOutput func(chunk string)) (terminal.Result, error)
}

// Host is an ACP agent as a fawn agent backend. Of the services of fawn's
// own agent (backend.Services) it offers the checkpoints of its edits
// (Rewind, when Options.Checkpoints is set); its conversation, compaction
// and models are the agent's own.
var (
	_ backend.Agent          = (*Host)(nil)
	_ backend.Rewinder       = (*Host)(nil)
	_ backend.AgentCommander = (*Host)(nil)
	_ backend.Authenticator  = (*Host)(nil)
	_ backend.Attacher       = (*Host)(nil)
)

// ErrOwnConversation: a hosted agent's conversation cannot be rewound.
var ErrOwnConversation = errors.New("the hosted agent keeps its own conversation, which fawn cannot rewind: rewind the files only")

// Checkpoints is the book of the agent's edits (nil when none is kept).
func (h *Host) Checkpoints() *checkpoint.Book { return h.opts.Checkpoints }

// RewindConversation fails: the conversation is the agent's (ErrOwnConversation).
func (h *Host) RewindConversation(int, string) error { return ErrOwnConversation }

// Host is an ACP agent as a fawn agent backend (backend.Agent).
type Host struct {
	opts Options

	mu      sync.Mutex
	proc    *agentProc // nil until the first turn, and after the agent ended
	session string     // the ACP session; "" until opened, and after Clear
	running bool
	turn    *turn // the turn running, nil between turns
	mode    agent.Mode
	rules   *rules.Set
	grants  map[grant]bool
	todos   []tools.Todo
	usage   agent.Usage
	// asks are the permission requests waiting for Approve, by call ID.
	asks map[string]chan agent.Answer
	// seq numbers what fawn names itself: plans, writes and terminals
	// that no tool call names.
	seq int
	// modes are the session modes the agent offers, agentMode the one it
	// is in (see modes.go).
	modes     []acp.SessionMode
	agentMode acp.SessionModeId
	// commands are the slash commands the agent offers (modes.go).
	commands []backend.AgentCommand
	// auth are the ways to sign in its initialize offered (auth.go).
	auth []backend.AuthMethod
	// replay collects the history of a conversation Load opens (load.go).
	replay *replay
	// terms are the terminals terminal/create started, by ID.
	terms map[string]*term
	wg    sync.WaitGroup
}

// New returns a Host for the agent opts describe. The agent starts with the
// first turn, so that fawn opens at once and a broken command shows where
// the user looks: in that turn's error.
func New(opts Options) (*Host, error) {
	if opts.Agent.Command == "" {
		return nil, fmt.Errorf("agent %q has no command: set agents.%s.command in your config", opts.Name, opts.Name)
	}
	if opts.Root == "" {
		return nil, fmt.Errorf("agent %q: no project directory", opts.Name)
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = time.Minute
	}
	if opts.CancelGrace <= 0 {
		opts.CancelGrace = 5 * time.Second
	}
	set, err := newRules(opts.Permissions)
	if err != nil {
		return nil, err
	}
	mode := agent.Mode(opts.Permissions.Mode)
	if mode == "" {
		mode = agent.ModeAsk
	}
	return &Host{opts: opts, mode: mode, rules: set, grants: map[grant]bool{},
		asks: map[string]chan agent.Answer{}, terms: map[string]*term{}}, nil
}

// newRules reads the configured permission rules, as fawn's own agent does.
func newRules(p config.Permissions) (*rules.Set, error) {
	set := &rules.Set{}
	for _, l := range []struct {
		raw    []string
		effect rules.Effect
		name   string
	}{{p.Allow, rules.Allow, "allow"}, {p.Ask, rules.Ask, "ask"}, {p.Deny, rules.Deny, "deny"}} {
		if errs := set.Add(l.raw, l.effect, func(r string) string { return p.RuleSources[l.name+" "+r] }); len(errs) > 0 {
			return nil, errs[0]
		}
	}
	return set, nil
}

// Close stops the agent and whatever it started, and waits for the turn
// running to end.
func (h *Host) Close() {
	h.mu.Lock()
	p := h.proc
	h.proc = nil
	h.mu.Unlock()
	if p != nil {
		p.stop()
	}
	h.wg.Wait()
}

// Mode is the permission mode the agent's requests are answered in.
func (h *Host) Mode() agent.Mode {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.mode
}

// SetMode changes the permission mode, and the agent's session mode to
// the one that matches, where it offers one.
func (h *Host) SetMode(m agent.Mode) {
	h.mu.Lock()
	h.mode = m
	p, sid := h.proc, h.session
	h.mu.Unlock()
	if p != nil && sid != "" {
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			h.syncMode(p, sid)
		}()
	}
}

// ModelName names the agent for the status bar: "acp/NAME".
func (h *Host) ModelName() string { return "acp/" + h.opts.Name }

// Clear forgets the conversation: the next turn opens a new ACP session.
func (h *Host) Clear() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.session = ""
	h.todos = nil
	h.usage = agent.Usage{}
}

// Todos is the agent's last plan.
func (h *Host) Todos() []tools.Todo {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]tools.Todo(nil), h.todos...)
}

// Usage is what the agent reported of its tokens, and fawn's count of
// turns and calls.
func (h *Host) Usage() agent.Usage {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.usage
}

// ToolNames is empty: the agent's tools are its own and it does not list
// them; its calls show under its own titles.
func (h *Host) ToolNames() []string { return []string{} }

// Root is the project the agent works in.
func (h *Host) Root() string { return h.opts.Root }

// ID is the ACP session's ID ("" before the first turn).
func (h *Host) ID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.session
}

// SaveError is nil: the conversation is the agent's to keep.
func (h *Host) SaveError() error { return nil }

// Approve answers the permission request of call id; the first answer wins.
func (h *Host) Approve(id string, a agent.Answer) {
	h.mu.Lock()
	ch, ok := h.asks[id]
	delete(h.asks, id)
	h.mu.Unlock()
	if ok {
		ch <- a // buffered, sent once: the entry is gone
	}
}

// logFile opens the agent's stderr log for appending, with a line saying
// which start of which command follows. It is rotated at logMax.
func (h *Host) logFile() (*rotatingLog, error) {
	if h.opts.LogPath == "" {
		return nil, nil
	}
	f, err := openRotatingLog(h.opts.LogPath, logMax)
	if err != nil {
		return nil, fmt.Errorf("the agent's log %s: %w", h.opts.LogPath, err)
	}
	fmt.Fprintf(f, "\n--- %s: fawn starts %s (%s)\n", time.Now().Format(time.RFC3339), h.opts.Name, h.opts.Agent.Command)
	return f, nil
}

// redactWriter writes to w what is written to it, line by line, with the
// secrets r knows hidden.
type redactWriter struct {
	r   *secret.Redactor
	w   io.Writer
	buf []byte
}

func (rw *redactWriter) Write(p []byte) (int, error) {
	rw.buf = append(rw.buf, p...)
	for {
		i := bytes.IndexByte(rw.buf, '\n')
		if i < 0 {
			break
		}
		if _, err := io.WriteString(rw.w, rw.r.String(string(rw.buf[:i+1]))); err != nil {
			return len(p), err
		}
		rw.buf = rw.buf[i+1:]
	}
	if len(rw.buf) > 64<<10 { // a line without end: written as it is so far
		_, _ = io.WriteString(rw.w, rw.r.String(string(rw.buf)))
		rw.buf = nil
	}
	return len(p), nil
}

// flush writes what is left of an unfinished line.
func (rw *redactWriter) flush() {
	if len(rw.buf) > 0 {
		_, _ = io.WriteString(rw.w, rw.r.String(string(rw.buf)))
		rw.buf = nil
	}
}

// LogPath is the file the agent's stderr and the protocol go to ("" when
// none is kept).
func (h *Host) LogPath() string { return h.opts.LogPath }

// LogTail is the end of the log at path: its last lines, at most max bytes,
// cut at a line's start.
func LogTail(path string, max int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	off := st.Size() - int64(max)
	if off < 0 {
		off = 0
	}
	b, err := io.ReadAll(io.NewSectionReader(f, off, st.Size()-off))
	if err != nil {
		return "", err
	}
	if off > 0 {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b), nil
}
