// Package proc owns how fawn runs a child program other than the terminal
// pane's shell: hooks, MCP and language servers, and small helpers (tmux,
// bash -n, a browser opener). A child prepared here runs in a process group
// of its own, so that ending it ends what it started; [Kill] ends that group
// and every descendant still below the child, including one that left the
// group with setsid; a [Tree] taken while the child runs ends, after the
// child has exited, what was below it then (reparented by now); [Run] ends
// what still holds the child's output after it exited, wherever it is; and
// Wait never waits more than [WaitDelay] for output pipes that a leftover
// still holds. Without that a hook's timeout, or closing a server, lasts as
// long as whatever the program left running with its stdout, and what it
// started outlives fawn.
//
// What a child starts in a session of its own and leaves behind when it
// exits by itself, holding none of its output, with no Tree taken before,
// is out of reach: nothing links it to fawn any more (a daemon the user
// meant to start looks the same). Descendants and pipe holders are found in
// /proc (Linux); elsewhere only the process group is ended.
//
// It imports nothing of fawn; hooks, internal/gitcmd, lsp, mcp, terminal and
// ui import it.
package proc

import (
	"context"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// WaitDelay bounds how long Wait waits for a child's output pipes after the
// child itself has ended.
const WaitDelay = time.Second

// Own makes cmd, not yet started, a child fawn can end: in its own process
// group, with Wait bounded by WaitDelay. It returns cmd.
func Own(cmd *exec.Cmd) *exec.Cmd {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.WaitDelay = WaitDelay
	return cmd
}

// Command is exec.CommandContext made with Own, whose cancellation (ctx
// done) kills the child's group and descendants, not just the child.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := Own(exec.CommandContext(ctx, name, args...))
	cmd.Cancel = func() error {
		Kill(cmd)
		return nil
	}
	return cmd
}

// Kill ends cmd's process group and every process below it at once
// (SIGKILL). It is safe on a child that has exited or never started; once
// the child has been waited for, use KillGroup.
func Kill(cmd *exec.Cmd) {
	Signal(cmd, syscall.SIGKILL)
}

// KillGroup ends what is left in the process group of a child that has
// been waited for: its pid may belong to another process by now, so
// nothing is looked up by it, and what was below it was reparented anyway.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Signal sends sig to cmd's process group and every process below it. The
// descendants are stopped first, so that none can start another between
// being found and being signalled.
func Signal(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	pid := cmd.Process.Pid
	stopped := map[int]bool{}
	if sig == syscall.SIGKILL {
		// Stop the group and what is below it until no new process
		// appears (a few rounds: each one stops what the last found).
		_ = syscall.Kill(-pid, syscall.SIGSTOP)
		for range 8 {
			fresh := false
			for _, d := range descendants(pid) {
				if !stopped[d] {
					stopped[d], fresh = true, true
					_ = syscall.Kill(d, syscall.SIGSTOP)
				}
			}
			if !fresh {
				break
			}
		}
	} else {
		for _, d := range descendants(pid) {
			stopped[d] = true
		}
	}
	_ = syscall.Kill(-pid, sig)
	for d := range stopped {
		_ = syscall.Kill(d, sig)
	}
	if sig != syscall.SIGKILL {
		// A stopped process would not act on sig until continued.
		_ = syscall.Kill(-pid, syscall.SIGCONT)
	}
}

// Tree is the processes below a child at one moment, each with its start
// time, so that they can be ended after the child has exited and they have
// been reparented (a server that exits when its stdin closes leaves what
// it started behind, and no longer below it).
type Tree struct{ procs map[int]uint64 }

// Below takes the Tree of what is below cmd now.
func Below(cmd *exec.Cmd) Tree {
	t := Tree{procs: map[int]uint64{}}
	if cmd.Process == nil {
		return t
	}
	for _, pid := range descendants(cmd.Process.Pid) {
		if st, ok := startTime(pid); ok {
			t.procs[pid] = st
		}
	}
	return t
}

// Kill ends every process of t still running, and no process that took the
// number of one that ended.
func (t Tree) Kill() {
	for pid, st := range t.procs {
		if now, ok := startTime(pid); ok && now == st {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// Run starts cmd (prepared with Own or Command) and waits for its end,
// copying its stdout and stderr to stdout and stderr. Once it has exited,
// its output is read for WaitDelay more; what still holds it open then (a
// process it left running, in its group or, on Linux, anywhere) is killed
// and the rest cut off: nothing holding a child's output outlives it, and
// a process it left that let go of its output (a daemon writing to a file)
// is left alone. It returns cmd.Wait's error; cmd.Process is nil when it
// could not start.
func Run(cmd *exec.Cmd, stdout, stderr io.Writer) error {
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return err
	}
	pipes := []uint64{inode(outW), inode(errW)}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return err
	}
	var wg sync.WaitGroup
	for _, c := range []struct {
		r *os.File
		w io.Writer
	}{{outR, stdout}, {errR, stderr}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = io.Copy(c.w, c.r)
		}()
	}
	read := make(chan struct{})
	go func() { wg.Wait(); close(read) }()
	err = cmd.Wait()
	select {
	case <-read:
	case <-time.After(WaitDelay):
		KillGroup(cmd)
		killHolders(pipes)
		select {
		case <-read:
		case <-time.After(WaitDelay):
		}
	}
	outR.Close() // ends a copy still blocked on a holder fawn could not end
	errR.Close()
	<-read
	return err
}

// inode is f's inode number (0 when it cannot be read): a pipe's, as
// /proc/PID/fd shows it ("pipe:[N]").
func inode(f *os.File) uint64 {
	var st syscall.Stat_t
	if syscall.Fstat(int(f.Fd()), &st) != nil {
		return 0
	}
	return uint64(st.Ino)
}
