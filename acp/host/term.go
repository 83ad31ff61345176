package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
)

// term is a command terminal/create started in fawn's shared terminal.
type term struct {
	id     string
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	out     strings.Builder
	limit   int
	cut     bool
	res     terminal.Result
	err     error
	callID  string // the call that shows it, once one names it
	callTo  *turn
	sentLen int // output already sent to that call
}

// createTerminal serves terminal/create: the command is decided like a
// bash call of fawn's own (rules, mode, the user), then typed into the
// shared terminal, where the user sees it run.
func (h *Host) createTerminal(ctx context.Context, p acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	if h.opts.Shell == nil {
		return acp.CreateTerminalResponse{}, errors.New("fawn offers no terminal here")
	}
	h.mu.Lock()
	t := h.turn
	h.seq++
	id := fmt.Sprintf("term-%d", h.seq)
	h.mu.Unlock()
	if t == nil || t.isCancelled() {
		return acp.CreateTerminalResponse{}, errors.New("no turn is running (it was cancelled): fawn runs commands only while the agent works on a message")
	}
	line := shellLine(p)
	act := tools.Action{Kind: tools.KindExec, Summary: "$ " + line, Command: line, Cwd: h.opts.Root}
	switch r := h.rule(nameBash, act); {
	case r.answer != nil && r.answer.Decision == agent.Deny:
		return acp.CreateTerminalResponse{}, fmt.Errorf("fawn refuses the command %s: %s", line, r.answer.Note)
	case r.answer == nil:
		// Asked under a call of its own: no call names the terminal yet.
		args := fmt.Sprintf(`{"command":%q}`, line)
		t.mu.Lock()
		t.emit(agent.Event{Type: agent.EventToolCallStarted, ID: id, Name: nameBash})
		t.emit(agent.Event{Type: agent.EventToolCallReady, ID: id, Name: nameBash, Args: args})
		t.mu.Unlock()
		a, ok := h.permit(ctx, t, id, nameBash, act)
		if !ok || a.Decision == agent.Deny {
			h.endOwn(t, id, nameBash, "error: the user denied this command")
			return acp.CreateTerminalResponse{}, fmt.Errorf("the user denied the command %s", line)
		}
		t.mu.Lock()
		t.emit(agent.Event{Type: agent.EventToolRunEnded, ID: id, Name: nameBash, Result: "allowed: it runs in the terminal"})
		t.mu.Unlock()
	}
	rctx, cancel := context.WithCancel(context.Background())
	tm := &term{id: id, cancel: cancel, done: make(chan struct{}), limit: 1 << 20}
	if p.OutputByteLimit != nil && *p.OutputByteLimit > 0 {
		tm.limit = *p.OutputByteLimit
	}
	h.mu.Lock()
	h.terms[id] = tm
	h.mu.Unlock()
	go func() {
		defer close(tm.done)
		res, err := h.opts.Shell.Run(rctx, terminal.Command{Text: line}, tm.write)
		tm.mu.Lock()
		tm.res, tm.err = res, err
		if tm.out.Len() == 0 && res.Output != "" {
			tm.out.WriteString(res.Output)
		}
		tm.mu.Unlock()
		tm.flush()
	}()
	return acp.CreateTerminalResponse{TerminalId: id}, nil
}

// shellLine is the request as one bash line, each word quoted.
func shellLine(p acp.CreateTerminalRequest) string {
	var b strings.Builder
	if p.Cwd != nil && *p.Cwd != "" {
		b.WriteString("cd -- " + quote(*p.Cwd) + " && ")
	}
	if len(p.Env) > 0 {
		b.WriteString("env")
		for _, e := range p.Env {
			b.WriteString(" " + quote(e.Name+"="+e.Value))
		}
		b.WriteString(" ")
	}
	if len(p.Args) == 0 {
		// A command without arguments may be a whole line (agents send
		// "npm test" as the command).
		b.WriteString(p.Command)
		return b.String()
	}
	b.WriteString(quote(p.Command))
	for _, a := range p.Args {
		b.WriteString(" " + quote(a))
	}
	return b.String()
}

func quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '=' || r == ':' || r == ',' || r == '+' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// write keeps a chunk of output (the last limit bytes) and passes it on to
// the call that shows the terminal.
func (tm *term) write(chunk string) {
	tm.mu.Lock()
	tm.out.WriteString(chunk)
	if tm.out.Len() > tm.limit {
		s := tm.out.String()
		s = s[len(s)-tm.limit:]
		tm.out.Reset()
		tm.out.WriteString(s)
		tm.cut = true
		tm.sentLen = min(tm.sentLen, tm.out.Len())
	}
	tm.mu.Unlock()
	tm.flush()
}

// flush sends the output the call has not seen.
func (tm *term) flush() {
	tm.mu.Lock()
	t, id := tm.callTo, tm.callID
	s := tm.out.String()
	chunk := ""
	if t != nil && len(s) > tm.sentLen {
		chunk = s[tm.sentLen:]
		tm.sentLen = len(s)
	}
	tm.mu.Unlock()
	if chunk == "" {
		return
	}
	t.mu.Lock()
	if c := t.calls[id]; c != nil && !c.ended {
		t.emit(agent.Event{Type: agent.EventToolOutput, ID: id, Name: c.name, Text: chunk, Data: tools.Output{Text: chunk}})
	}
	t.mu.Unlock()
}

// linkTerminal makes call c the one that shows terminal id's output. The
// caller holds t.mu.
func (h *Host) linkTerminal(t *turn, c *call, id string) {
	for _, x := range c.terminals {
		if x == id {
			return
		}
	}
	c.terminals = append(c.terminals, id)
	h.mu.Lock()
	tm := h.terms[id]
	h.mu.Unlock()
	if tm == nil {
		return
	}
	tm.mu.Lock()
	tm.callTo, tm.callID = t, c.id
	tm.mu.Unlock()
	go tm.flush() // not under t.mu, which flush takes
}

func (h *Host) terminal(id string) (*term, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if tm := h.terms[id]; tm != nil {
		return tm, nil
	}
	return nil, fmt.Errorf("no terminal %q (released, or never created)", id)
}

func (tm *term) status() *acp.TerminalExitStatus {
	select {
	case <-tm.done:
	default:
		return nil
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	st := &acp.TerminalExitStatus{}
	if tm.res.ExitCode >= 0 && tm.err == nil {
		st.ExitCode = ptr(tm.res.ExitCode)
	} else {
		st.Signal = ptr("SIGKILL")
	}
	return st
}

func (h *Host) terminalOutput(p acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	tm, err := h.terminal(p.TerminalId)
	if err != nil {
		return acp.TerminalOutputResponse{}, err
	}
	st := tm.status()
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return acp.TerminalOutputResponse{Output: tm.out.String(), Truncated: tm.cut, ExitStatus: st}, nil
}

func (h *Host) waitForTerminalExit(ctx context.Context, p acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	tm, err := h.terminal(p.TerminalId)
	if err != nil {
		return acp.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-tm.done:
	case <-ctx.Done():
		return acp.WaitForTerminalExitResponse{}, ctx.Err()
	}
	st := tm.status()
	return acp.WaitForTerminalExitResponse{ExitCode: st.ExitCode, Signal: st.Signal}, nil
}

func (h *Host) killTerminal(p acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	tm, err := h.terminal(p.TerminalId)
	if err != nil {
		return acp.KillTerminalResponse{}, err
	}
	tm.cancel()
	<-tm.done
	return acp.KillTerminalResponse{}, nil
}

func (h *Host) releaseTerminal(p acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	tm, err := h.terminal(p.TerminalId)
	if err != nil {
		return acp.ReleaseTerminalResponse{}, err
	}
	tm.cancel()
	<-tm.done
	h.mu.Lock()
	delete(h.terms, p.TerminalId)
	h.mu.Unlock()
	return acp.ReleaseTerminalResponse{}, nil
}
