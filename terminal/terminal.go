package terminal

import (
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"
)

//go:embed fawnrc.bash
var rcScript string

// Options configure a Terminal.
type Options struct {
	// Dir is where the shell starts and where Command.ResetCwd goes back
	// to: the project root. Empty means the current directory.
	Dir string
	// Scrollback is how many lines scrolled off the top are kept (default 10000).
	Scrollback int
	// BaseEnv is the environment the shell starts from (KEY=VALUE); nil
	// means fawn's own. fawn passes its own minus the model keys.
	BaseEnv []string
	// Env holds extra KEY=VALUE entries for the shell, on top of BaseEnv;
	// later entries win.
	Env []string
	// OnDamage is called when the screen needs a redraw, from any goroutine,
	// at most 60 times a second. It must not block: the UI passes a function
	// that schedules a draw.
	OnDamage func()
	// OnPrompt, when set, is called in place of OnDamage once the screen
	// shows a new prompt of the shell (primary or continued), without
	// waiting for the frame: the shell waits for the user then, so the
	// UI should draw it at once. Unset, OnDamage is called.
	OnPrompt func()
	// Shell is the bash to run (default: bash from PATH).
	Shell string
	// Cols and Rows are the initial size until the view sets its own
	// (default 80×24).
	Cols, Rows int
	// Grace is how long each step of the timeout ladder waits for the
	// command to end before the next, harsher one (default 2s).
	Grace time.Duration
	// Colors are the pane's default colours, as programs asking for them
	// hear (the theme's).
	Colors Colors
	// OnExit, when set, is told (from another goroutine) that the shell
	// exited, with its status; no new shell is started then. Unset, a
	// shell that exits is started again (the agent's shell must live).
	OnExit func(status int)
	// GuardGit: the project is not trusted. For the duration of each
	// agent command (never the user's own), the shell exports
	// GIT_CONFIG_COUNT/KEY/VALUE entries that set core.fsmonitor=false,
	// core.hooksPath=/dev/null and safe.bareRepository=explicit — after
	// any the user had, which come back afterwards — so that git, run by
	// the command or by a program it starts (go build stamps the version
	// with git status), runs no monitor or hook the repository's own
	// configuration names and takes up no bare repository it carries.
	GuardGit bool
	// Start, when set, starts each shell's command, its pty attached, in
	// place of cmd.Start (the sandbox: it starts the shell confined).
	// Consulted at every start, so a shell started again follows what it
	// says then. An error stops that shell from starting.
	Start func(cmd *exec.Cmd) error
	// Background starts the first shell off the caller's path: Start
	// returns once the emulator is made, and the pty, the fork and the
	// exec of bash (on a busy machine the longest step of fawn's start,
	// as the calling thread waits for the child's exec) follow on a
	// goroutine. Keys typed meanwhile are held for the shell; one that
	// cannot start leaves the pane dead with the error, as a shell that
	// cannot start again does, and Started says it.
	Background bool
}

// Terminal is one persistent bash in a pty, shared by the user (through a
// view) and the agent (through Run). Everything the shell prints goes to an
// emulator the view draws; the agent's commands are typed into the same
// shell, visibly, and their output is captured between invisible markers.
// A shell that exits is started again in its last directory.
type Terminal struct {
	opts   Options
	root   string
	bash   string
	scr    *screen
	log    *backlog
	dirty  chan struct{}
	done   chan struct{}
	wg     sync.WaitGroup
	runSem chan struct{}

	// prompted: the emulator shows a prompt the pump has yet to pass on.
	prompted chan struct{}

	skippedBytes atomic.Int64
	startupWait  time.Duration // how long Run waits for the first prompt

	// pendingSize is a resize the UI asked for while the emulator was
	// busy, which the feeder carries out.
	pendingSize atomic.Pointer[[2]int]
	// resizeMu orders resizes: held from taking a size to telling the pty.
	resizeMu sync.Mutex

	mu         sync.Mutex
	sh         *shell // nil while the shell cannot be started
	closed     bool
	cwd        string
	state      shellState
	changed    chan struct{} // closed and replaced whenever state changes
	run        *run          // the agent command line in flight
	agent      bool          // an agent command owns the shell (from its prompt to its end)
	held       []byte        // user input held meanwhile
	quickExits int
	deadErr    error
	// spawning: Background's first shell is on its way (t.sh is nil);
	// spawned is closed once it started or failed to, spawnErr why.
	spawning bool
	spawned  chan struct{}
	spawnErr error
}

type shellState int

const (
	stateStarting  shellState = iota // no prompt seen yet
	stateReady                       // at the primary prompt
	stateBusy                        // a command line is running
	stateContinued                   // at the PS2 prompt: the line is incomplete
	stateUnknown                     // the user pressed Enter; wait for a marker
	stateDead                        // no shell (it keeps exiting)
)

// shell is one bash process and the goroutines that serve it.
type shell struct {
	cmd     *exec.Cmd
	pty     *os.File
	pid     int
	scan    *markerScanner
	out     *writer
	exited  chan struct{}
	status  int
	started time.Time
	slow    *time.Timer // notices a shell that is slow to show its prompt
}

// Start starts bash in a pty in opts.Dir and returns at once; Run waits for
// the first prompt.
func Start(opts Options) (*Terminal, error) {
	if opts.Scrollback <= 0 {
		opts.Scrollback = 10000
	}
	if opts.Cols <= 0 {
		opts.Cols = 80
	}
	if opts.Rows <= 0 {
		opts.Rows = 24
	}
	opts.Cols, opts.Rows = min(opts.Cols, maxCols), min(opts.Rows, maxRows)
	if opts.Grace <= 0 {
		opts.Grace = 2 * time.Second
	}
	name := opts.Shell
	if name == "" {
		name = "bash"
	}
	bash, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("terminal: %s not found: the terminal needs bash; install it or set its path", name)
	}
	dir := opts.Dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("terminal: %w", err)
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, fmt.Errorf("terminal: %w", err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("terminal: %s is not a directory the shell can start in", dir)
	}
	t := &Terminal{
		opts:    opts,
		root:    dir,
		bash:    bash,
		log:     newBacklog(),
		dirty:   make(chan struct{}, 1),
		done:    make(chan struct{}),
		runSem:  make(chan struct{}, 1),
		cwd:     dir,
		changed: make(chan struct{}),

		startupWait: startupWait,
	}
	t.scr = newScreen(opts.Cols, opts.Rows, opts.Scrollback, opts.Colors, t.reply)
	t.scr.damaged = t.markDirty
	t.spawned = make(chan struct{})
	t.prompted = make(chan struct{}, 1)
	if opts.Background {
		t.spawning = true
		t.wg.Add(3)
		go t.feed()
		go t.pump()
		go t.firstShell(dir)
		return t, nil
	}
	defer close(t.spawned)
	t.mu.Lock()
	sh, err := t.spawn(dir)
	if err != nil {
		t.mu.Unlock()
		t.scr.close()
		return nil, fmt.Errorf("terminal: start %s: %w", bash, err)
	}
	t.sh = sh
	t.mu.Unlock()
	t.wg.Add(2)
	go t.feed()
	go t.pump()
	return t, nil
}

// firstShell starts Background's first shell in dir, without t.mu while
// it forks (the view draws meanwhile, and asks for t.mu).
func (t *Terminal) firstShell(dir string) {
	defer t.wg.Done()
	defer close(t.spawned)
	sh, err := t.launch(dir)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.spawning = false
	switch {
	case err != nil:
		t.spawnErr = fmt.Errorf("terminal: start %s: %w", t.bash, err)
		t.deadErr = fmt.Errorf("cannot start the shell: %v", err)
		t.notice(t.deadErr.Error() + "; press Enter to try again")
		t.setState(stateDead)
	case t.closed:
		// Closed while it started: nobody will read or wait for it.
		killSession(sh.pid, syscall.SIGKILL)
		_ = sh.cmd.Process.Kill()
		_ = sh.cmd.Wait()
		sh.pty.Close()
	default:
		t.adopt(sh)
		t.sh = sh
		// The view may have sized the pane while bash started.
		if cols, rows := t.scr.size(); cols > 0 && rows > 0 {
			_ = setWinsize(sh.pty, cols, rows)
		}
		if len(t.held) > 0 && !t.agent {
			sh.out.enqueue(t.held)
			t.held = nil
		}
	}
}

// Started waits until the first shell has started (at once unless
// Options.Background) and says why it could not.
func (t *Terminal) Started() error {
	<-t.spawned
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.spawnErr
}

// spawn starts a shell in dir; t.mu is held.
func (t *Terminal) spawn(dir string) (*shell, error) {
	sh, err := t.launch(dir)
	if err != nil {
		return nil, err
	}
	t.adopt(sh)
	return sh, nil
}

// launch starts a shell in dir, touching nothing of t's that t.mu guards.
func (t *Terminal) launch(dir string) (*shell, error) {
	var nb [8]byte
	_, _ = rand.Read(nb[:])
	nonce := hex.EncodeToString(nb[:])
	rc, err := rcFile()
	if err != nil {
		return nil, err
	}
	// The parent's copy goes once bash has its own (its fd 3, which the
	// script closes first thing: nothing the shell runs inherits it).
	defer rc.Close()
	cmd := exec.Command(t.bash, bashArgs()...)
	cmd.ExtraFiles = []*os.File{rc}
	cmd.Args[0] = "bash" // its messages start with argv[0]
	cmd.Dir = dir
	base := t.opts.BaseEnv
	if base == nil {
		base = os.Environ()
	}
	cmd.Env = shellEnv(base, t.opts.Env, dir, nonce)
	if t.opts.GuardGit {
		cmd.Env = append(cmd.Env, "FAWN_GIT_GUARD=1")
	}
	start := t.opts.Start
	if start == nil {
		start = (*exec.Cmd).Start
	}
	t.scr.setNonce(nonce)
	cols, rows := t.scr.size()
	f, err := openPTY(cmd, cols, rows, start)
	if err != nil {
		return nil, err
	}
	sh := &shell{
		cmd:     cmd,
		pty:     f,
		pid:     cmd.Process.Pid,
		scan:    newMarkerScanner(nonce),
		out:     newWriter(f),
		exited:  make(chan struct{}),
		started: time.Now(),
	}
	return sh, nil
}

// adopt makes sh the shell being served: its state, its slow-start
// notice, its readers; t.mu is held.
func (t *Terminal) adopt(sh *shell) {
	t.setState(stateStarting)
	sh.slow = time.AfterFunc(slowStart, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.sh == sh && t.state == stateStarting && !t.closed {
			if running := stillRunning(sh); running != "" {
				t.notice("bash has not shown its prompt yet" + running + "; the pane waits for it")
			} else {
				t.notice("bash has not shown fawn's prompt marker yet: if it waits for input, something in ~/.bashrc stops fawn's shell integration")
			}
		}
	})
	t.wg.Add(3)
	go t.readLoop(sh)
	go sh.out.loop(&t.wg, sh.exited)
	go t.waitLoop(sh)
}

// bashArgs are the arguments of every bash fawn starts: its rc script
// from fd 3 (rcFile), interactive. Replaced looks for them.
func bashArgs() []string { return []string{"--rcfile", "/dev/fd/3", "-i"} }

// rcFile is fawnrc.bash for one shell, as the read end of a pipe that
// already holds all of it (bash reads an rc file that is not a regular
// one to its end): no file, so a fawn killed before bash read it leaves
// nothing in the temp directory (a file there used to outlive every fawn
// killed during a shell's start).
func rcFile() (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("write the shell's rc file: %w", err)
	}
	// The script fits a pipe's buffer on every system fawn runs on
	// (TestRCScriptFitsAPipe), so this does not wait for bash.
	_, err = w.WriteString(rcScript)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("write the shell's rc file: %w", err)
	}
	return r, nil
}

// shellEnv builds the shell's environment: fawn's own minus what would
// mislead programs in the pane, the terminal's identity, then extra.
func shellEnv(base, extra []string, dir, nonce string) []string {
	env := make([]string, 0, len(base)+len(extra)+6)
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "LINES", "COLUMNS", "TERMCAP", "TMUX", "TMUX_PANE", "STY", "FAWN_MARKER_NONCE", "FAWN_GIT_GUARD", "PWD", "OLDPWD":
			continue
		}
		env = append(env, kv)
	}
	// With PWD set, bash keeps the directory's name as given (through
	// symlinks) rather than its resolved path.
	env = append(env, "PWD="+dir, "TERM=xterm-256color", "COLORTERM=truecolor", "TERM_PROGRAM=fawn")
	env = append(env, extra...)
	return append(env, "FAWN_MARKER_NONCE="+nonce)
}

func (t *Terminal) readLoop(sh *shell) {
	defer t.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, err := sh.pty.Read(buf)
		if n > 0 {
			t.safeOutput(sh, buf[:n])
		}
		if err != nil {
			break
		}
	}
	<-sh.exited
	sh.pty.Close()
	t.shellEnded(sh)
}

func (t *Terminal) waitLoop(sh *shell) {
	defer t.wg.Done()
	sh.status = exitStatus(sh.cmd.Wait())
	close(sh.exited)
	// Background jobs may keep the pty open; give the reader a moment to
	// take what the shell printed last, then stop it.
	_ = sh.pty.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
}

// safeOutput is output, recovering from a panic in the marker scanner: the
// scanner drops the partial marker it kept (the read's markers are lost,
// and an agent command in flight may wait for its timeout), the bytes
// still reach the pane (output pushes them as it unwinds), a notice says
// so, and the shell goes on.
func (t *Terminal) safeOutput(sh *shell, p []byte) {
	defer func() {
		if r := recover(); r != nil {
			t.mu.Lock()
			sh.scan.carry = nil
			t.mu.Unlock()
			t.notice(fmt.Sprintf("reading the shell's output failed (%v); its markers were reset", r))
		}
	}()
	t.output(sh, p)
}

// output handles one read: markers update the shell's state and the agent
// command's capture; the raw bytes go on to the emulator.
func (t *Terminal) output(sh *shell, p []byte) {
	prompt := false
	t.mu.Lock()
	// The bytes go on once the markers are handled, and with them
	// whether they end a prompt (see pump).
	defer func() { t.log.pushPrompt(p, prompt) }()
	defer t.mu.Unlock()
	r := t.run
	if r != nil && r.sh != sh {
		r = nil
	}
	sh.scan.scan(p, func(d []byte) {
		if r != nil {
			r.data(d)
		}
	}, func(m marker) {
		switch m.kind {
		case markPrompt:
			prompt = true
		case markContinue:
			prompt = true
		}
		t.onMarker(m)
		if r != nil {
			r.marker(m)
		}
	})
}

// onMarker tracks what the shell is doing; t.mu is held.
func (t *Terminal) onMarker(m marker) {
	switch m.kind {
	case markStarted:
		t.setState(stateBusy)
	case markDone:
		if m.pwd != "" {
			t.cwd = m.pwd
		}
	case markPrompt:
		t.setState(stateReady)
	case markContinue:
		t.setState(stateContinued)
	}
}

func (t *Terminal) setState(s shellState) {
	if s != stateStarting && t.sh != nil && t.sh.slow != nil {
		t.sh.slow.Stop()
	}
	t.state = s
	close(t.changed)
	t.changed = make(chan struct{})
	t.markDirty()
}

// shellEnded runs after a shell's last output was handled: it tells the
// agent command in flight, writes a notice and starts a new shell in the
// last directory.
func (t *Terminal) shellEnded(sh *shell) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sh.slow.Stop()
	if t.sh != sh {
		return
	}
	if r := t.run; r != nil && r.sh == sh {
		r.exited = true
		r.exitStatus = sh.status
		r.poke()
	}
	if t.closed {
		return
	}
	t.sh = nil
	if time.Since(sh.started) < 2*time.Second {
		t.quickExits++
	} else {
		t.quickExits = 0
	}
	// Leave whatever full-screen program died in the alternate screen or
	// odd input modes.
	t.log.push([]byte("\x1b[?1049l\x1b[?1l\x1b>\x1b[?25h\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l"))
	if t.opts.OnExit != nil {
		t.notice(fmt.Sprintf("the shell exited with status %d", sh.status))
		t.setState(stateDead)
		go t.opts.OnExit(sh.status)
		return
	}
	if t.quickExits >= 3 {
		t.deadErr = fmt.Errorf("the shell keeps exiting right after it starts (last status %d); check ~/.bashrc, then press Enter in the terminal to try again", sh.status)
		t.notice(fmt.Sprintf("the shell keeps exiting (status %d); press Enter to start it again", sh.status))
		t.setState(stateDead)
		return
	}
	dir := t.cwd
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = t.root
	}
	t.notice(fmt.Sprintf("the shell exited with status %d; a new one starts in %s", sh.status, dir))
	t.restart(dir)
}

// Restart ends the shell and all it started; a new one starts in the
// same directory, as after a shell that exited, and Options.Start is
// asked again (the sandbox turned on or off). An agent command in flight
// ends with the old shell. It returns once the old shell was told to end.
func (t *Terminal) Restart() {
	t.mu.Lock()
	sh := t.sh
	t.mu.Unlock()
	if sh != nil {
		t.killShell(sh)
	}
}

// restart starts a new shell in dir; t.mu is held.
func (t *Terminal) restart(dir string) {
	nsh, err := t.spawn(dir)
	if err != nil {
		t.deadErr = fmt.Errorf("cannot start a new shell: %v", err)
		t.notice(t.deadErr.Error() + "; press Enter to try again")
		t.setState(stateDead)
		return
	}
	t.sh = nsh
	t.cwd = dir
	t.deadErr = nil
	if len(t.held) > 0 && !t.agent {
		nsh.out.enqueue(t.held)
		t.held = nil
	}
}

// slowStart is when a shell without a prompt gets a notice in the pane.
const slowStart = 3 * time.Second

// stillRunning names the programs a starting shell waits for, as
// " (still running: pyenv-rehash)", or "".
func stillRunning(sh *shell) string {
	var names []string
	seen := map[string]bool{}
	for _, pid := range sessionPIDs(sh.pid) {
		if pid == sh.pid {
			continue
		}
		if n := processName(pid); n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (still running: " + strings.Join(names, ", ") + ")"
}

// notice shows a line from fawn itself in the pane.
func (t *Terminal) notice(msg string) {
	t.log.push([]byte("\r\n\x1b[7m[fawn: " + msg + "]\x1b[27m\r\n"))
}

// reply sends the emulator's answers to terminal queries to the program,
// ahead of any held user input.
func (t *Terminal) reply(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sh != nil && !t.closed {
		t.sh.out.enqueue(p)
	}
}

// Close kills the shell and everything it started, and stops the
// terminal's goroutines.
func (t *Terminal) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	sh := t.sh
	t.mu.Unlock()
	if sh != nil {
		hangUp(sh, closeGrace)
	}
	close(t.done)
	t.wg.Wait()
	t.scr.close()
	return nil
}

// How long a shell and its jobs get to act on SIGHUP before SIGKILL; jobs
// still working on their exit then get workingGrace times as long.
const (
	closeGrace   = time.Second
	restartGrace = 300 * time.Millisecond
	workingGrace = 3
)

// hangUp ends a shell the way closing a terminal window should: SIGHUP, so
// that EXIT traps run — pyenv, for one, releases a lock in its trap, and a
// shell killed outright while its bashrc runs pyenv rehash leaves every
// later shell waiting a minute for that lock. The shell's jobs are hung up
// first and given the grace period to finish; only then the shell, whose
// exit would make the kernel send its foreground job a second SIGHUP that
// cuts a running trap short. Whatever is left then gets SIGKILL.
//
// The grace period is measured in the jobs' progress, not only the wall
// clock: past it, jobs that are running or waiting on the disk (an EXIT
// trap's rm behind a storm of fsyncs, or not scheduled on a loaded
// machine) are still exiting and get up to workingGrace× longer; jobs that
// sleep (a program that ignores SIGHUP) are killed at once.
func hangUp(sh *shell, grace time.Duration) {
	start := time.Now()
	deadline := start.Add(grace)
	hardDeadline := start.Add(workingGrace * grace)
	jobs := func() []int {
		var pids []int
		for _, pid := range liveSessionPIDs(sh.pid) {
			if pid != sh.pid {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	for _, pid := range jobs() {
		_ = syscall.Kill(pid, syscall.SIGHUP)
	}
	// Processes started since (a trap's rm) are waited for, not signalled.
	for {
		left := jobs()
		now := time.Now()
		if len(left) == 0 || now.After(hardDeadline) || (now.After(deadline) && !anyWorking(left)) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = syscall.Kill(sh.pid, syscall.SIGHUP)
	timer := time.NewTimer(max(time.Until(deadline), grace/4))
	defer timer.Stop()
	select {
	case <-sh.exited:
	case <-timer.C:
	}
	killSession(sh.pid, syscall.SIGKILL)
	_ = sh.cmd.Process.Kill()
}

// Size returns the terminal's size in cells.
func (t *Terminal) Size() (cols, rows int) { return t.scr.size() }

// Modes returns the input modes the running program asked for.
func (t *Terminal) Modes() Modes { return t.scr.getModes() }

// Cwd returns the shell's working directory as of its last prompt.
func (t *Terminal) Cwd() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cwd
}

// Root returns the directory the terminal started in (Options.Dir).
func (t *Terminal) Root() string { return t.root }

// AgentCommand returns the agent command running now, or "".
func (t *Terminal) AgentCommand() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.run == nil {
		return ""
	}
	return t.run.text
}

// Bells counts the bells (BEL outside an escape sequence) the programs
// rang, for the view to show one it did not see.
func (t *Terminal) Bells() uint64 { return t.scr.getBells() }

// Title returns the window title the running program set (OSC 0/2), or "".
func (t *Terminal) Title() string { return t.scr.getTitle() }

// DrawTo draws the terminal into the w×h area at x, y of scr.
func (t *Terminal) DrawTo(scr tcell.Screen, x, y, w, h int, o DrawOptions) Drawn {
	return t.scr.drawTo(scr, x, y, w, h, o)
}

// ScreenText returns the visible screen as plain text, one line per row,
// trailing blanks trimmed.
func (t *Terminal) ScreenText() string { return t.scr.text() }

// ScrollbackText returns the lines in the scrollback as plain text.
func (t *Terminal) ScrollbackText() []string { return t.scr.scrollbackText() }

// SkippedBytes counts output the display left out to catch up.
func (t *Terminal) SkippedBytes() int64 { return t.skippedBytes.Load() }
