package proc

import (
	"os"
	"strconv"
	"strings"
	"syscall"
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

// killHolders kills every process but fawn that has one of the pipes (by
// inode) open, found in /proc/PID/fd.
func killHolders(pipes []uint64) {
	want := map[string]bool{}
	for _, ino := range pipes {
		if ino != 0 {
			want["pipe:["+strconv.FormatUint(ino, 10)+"]"] = true
		}
	}
	if len(want) == 0 {
		return
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		dir := "/proc/" + e.Name() + "/fd"
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if link, err := os.Readlink(dir + "/" + fd.Name()); err == nil && want[link] {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				break
			}
		}
	}
}
