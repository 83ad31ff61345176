// Package proc owns how fawn runs a child program other than the terminal
// pane's shell: hooks, MCP and language servers, and small helpers (tmux,
// bash -n, a browser opener). A child prepared here runs in a process group
// of its own, so that ending it ends what it started; [Kill] ends that group
// and every descendant still below the child, including one that left the
// group with setsid; a [Tree] taken while the child runs ends, after the
// child has exited, what was below it then (reparented by now); and Wait
// never waits more than [WaitDelay] for output pipes that a leftover
// descendant still holds once the child has exited or been killed. Without
// that a hook's timeout, or closing a server, lasts as long as whatever the
// program left running with its stdout, and what it started outlives fawn.
//
// What a child starts in a session of its own and leaves behind after it
// exits by itself, with no Tree taken before, is out of reach: nothing
// links it to fawn any more. Descendants are found in /proc (Linux); on
// other systems only the process group is ended.
package proc

import (
	"context"
	"os/exec"
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
