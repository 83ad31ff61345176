package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// binary is bin/fawn built once for the whole package.
var binary string

// noTmux, when set, says why the tests that drive the screen skip.
var noTmux string

func TestMain(m *testing.M) {
	if _, err := exec.LookPath("tmux"); err != nil {
		noTmux = "tmux is not installed (apt-get install -y tmux)"
	}
	dir, err := os.MkdirTemp("", "fawn-e2e-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "fawn")
	_, here, _, _ := runtime.Caller(0)
	build := exec.Command("go", "build", "-race", "-o", binary, "./cmd/fawn")
	build.Dir = filepath.Join(filepath.Dir(here), "..")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Printf("e2e: building fawn failed: %v\n%s", err, out)
		os.Exit(1)
	}
	// The shell's sandbox is on by default; the tests that are about it
	// turn it on again (FAWN_SANDBOX_MODE), the others run as they were
	// written, with commands that ask.
	os.Setenv("FAWN_SANDBOX_MODE", "off")
	// A binary built with -race sleeps a second as it exits (GORACE
	// atexit_sleep_ms, default 1000), for races in goroutines still
	// running: every fawn a test ends paid it, about 1 s of most tests.
	// A race found before the exit still prints and exits 66.
	//
	// A race a fawn under tmux finds would print onto a screen nobody
	// reads: each race-built fawn writes its reports to a file of its own
	// here instead, and any there fails the package.
	races := filepath.Join(dir, "race")
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0 log_path="+races))
	home := ownHome()
	code := m.Run()
	if found, _ := filepath.Glob(races + ".*"); len(found) > 0 {
		for _, f := range found {
			b, _ := os.ReadFile(f)
			fmt.Printf("e2e: a fawn the tests ran found a data race (%s):\n%s\n", filepath.Base(f), b)
		}
		code = 1
	}
	os.RemoveAll(home)
	os.RemoveAll(dir)
	removeBenchBinaries()
	os.Exit(code)
}

// ownHome gives the tests' programs a home of their own, so the shells
// fawn starts read no rc files of the machine's (a pyenv rehash that a
// killed shell left locked made every later bash wait for the lock); the
// Go caches and the npm packages the tests use stay where they are.
func ownHome() string {
	real, _ := os.UserHomeDir()
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if os.Getenv(k) == "" {
			if out, err := exec.Command("go", "env", k).Output(); err == nil {
				os.Setenv(k, strings.TrimSpace(string(out)))
			}
		}
	}
	for k, sub := range map[string]string{"NPM_TEST_PACKAGES_DIR": "fawn-test-npm", "ACP_TEST_PACKAGES_DIR": "fawn-test-npm-acp"} {
		if os.Getenv(k) == "" && real != "" {
			os.Setenv(k, filepath.Join(real, ".cache", sub))
		}
	}
	home, err := os.MkdirTemp("", "fawn-e2e-home")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	return home
}

var sessionSeq atomic.Int64

// Term is one tmux session running fawn on its own tmux server socket, so
// tests never touch a user's tmux.
type Term struct {
	t       *testing.T
	socket  string
	name    string
	w, h    int
	Home    string // FAWN_HOME
	Project string
}

// Start runs fawn with args in a w×h terminal, in project (a temp dir when
// ""). Without tmux the test skips, saying so.
func Start(t *testing.T, w, h int, project string, env []string, args ...string) *Term {
	t.Helper()
	if noTmux != "" {
		t.Skip(noTmux)
	}
	if project == "" {
		project = t.TempDir()
	}
	tm := &Term{
		t: t, w: w, h: h, Project: project, Home: t.TempDir(),
		socket: filepath.Join(t.TempDir(), "tmux.sock"),
		name:   fmt.Sprintf("fawn%d", sessionSeq.Add(1)),
	}
	// HOME is empty too: the machine's ~/.bashrc (slow, or waiting on a lock)
	// must not decide whether the terminal pane comes up.
	shellEnv := []string{"FAWN_HOME=" + tm.Home, "HOME=" + tm.Home, "TERM=xterm-256color", "OPENAI_API_KEY=", "ANTHROPIC_API_KEY=", "OPENAI_BASE_URL="}
	shellEnv = append(shellEnv, env...)
	cmdline := "env " + quoteAll(shellEnv) + " " + quote(binary) + " " + quoteAll(args) + " " + quote(project) +
		"; s=$?; echo; echo fawn-exited-$s; sleep 600"
	tm.tmux("new-session", "-d", "-s", tm.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "bash", "--norc", "-c", cmdline)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("screen at failure:\n%s", tm.Screen())
		}
		pids := tm.fawnPIDs()
		_ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run()
		// fawn writes its session as it ends (SIGHUP): wait for it, so
		// the temporary directories are not removed under it.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			alive := false
			for _, pid := range pids {
				alive = alive || running(pid)
			}
			if !alive {
				break
			}
		}
	})
	return tm
}

// running says whether pid is a process that has not exited. A zombie
// has: once kill-server has ended the pane's shell, fawn's zombie waits
// for init to reap it, which on some machines (an init that reaps now and
// then) took seconds.
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: kill's answer is all there is
	}
	// pid (comm) state …: comm may hold spaces and parentheses.
	if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) {
		return b[i+2] != 'Z'
	}
	return true
}

func (tm *Term) tmux(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Screen is the visible text.
func (tm *Term) Screen() string {
	out, err := exec.Command("tmux", "-S", tm.socket, "capture-pane", "-p", "-t", tm.name).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("(capture failed: %v %s)", err, out)
	}
	return string(out)
}

// Keys sends tmux key names ("Enter", "C-q", "Escape", "y").
func (tm *Term) Keys(keys ...string) {
	tm.t.Helper()
	tm.tmux(append([]string{"send-keys", "-t", tm.name}, keys...)...)
}

// Type sends literal text.
func (tm *Term) Type(text string) {
	tm.t.Helper()
	tm.tmux("send-keys", "-t", tm.name, "-l", text)
}

// Resize changes the terminal's size.
func (tm *Term) Resize(w, h int) {
	tm.t.Helper()
	tm.tmux("resize-window", "-t", tm.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h))
}

// WaitFor waits until every want appears on the screen at once.
func (tm *Term) WaitFor(want ...string) string {
	tm.t.Helper()
	return tm.WaitUntil(strings.Join(want, " & "), func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// WaitGone waits until text is no longer on the screen.
func (tm *Term) WaitGone(text string) string {
	tm.t.Helper()
	return tm.WaitUntil("no "+text, func(s string) bool { return !strings.Contains(s, text) })
}

// WaitUntil polls the screen until ok holds; the deadline is generous because
// CI machines are shared and slow (this is a condition, not a timing assertion).
func (tm *Term) WaitUntil(what string, ok func(string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := tm.Screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, " ")
}
