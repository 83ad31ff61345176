package terminal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openPTY starts cmd (with start: cmd.Start, or the sandbox's) on a new
// pty of the given size, in a session of its own with the pty as its
// controlling terminal, and returns the master as a non-blocking, pollable
// file.
//
// creack/pty hands back a master on which it has called Fd(), which switches
// the descriptor to blocking mode: a Read on it can then never be interrupted
// by Close. So the master is duplicated (close-on-exec), the duplicate set
// non-blocking and wrapped again, which puts it on Go's poller; Close and
// read deadlines then work.
func openPTY(cmd *exec.Cmd, cols, rows int, start func(*exec.Cmd) error) (*os.File, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, err
	}
	defer master.Close()
	defer tty.Close() // the child has its own copy
	if err := pty.Setsize(master, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := start(cmd); err != nil {
		return nil, err
	}
	fd, err := unix.FcntlInt(master.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		killProcess(cmd)
		return nil, fmt.Errorf("duplicate the pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		killProcess(cmd)
		return nil, fmt.Errorf("make the pty master non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}

func killProcess(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
		_, _ = cmd.Process.Wait()
	}
}

// setWinsize resizes the pty; the kernel then sends SIGWINCH to the
// foreground process group.
func setWinsize(f *os.File, cols, rows int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ioErr error
	err = rc.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(rows), Col: uint16(cols)})
	})
	if err != nil {
		return err
	}
	return ioErr
}

// foregroundPgrp returns the process group that owns the terminal: the job
// the shell is running, or the shell itself when it is at its prompt or busy
// in a builtin.
func foregroundPgrp(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var pgrp int
	var ioErr error
	err = rc.Control(func(fd uintptr) {
		pgrp, ioErr = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP)
	})
	if err != nil {
		return 0, err
	}
	return pgrp, ioErr
}

// sessionPIDs lists the processes of session sid (the shell started with
// setsid, so its pid is the session id), read from /proc. Background jobs
// and their children stay in the session unless they call setsid.
func sessionPIDs(sid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		if s, ok := statField(data, 6); ok && s == sid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// liveSessionPIDs is sessionPIDs without zombies (exited, not yet reaped).
func liveSessionPIDs(sid int) []int {
	var live []int
	for _, pid := range sessionPIDs(sid) {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		if i := bytes.LastIndexByte(data, ')'); i >= 0 && i+2 < len(data) && data[i+2] == 'Z' {
			continue
		}
		live = append(live, pid)
	}
	return live
}

// anyWorking says whether one of pids is running or waiting on the disk
// (state R or D in /proc/PID/stat), as opposed to sleeping or stopped.
func anyWorking(pids []int) bool {
	for _, pid := range pids {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		if i := bytes.LastIndexByte(data, ')'); i >= 0 && i+2 < len(data) && (data[i+2] == 'R' || data[i+2] == 'D') {
			return true
		}
	}
	return false
}

// statField returns field n (1-based, as in proc(5)) of a /proc/PID/stat
// line. The command name (field 2) may hold spaces and parentheses, so
// fields are counted after its closing parenthesis.
func statField(stat []byte, n int) (int, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || n < 3 {
		return 0, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < n-2 {
		return 0, false
	}
	v, err := strconv.Atoi(fields[n-3])
	return v, err == nil
}

// killSession sends sig to every process of the shell's session.
func killSession(sid int, sig syscall.Signal) {
	for _, pid := range sessionPIDs(sid) {
		_ = syscall.Kill(pid, sig)
	}
}

// processName returns the command name of pid ("vim"), or "".
func processName(pid int) string {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	if s.Scan() {
		return strings.TrimSpace(s.Text())
	}
	return ""
}

// exitStatus turns cmd.Wait's error into a shell-style status: the exit code,
// or 128+N for death by signal N.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return -1
}
