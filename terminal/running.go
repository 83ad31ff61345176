package terminal

import "slices"

// Running names the programs that would end with the shell: the job in the
// foreground of the terminal first, then the shell's background jobs and
// whatever they started ("vim", "sleep"), each name once; nil when the
// shell is idle at its prompt (or there is none). fawn asks before it
// quits while a terminal has one.
func (t *Terminal) Running() []string {
	t.mu.Lock()
	sh := t.sh
	t.mu.Unlock()
	if sh == nil {
		return nil
	}
	select {
	case <-sh.exited:
		return nil
	default:
	}
	var names []string
	add := func(pid int) {
		if n := processName(pid); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if pg, err := foregroundPgrp(sh.pty); err == nil && pg > 0 && pg != sh.pid {
		add(pg)
	}
	for _, pid := range liveSessionPIDs(sh.pid) {
		if pid != sh.pid {
			add(pid)
		}
	}
	return names
}
