package terminal

import (
	"os"
	"strconv"
	"strings"
)

// A shell that replaced itself (`exec zsh`, `exec bash`) keeps its pid and
// its pty, but what now runs there never prints fawn's prompt markers: the
// terminal would wait for a prompt that never comes and take the user for
// busy. Its command line (/proc/PID/cmdline) tells: it is no longer the
// one fawn started.

// cmdline is the command line of process pid as /proc has it, or "".
func cmdline(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return string(b)
}

// Replaced names the program that replaced the terminal's shell with exec
// ("zsh"), which has none of fawn's markers: the agent cannot run its
// commands there. It is "" while fawn's own bash runs (or none does).
//
// fawn's bash is the process whose command line holds the arguments fawn
// started it with (bashArgs; a wrapper script that passes them on keeps
// them too): nothing needs reading at its first prompt, which a quick
// `exec sh` typed while bash started could overtake.
func (t *Terminal) Replaced() string {
	t.mu.Lock()
	sh := t.sh
	t.mu.Unlock()
	if sh == nil {
		return ""
	}
	select {
	case <-sh.exited:
		return ""
	default:
	}
	if now := cmdline(sh.pid); now == "" || strings.Contains(now, "\x00"+strings.Join(bashArgs(), "\x00")+"\x00") {
		return ""
	}
	if n := processName(sh.pid); n != "" {
		return n
	}
	return "another program"
}
