package mcp

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/internal/proc"
)

// stdioTransport runs an MCP server as a child over its stdin and stdout,
// as the go-sdk's CommandTransport does, but in a process group of its own
// (internal/proc): ending the server ends what it started. The
// CommandTransport signals the server's process only, so a server's own
// children (a node server's workers, a wrapper script's server) outlived
// fawn.
type stdioTransport struct {
	cmd *exec.Cmd
	// terminate is how long Close waits after closing stdin for the server
	// to exit, and again after SIGTERM, before SIGKILL.
	terminate time.Duration
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	proc.Own(t.cmd)
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	s := &stdioServerProc{t: t, stdout: stdout, stdin: stdin, exited: exited}
	go func() {
		s.err = t.cmd.Wait()
		// A server that ended by itself leaves nothing running either.
		proc.KillGroup(t.cmd)
		close(exited)
	}()
	return (&sdk.IOTransport{Reader: s, Writer: nopCloser{stdin}}).Connect(ctx)
}

// stdioServerProc reads the server's stdout; closing it ends the server.
type stdioServerProc struct {
	t      *stdioTransport
	stdout io.ReadCloser
	stdin  io.WriteCloser
	exited chan struct{}
	err    error // Wait's, once exited is closed
}

func (s *stdioServerProc) Read(p []byte) (int, error) { return s.stdout.Read(p) }

// Close ends the server as the MCP specification asks (close its stdin,
// wait, SIGTERM, wait, SIGKILL), and then whatever is left in its process
// group or was below it when Close began.
func (s *stdioServerProc) Close() error {
	// What is below the server now, to end after it exits: by then it is
	// no longer below it, and what left its group (setsid) is in no group
	// of ours.
	below := proc.Below(s.t.cmd)
	defer below.Kill()
	_ = s.stdin.Close()
	wait := func() bool {
		select {
		case <-s.exited:
			return true
		case <-time.After(s.t.terminate):
			return false
		}
	}
	if !wait() {
		proc.Signal(s.t.cmd, syscall.SIGTERM)
		if !wait() {
			proc.Kill(s.t.cmd)
			<-s.exited
		}
	}
	proc.KillGroup(s.t.cmd)
	var ee *exec.ExitError
	if s.err == nil || errors.As(s.err, &ee) || errors.Is(s.err, exec.ErrWaitDelay) {
		return nil // how it ended says nothing about the connection
	}
	return s.err
}

// nopCloser keeps the connection's Close from closing stdin a second time
// (stdioServerProc.Close closes it first).
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
