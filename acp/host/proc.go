package host

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/internal/proc"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/secret"
)

// maxLine bounds one JSON-RPC message from the agent (the SDK's own bound).
const maxLine = 10 << 20

// agentProc is one run of the agent's program and its connection.
type agentProc struct {
	cmd  *exec.Cmd
	conn *acp.ClientSideConnection
	// exited is closed once the program has ended (err says how).
	exited chan struct{}
	err    error
	// bad is set when the agent wrote a line that is not JSON-RPC: the
	// connection is closed at that line.
	badMu   sync.Mutex
	bad     error
	tail    *tailBuffer
	log     *rotatingLog
	logw    *redactWriter
	loglock *locked
	// redact hides secrets in what the agent said, before it is shown.
	redact *secret.Redactor
	caps   acp.AgentCapabilities
	stdin  io.Closer

	// The SDK handles a request of the agent's on a goroutine of its own,
	// beside the one that delivers its updates in order, so a request can
	// overtake the update sent just before it (a tool call, then the write
	// it makes). Counting the updates read and handled lets a request wait
	// until those before it are in.
	notesMu   sync.Mutex
	notesCond *sync.Cond
	notesRead int
	notesDone int
}

// noteRead counts an update read off the agent's stdout.
func (p *agentProc) noteRead() {
	p.notesMu.Lock()
	p.notesRead++
	p.notesMu.Unlock()
}

// noteDone counts an update handled.
func (p *agentProc) noteDone() {
	p.notesMu.Lock()
	p.notesDone++
	p.notesCond.Broadcast()
	p.notesMu.Unlock()
}

// caughtUp waits until every update read so far has been handled (the
// updates are handled on their own without blocking, so this is short; a
// connection that ends stops it).
func (p *agentProc) caughtUp() {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-p.conn.Done():
		case <-time.After(5 * time.Second):
		case <-stop:
			return
		}
		p.notesMu.Lock()
		p.notesCond.Broadcast()
		p.notesMu.Unlock()
	}()
	p.notesMu.Lock()
	defer p.notesMu.Unlock()
	target := p.notesRead
	deadline := time.Now().Add(5 * time.Second)
	for p.notesDone < target && time.Now().Before(deadline) {
		select {
		case <-p.conn.Done():
			return
		default:
		}
		p.notesCond.Wait()
	}
}

// start runs the agent's program and initializes the protocol.
func (h *Host) start(ctx context.Context) (*agentProc, error) {
	a := h.opts.Agent
	// Not CommandContext: the agent outlives the turn that starts it.
	cmd := proc.Own(exec.Command(a.Command, a.Args...))
	cmd.Dir = h.opts.Root
	cmd.Env = agentEnv(h.opts.Environ, a.Env)
	p := &agentProc{cmd: cmd, exited: make(chan struct{}), tail: &tailBuffer{max: 4096}}
	p.notesCond = sync.NewCond(&p.notesMu)
	log, err := h.logFile()
	if err != nil {
		return nil, err
	}
	p.log = log
	var lw io.Writer = io.Discard
	if log != nil {
		// The agent's stderr and the SDK's notes share the file, secrets
		// hidden, one writer at a time.
		p.logw = &redactWriter{r: h.opts.Redactor, w: log}
		p.loglock = &locked{w: p.logw}
		lw = p.loglock
		cmd.Stderr = io.MultiWriter(lw, p.tail)
	} else {
		cmd.Stderr = p.tail
	}
	p.redact = h.opts.Redactor
	stdin, err := cmd.StdinPipe()
	if err != nil {
		p.closeLog()
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		p.closeLog()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		p.closeLog()
		return nil, fmt.Errorf("cannot start the agent %s (%s): %w; check agents.%s.command in your config", h.opts.Name, a.Command, err, h.opts.Name)
	}
	p.stdin = stdin
	go func() {
		p.err = cmd.Wait()
		proc.KillGroup(cmd) // what it started goes with it
		p.closeLog()
		close(p.exited)
	}()
	var toAgent io.Writer = stdin
	if p.loglock != nil {
		// The protocol goes into the log too, both ways, each message on
		// a line of its own, secrets hidden and long ones cut.
		toAgent = &traceWriter{w: stdin, log: p.loglock, red: h.opts.Redactor, dir: "> "}
	}
	p.conn = acp.NewClientSideConnection(&client{h: h, p: p}, toAgent, &lineCheck{r: bufio.NewReaderSize(stdout, 64<<10), p: p})
	// The SDK's diagnostics go to the agent's log, never the screen.
	p.conn.SetLogger(slog.New(slog.NewTextHandler(lw, &slog.HandlerOptions{Level: slog.LevelWarn})))

	ictx, cancel := context.WithTimeout(ctx, h.opts.StartTimeout)
	defer cancel()
	resp, err := p.conn.Initialize(ictx, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientInfo:      &acp.Implementation{Name: "fawn", Version: "1"},
		ClientCapabilities: acp.ClientCapabilities{
			Fs:       acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
			Terminal: h.opts.Shell != nil,
		},
	})
	if err != nil {
		why := p.failure(err, ictx)
		p.stop()
		return nil, fmt.Errorf("the agent %s did not start: %s (its log: %s)", h.opts.Name, why, h.logName())
	}
	p.caps = resp.AgentCapabilities
	h.mu.Lock()
	h.auth = authMethods(resp.AuthMethods)
	h.mu.Unlock()
	return p, nil
}

// newSession opens an ACP session on the project.
func (h *Host) newSession(ctx context.Context, p *agentProc) (string, error) {
	sctx, cancel := context.WithTimeout(ctx, h.opts.StartTimeout)
	defer cancel()
	resp, err := p.conn.NewSession(sctx, acp.NewSessionRequest{Cwd: h.opts.Root, McpServers: h.mcpServers(p.caps)})
	if authRequired(err) && h.envSignIn(ctx, p) {
		resp, err = p.conn.NewSession(sctx, acp.NewSessionRequest{Cwd: h.opts.Root, McpServers: h.mcpServers(p.caps)})
	}
	if authRequired(err) {
		return "", h.authError()
	}
	if err != nil {
		return "", fmt.Errorf("the agent %s did not open a session: %s", h.opts.Name, p.failure(err, sctx))
	}
	if resp.Modes != nil {
		h.mu.Lock()
		h.modes, h.agentMode = resp.Modes.AvailableModes, resp.Modes.CurrentModeId
		h.mu.Unlock()
	}
	return string(resp.SessionId), nil
}

// mcpServers are fawn's MCP servers as session/new passes them: the stdio
// ones always, the HTTP ones where the agent takes them.
func (h *Host) mcpServers(caps acp.AgentCapabilities) []acp.McpServer {
	names := make([]string, 0, len(h.opts.MCPServers))
	for n := range h.opts.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []acp.McpServer{}
	for _, n := range names {
		s := h.opts.MCPServers[n]
		switch {
		case s.Command != "":
			env := []acp.EnvVariable{}
			for k, v := range s.Env {
				env = append(env, acp.EnvVariable{Name: k, Value: v})
			}
			sort.Slice(env, func(i, j int) bool { return env[i].Name < env[j].Name })
			args := s.Args
			if args == nil {
				args = []string{}
			}
			out = append(out, acp.McpServer{Stdio: &acp.McpServerStdio{Name: n, Command: s.Command, Args: args, Env: env}})
		case s.URL != "" && caps.McpCapabilities.Http:
			out = append(out, acp.McpServer{Http: &acp.McpServerHttpInline{Name: n, Type: "http", Url: s.URL, Headers: []acp.HttpHeader{}}})
		}
	}
	return out
}

// agentEnv is base with the agent's own variables set over it.
func agentEnv(base []string, extra map[string]string) []string {
	env := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, over := extra[name]; !over {
			env = append(env, kv)
		}
	}
	names := make([]string, 0, len(extra))
	for k := range extra {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		env = append(env, k+"="+extra[k])
	}
	return env
}

// failure says why a request to the agent failed: the agent exited, wrote
// something that is not JSON-RPC, did not answer in time, or answered an
// error.
func (p *agentProc) failure(err error, ctx context.Context) string {
	if bad := p.badLine(); bad != nil {
		return bad.Error()
	}
	select {
	case <-p.exited:
		return p.exitReason()
	case <-time.After(100 * time.Millisecond):
		// A closed pipe is seen before the exit: give it a moment.
	}
	select {
	case <-p.exited:
		return p.exitReason()
	default:
	}
	if ctx != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "it did not answer in time" + p.lastWords()
	}
	return describe(err) + p.lastWords()
}

// exitReason says how the program ended, with its last words on stderr.
func (p *agentProc) exitReason() string {
	why := "it exited"
	var ee *exec.ExitError
	switch {
	case errors.As(p.err, &ee) && ee.ExitCode() >= 0:
		why = fmt.Sprintf("it exited with status %d", ee.ExitCode())
	case errors.As(p.err, &ee):
		why = "it was killed (" + ee.String() + ")"
	case p.err == nil:
		why = "it exited (status 0)"
	}
	return why + p.lastWords()
}

// lastWords is the end of what the agent wrote to stderr, for a message.
func (p *agentProc) lastWords() string {
	if t := p.tail.String(); t != "" {
		return "; it said: " + safetext.Line(p.redact.String(t))
	}
	return ""
}

// describe is an error from the SDK in words.
func describe(err error) string {
	var re *acp.RequestError
	if errors.As(err, &re) {
		msg := re.Message
		if re.Data != nil {
			if b, e := json.Marshal(re.Data); e == nil && len(b) < 300 {
				msg += " " + string(b)
			}
		}
		return fmt.Sprintf("it answered an error (%d): %s", re.Code, msg)
	}
	return err.Error()
}

func (p *agentProc) badLine() error {
	p.badMu.Lock()
	defer p.badMu.Unlock()
	return p.bad
}

func (p *agentProc) closeLog() {
	if p.loglock != nil {
		p.loglock.mu.Lock()
		p.logw.flush()
		p.loglock.mu.Unlock()
	}
	if p.log != nil {
		_ = p.log.Close()
	}
}

// alive reports whether the program still runs.
func (p *agentProc) alive() bool {
	select {
	case <-p.exited:
		return false
	case <-p.conn.Done():
		return false // it closed its stdout: as good as gone
	default:
		return p.badLine() == nil
	}
}

// stop ends the agent: its stdin is closed, then it is asked to stop
// (SIGTERM) and at last killed with everything in its process group.
func (p *agentProc) stop() {
	below := proc.Below(p.cmd)
	defer below.Kill()
	_ = p.stdin.Close()
	wait := func(d time.Duration) bool {
		select {
		case <-p.exited:
			return true
		case <-time.After(d):
			return false
		}
	}
	if wait(500 * time.Millisecond) {
		return
	}
	proc.Signal(p.cmd, syscall.SIGTERM)
	if !wait(2 * time.Second) {
		proc.Kill(p.cmd)
		<-p.exited
	}
}

// lineCheck passes the agent's stdout on line by line and ends it at the
// first line that is not a JSON object: the SDK would log and skip it, and
// a turn waiting for an answer that came garbled would wait for ever.
type lineCheck struct {
	r    *bufio.Reader
	p    *agentProc
	left []byte
	err  error
}

func (l *lineCheck) Read(b []byte) (int, error) {
	for len(l.left) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		line, err := l.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			full := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(full) <= maxLine {
				line, err = l.r.ReadSlice('\n')
				full = append(full, line...)
			}
			line = full
			if len(full) > maxLine {
				l.fail(fmt.Errorf("the agent sent a message over %d MB, which fawn does not read", maxLine>>20))
				continue
			}
		} else {
			line = append([]byte(nil), line...)
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && (t[0] != '{' || !json.Valid(t)) {
			l.fail(fmt.Errorf("the agent wrote something that is not JSON-RPC on its stdout: %q", l.p.redact.String(clip(string(t), 120))))
			continue
		}
		if isUpdate(line) {
			l.p.noteRead()
		}
		if l.p.loglock != nil && len(bytes.TrimSpace(line)) > 0 {
			traceLine(l.p.loglock, l.p.redact, "< ", line)
		}
		l.left = line
		if err != nil {
			l.err = err
		}
	}
	n := copy(b, l.left)
	l.left = l.left[n:]
	return n, nil
}

// isUpdate reports whether a message is a session/update notification.
func isUpdate(line []byte) bool {
	if !bytes.Contains(line, []byte(`"session/update"`)) {
		return false
	}
	var m struct {
		ID     *json.RawMessage `json:"id"`
		Method string           `json:"method"`
	}
	return json.Unmarshal(line, &m) == nil && m.ID == nil && m.Method == "session/update"
}

func (l *lineCheck) fail(err error) {
	l.p.badMu.Lock()
	if l.p.bad == nil {
		l.p.bad = err
	}
	l.p.badMu.Unlock()
	l.err = err
	l.left = nil
}

// tailBuffer keeps the last bytes the agent wrote to stderr.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// String is the last few lines kept, on one line; a line that speaks of an
// error before them (a program's message above its stack trace) comes
// first.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	var first string
	if len(lines) > 3 {
		for _, l := range lines[:len(lines)-3] {
			if strings.Contains(strings.ToLower(l), "error") {
				first = strings.TrimSpace(l)
				break
			}
		}
		lines = lines[len(lines)-3:]
	}
	s := strings.Join(lines, " | ")
	if first != "" {
		s = clip(first, 200) + " … " + s
	}
	return clip(s, 400)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// maxTrace bounds one message as the log keeps it: a file's content sent
// whole would bury everything else.
const maxTrace = 2000

// traceWriter passes what fawn writes to the agent on to w, and a copy of
// each message to the log, marked with dir.
type traceWriter struct {
	w   io.Writer
	log *locked
	red *secret.Redactor
	dir string
	buf []byte
}

func (t *traceWriter) Write(b []byte) (int, error) {
	n, err := t.w.Write(b)
	t.buf = append(t.buf, b[:n]...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		traceLine(t.log, t.red, t.dir, t.buf[:i+1])
		t.buf = t.buf[i+1:]
	}
	return n, err
}

// traceLine writes one protocol message to the log, the secrets fawn
// knows hidden before it is cut to maxTrace bytes (a key cut in two would
// not be known).
func traceLine(log *locked, red *secret.Redactor, dir string, line []byte) {
	s := red.String(strings.TrimRight(string(line), "\r\n"))
	if len(s) > maxTrace {
		s = fmt.Sprintf("%s… (%d bytes)", s[:maxTrace], len(s))
	}
	_, _ = log.Write([]byte(dir + s + "\n"))
}

// locked serialises writes to w (slog's handler and the child's stderr
// share the log file).
type locked struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *locked) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
