package serve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
)

// Bounds of a command run in the client's terminal.
const (
	// termOutputLimit is what the client keeps of a command's output (it
	// drops the start beyond it); fawn polls the whole of it.
	termOutputLimit = 1 << 20
	// termPoll is how often the output is fetched while the command runs.
	termPoll = 200 * time.Millisecond
	// termGrace bounds the calls made after the turn's context ended (kill,
	// the last output, release), and the wait for a killed command.
	termGrace = 10 * time.Second
)

// clientRunner is tools.Runner on the client's terminal/* methods: every
// command is `bash -c` in a terminal of the editor's, started in the
// directory the previous command ended in when that is in the project (a
// command's cd carries over, as in fawn's shell; its variables do not).
// Commands run one at a time.
type clientRunner struct {
	p    *peerSession
	root string
	env  []acp.EnvVariable

	run sync.Mutex // held while a command runs
	mu  sync.Mutex
	cwd string
}

func newClientRunner(p *peerSession, root string, env []string) *clientRunner {
	r := &clientRunner{p: p, root: root, cwd: root}
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		r.env = append(r.env, acp.EnvVariable{Name: name, Value: value})
	}
	return r
}

var (
	_ tools.Runner     = (*clientRunner)(nil)
	_ tools.RunnerNote = (*clientRunner)(nil)
)

// Note tells the model how its commands run here, unlike in the shared
// shell the bash tool's description speaks of.
func (r *clientRunner) Note() string {
	return "Here, in the user's editor, each command runs in a new bash in a terminal of the editor's instead: " +
		"the working directory carries over from one command to the next (inside the project), but exported variables, " +
		"functions and activated environments do not, and nobody types into it. Chain what belongs together in one command " +
		"(`source .venv/bin/activate && pytest`). On timeout or interruption the command is killed."
}

func (r *clientRunner) Root() string { return r.root }

func (r *clientRunner) Cwd() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cwd
}

// Run runs c in a new terminal of the client's: the terminal is told to
// the tool call (tools.CommandTerminal), its output is polled into
// onOutput, it is killed on timeout or when ctx ends, and released once
// its output is read.
func (r *clientRunner) Run(ctx context.Context, c terminal.Command, onOutput func(string)) (terminal.Result, error) {
	text := strings.TrimSpace(strings.ReplaceAll(c.Text, "\r\n", "\n"))
	if text == "" {
		return terminal.Result{}, errors.New("the command is empty")
	}
	r.run.Lock()
	defer r.run.Unlock()
	if err := ctx.Err(); err != nil {
		return terminal.Result{}, err
	}
	begin := time.Now()
	cwd := r.Cwd()
	if c.ResetCwd {
		cwd = r.root
	}
	// The directory the command ends in is written to a file fawn reads
	// afterwards; the command's output stays its own.
	f, err := os.CreateTemp("", "fawn-cwd-*")
	if err != nil {
		return terminal.Result{}, fmt.Errorf("cannot make the file the command's directory is kept in: %w", err)
	}
	f.Close()
	defer os.Remove(f.Name())
	// A script is one command in braces: bash parses all of it before
	// running any, so a syntax error runs nothing.
	script := "trap 'pwd -P >" + shellQuote(f.Name()) + " 2>/dev/null' EXIT\n{ " + text + "\n}"
	conn, sid := r.p.s.peer(), r.p.sid()
	limit := termOutputLimit
	created, err := conn.CreateTerminal(ctx, acp.CreateTerminalRequest{SessionId: sid, Command: "bash", Args: []string{"-c", script},
		Cwd: &cwd, Env: r.env, OutputByteLimit: &limit})
	if err != nil {
		if ctx.Err() != nil {
			return terminal.Result{}, ctx.Err()
		}
		return terminal.Result{}, fmt.Errorf("the editor could not start a terminal for the command: %w", requestError(err))
	}
	id := created.TerminalId
	tools.Emit(ctx, tools.CommandTerminal{ID: id})
	after := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.WithoutCancel(ctx), termGrace)
	}
	defer func() {
		rctx, cancel := after()
		defer cancel()
		_, _ = conn.ReleaseTerminal(rctx, acp.ReleaseTerminalRequest{SessionId: sid, TerminalId: id})
	}()

	type exit struct {
		code *int
		err  error
	}
	waitCtx, stopWait := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWait()
	exited := make(chan exit, 1)
	go func() {
		resp, err := conn.WaitForTerminalExit(waitCtx, acp.WaitForTerminalExitRequest{SessionId: sid, TerminalId: id})
		exited <- exit{resp.ExitCode, err}
	}()

	var res terminal.Result
	var seen string
	poll := func(pctx context.Context) {
		out, err := conn.TerminalOutput(pctx, acp.TerminalOutputRequest{SessionId: sid, TerminalId: id})
		if err != nil {
			return
		}
		if chunk := newOutput(seen, out.Output); chunk != "" && onOutput != nil {
			onOutput(chunk)
		}
		seen = out.Output
	}
	var timeout <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	tick := time.NewTicker(termPoll)
	defer tick.Stop()
	kill := func() {
		kctx, cancel := after()
		defer cancel()
		_, _ = conn.KillTerminal(kctx, acp.KillTerminalRequest{SessionId: sid, TerminalId: id})
	}
	ctxDone := ctx.Done()
	var ex exit
	var killedAt <-chan time.Time
wait:
	for {
		select {
		case ex = <-exited:
			break wait
		case <-tick.C:
			poll(ctx)
		case <-ctxDone:
			ctxDone, timeout = nil, nil
			res.Interrupted = true
			kill()
			killedAt = time.After(termGrace)
		case <-timeout:
			ctxDone, timeout = nil, nil
			res.TimedOut = true
			kill()
			killedAt = time.After(termGrace)
		case <-killedAt:
			ex = exit{err: errors.New("the editor did not end the killed command")}
			break wait
		}
	}
	octx, cancel := after()
	out, oerr := conn.TerminalOutput(octx, acp.TerminalOutputRequest{SessionId: sid, TerminalId: id})
	cancel()
	if oerr == nil {
		if chunk := newOutput(seen, out.Output); chunk != "" && onOutput != nil {
			onOutput(chunk)
		}
		seen = out.Output
		if out.ExitStatus != nil && ex.code == nil {
			ex.code = out.ExitStatus.ExitCode
		}
	}
	shaped := terminal.Shape([]byte(seen))
	shaped.Interrupted, shaped.TimedOut = res.Interrupted, res.TimedOut
	shaped.ExitCode = -1
	if ex.code != nil && !res.Interrupted && !res.TimedOut {
		shaped.ExitCode = *ex.code
	}
	if ex.err != nil && !res.Interrupted && !res.TimedOut {
		shaped.Output += fmt.Sprintf("\n[fawn: the editor did not say how the command ended: %v]\n", requestError(ex.err))
	}
	shaped.Cwd = r.ended(f.Name(), cwd)
	shaped.Duration = time.Since(begin)
	return shaped, nil
}

// ended returns the directory a command that started in cwd ended in, as
// its exit trap wrote it in file (cwd when it wrote nothing: it was
// killed), and has the next command start there when that is inside the
// project, else in the root, as fawn's shell has the agent's commands do.
func (r *clientRunner) ended(file, cwd string) string {
	if b, err := os.ReadFile(file); err == nil {
		if d := strings.TrimSpace(string(b)); filepath.IsAbs(d) {
			cwd = d
		}
	}
	next := cwd
	if !project.Within(r.root, cwd) {
		next = r.root
	}
	r.mu.Lock()
	r.cwd = next
	r.mu.Unlock()
	return cwd
}

// newOutput is what the terminal printed since it showed seen: the rest of
// now, or (when the client dropped the start of its output) all of now,
// marked as a skip the way fawn's terminal marks one.
func newOutput(seen, now string) string {
	if rest, ok := strings.CutPrefix(now, seen); ok {
		return rest
	}
	return "…\n" + now
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
