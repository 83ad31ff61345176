package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// openDir holds one file per task a fawn has open, <root>/.open/NAME: a
// task's name never starts with '.', so it is never a worktree's
// directory. The file says which fawn has the task open ("pid PID START",
// START being the process's start time, so a PID used again by another
// program is not taken for it), or "closed" once that fawn closed it as it
// quit. It is written whole with a rename, so a kill -9 leaves either the
// old content or the new.
const openDir = ".open"

// Opened is a task a fawn had open, as its file says.
type Opened struct {
	Name string
	// Live: the fawn that has it open still runs (another fawn's task,
	// or this one's).
	Live bool
	// Closed: the fawn that had it open quit and closed it; neither Live
	// nor Closed is a task left behind by a fawn that ended without
	// closing it (killed, crashed, the machine went down).
	Closed bool
}

func (m *Manager) openFile(name string) string { return filepath.Join(m.root, openDir, name) }

// MarkOpen records that the fawn of process pid has task name open.
func (m *Manager) MarkOpen(name string, pid int) error {
	if err := CheckName(name); err != nil {
		return err
	}
	return m.writeOpen(name, fmt.Sprintf("pid %d %d\n", pid, startTime(pid)))
}

// MarkClosed records that the task was closed with its fawn, open the next
// time that fawn's project is continued.
func (m *Manager) MarkClosed(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	return m.writeOpen(name, "closed\n")
}

// Forget drops the record of task name (it was discarded).
func (m *Manager) Forget(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	err := os.Remove(m.openFile(name))
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	_ = os.Remove(filepath.Join(m.root, openDir)) // when it was the last
	return err
}

func (m *Manager) writeOpen(name, text string) error {
	dir := filepath.Join(m.root, openDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot record the open task %s: %w", name, err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot record the open task %s: %w", name, err)
	}
	_, err = tmp.WriteString(text)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), m.openFile(name))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("cannot record the open task %s: %w", name, err)
	}
	return nil
}

// Opened lists the tasks a fawn had open, sorted by name; a record whose
// branch is gone (discarded with git) is dropped on the way.
func (m *Manager) Opened(ctx context.Context) ([]Opened, error) {
	ents, err := os.ReadDir(filepath.Join(m.root, openDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	trees, err := m.List(ctx)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, t := range trees {
		known[t.Name] = true
	}
	var out []Opened
	for _, e := range ents {
		name := e.Name()
		if CheckName(name) != nil || !e.Type().IsRegular() {
			continue // a temporary file, or nothing fawn wrote
		}
		if !known[name] {
			_ = m.Forget(name)
			continue
		}
		b, err := os.ReadFile(m.openFile(name))
		if err != nil {
			continue
		}
		o := Opened{Name: name}
		f := strings.Fields(string(b))
		switch {
		case len(f) == 1 && f[0] == "closed":
			o.Closed = true
		case len(f) == 3 && f[0] == "pid":
			pid, _ := strconv.Atoi(f[1])
			start, _ := strconv.ParseUint(f[2], 10, 64)
			o.Live = alive(pid, start)
		}
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// alive reports whether process pid runs and started at start (when the
// start time is known on both sides).
func alive(pid int, start uint64) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	now := startTime(pid)
	return start == 0 || now == 0 || now == start
}

// startTime is when process pid started, in clock ticks since boot (the
// 22nd field of /proc/PID/stat), or 0 where there is no /proc.
func startTime(pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command's name is in parentheses and may hold anything: the
	// fields are counted after its closing one.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0
	}
	n, _ := strconv.ParseUint(f[19], 10, 64)
	return n
}
