package proc

import (
	"os"
	"strconv"
	"strings"
)

// descendants lists the processes below pid, from /proc. A process that
// was reparented (its parent exited) is no longer below pid.
func descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, _, ok := stat(p); ok {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	seen := map[int]bool{pid: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// stat reads a process's parent and start time (in clock ticks since
// boot) from /proc/PID/stat ("PID (COMM) S PPID … STARTTIME …"; COMM may
// hold spaces and parentheses, so read after the last ')').
func stat(pid int) (ppid int, start uint64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	// After COMM: state(0) ppid(1) … starttime(19).
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return 0, 0, false
	}
	pp, err1 := strconv.Atoi(f[1])
	st, err2 := strconv.ParseUint(f[19], 10, 64)
	return pp, st, err1 == nil && err2 == nil
}

// startTime is when pid started, to tell it from a later process that got
// its number; ok is false when it is gone.
func startTime(pid int) (uint64, bool) {
	_, st, ok := stat(pid)
	return st, ok
}
