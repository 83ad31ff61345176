package terminal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/fawn-ide/fawn/internal/proc"
)

// Command is one agent command.
type Command struct {
	// Text is the command line or script; several lines run as one command.
	Text string
	// Timeout ends the command by the timeout ladder (0: no timeout).
	Timeout time.Duration
	// ResetCwd first changes back to the terminal's root directory.
	ResetCwd bool
	// Spill, when set, gets the whole output as the result's text would
	// be without its middle left out (escape sequences removed, progress
	// lines collapsed), as it is produced. A write error stops the writes,
	// not the command.
	Spill io.Writer
}

// Result is what became of an agent command.
type Result struct {
	// Output is what the command printed, as text: escape sequences removed,
	// progress lines collapsed, the middle left out when long (the first
	// and last parts are kept, with a line saying what was omitted).
	Output string
	// ExitCode is the command's status; -1 when it has none (it was killed
	// with the shell, or never started).
	ExitCode int
	// Cwd is the shell's directory afterwards.
	Cwd string
	// TimedOut: the timeout expired and the ladder stopped the command.
	TimedOut bool
	// StoppedBy names the ladder step that ended it: "Ctrl-C", "SIGTERM",
	// "SIGKILL" or "restart" (the shell was killed and started again).
	StoppedBy string
	// Interrupted: the context was cancelled (the user pressed Esc).
	Interrupted bool
	// UserInterrupted: the user pressed Ctrl-C in the terminal.
	UserInterrupted bool
	// SyntaxError: bash could not parse the command, so nothing ran;
	// Output holds bash's message.
	SyntaxError bool
	// ShellRestarted: the shell ended during the command (exit, set -e, the
	// ladder's last step) and a new one was started in Cwd; variables,
	// functions and options set earlier are gone.
	ShellRestarted bool
	// Binary: the output was not text and is left out of Output.
	Binary bool
	// BinarySample is a printable glimpse of binary output.
	BinarySample string
	// TotalBytes and TotalLines measure the whole output; OmittedBytes and
	// OmittedLines what Output leaves out.
	TotalBytes, TotalLines     int64
	OmittedBytes, OmittedLines int64
	Duration                   time.Duration
}

// ErrBusy is returned when the user is running something in the terminal.
var ErrBusy = errors.New("terminal busy")

// BusyError says what occupies the terminal.
type BusyError struct {
	// Program is the foreground program's name ("vim"), when known.
	Program string
	// Continued: the user left an unfinished command line (a PS2 prompt).
	Continued bool
	// Replaced names what replaced the shell with exec ("zsh"): it has no
	// fawn markers, the terminal cannot run the agent's commands.
	Replaced string
}

func (e *BusyError) Error() string {
	switch {
	case e.Replaced != "":
		return fmt.Sprintf("the terminal's shell was replaced by %s (exec), which has no fawn prompt markers: commands cannot be run in it until the user exits it", e.Replaced)
	case e.Continued:
		return "the terminal is busy: the user has an unfinished command line in it; try again later or ask the user to finish it"
	case e.Program != "":
		return fmt.Sprintf("the terminal is busy: the user is running %s in it; try again later or ask the user to finish it", e.Program)
	}
	return "the terminal is busy: the user is running a command in it; try again later or ask the user to finish it"
}

func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// Keys bound by fawnrc.bash around an agent command.
const (
	keyBegin = "\x1b[6973~"
	keyEnd   = "\x1b[6974~"
)

// How long Run waits for the shell's first prompt, and for a shell the
// user is busy with.
const (
	startupWait = 30 * time.Second
	busyWait    = 2 * time.Second
	// After Esc, Ctrl-C first; then every cancelStep the foreground job is
	// killed, and after cancelRestart the shell itself.
	cancelStep    = 100 * time.Millisecond
	cancelRestart = 3 * time.Second
	streamEvery   = 100 * time.Millisecond
	contRetry     = 500 * time.Millisecond
)

// run is the state of one command line typed for the agent. Its fields are
// guarded by Terminal.mu; the reader fills them, Run waits on wake.
type run struct {
	sh   *shell
	text string
	cap  *capture
	pre  []byte // output before the command started: bash's syntax errors

	started, done, prompt, cont bool
	status                      int
	exited                      bool
	exitStatus                  int
	userInterrupt               bool

	wake chan struct{}
}

func (r *run) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *run) data(d []byte) {
	switch {
	case r.done:
		// The prompt being drawn.
	case r.started:
		r.cap.write(d)
	default:
		r.pre = append(r.pre, d...)
		if len(r.pre) > 16<<10 {
			r.pre = append(r.pre[:0], r.pre[len(r.pre)-8<<10:]...)
		}
	}
}

func (r *run) marker(m marker) {
	switch m.kind {
	case markStarted:
		r.started = true
	case markDone:
		if !r.done {
			r.done = true
			r.status = m.status
		}
	case markPrompt:
		if r.done {
			r.prompt = true
		}
	case markContinue:
		if !r.started {
			r.cont = true
		}
	}
	r.poke()
}

// Run types c into the shell as the user would see it typed, waits for it
// to finish and returns what it printed. Commands are serialised; while one
// runs, the user's keys are held (except Ctrl-C) and a half-typed line of
// theirs is put away and restored afterwards. onOutput, when not nil,
// receives the output as it comes, as text, from Run's goroutine; when
// output is fast some of it is left out of these chunks, never out of the
// result.
//
// Cancelling ctx interrupts the command (Ctrl-C, then SIGKILL to its
// process group); the result then says Interrupted. An error is returned
// only when the command could not be typed at all: it is invalid, the
// terminal is busy (ErrBusy) or closed, or ctx ended first.
func (t *Terminal) Run(ctx context.Context, c Command, onOutput func(chunk string)) (Result, error) {
	text, err := commandText(c.Text)
	if err != nil {
		return Result{}, err
	}
	select {
	case t.runSem <- struct{}{}:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	case <-t.done:
		return Result{}, errors.New("terminal: closed")
	}
	defer func() { <-t.runSem }()

	begin := time.Now()
	if strings.Contains(text, "\n") {
		// After a syntax error bash drops only the offending line of a
		// pasted script and runs the lines after it; so a script is parsed
		// by a separate bash first and typed only when all of it parses.
		if msg, bad := syntaxCheck(t.bash, c.Text); bad {
			return Result{SyntaxError: true, ExitCode: 2, Output: msg, Cwd: t.Cwd(), Duration: time.Since(begin)}, nil
		}
	}
	sh, err := t.waitReady(ctx)
	if err != nil {
		return Result{}, err
	}

	var res Result
	if c.ResetCwd {
		cd := "cd -- " + shellQuote(t.root)
		res = t.runLine(ctx, sh, cd, cd, 10*time.Second, nil, nil)
		if res.Interrupted || res.ShellRestarted || res.ExitCode != 0 {
			res.Output = "could not return to " + t.root + ": " + res.Output
			t.finish(sh)
			res.Duration = time.Since(begin)
			return res, nil
		}
	}
	res = t.runLine(ctx, sh, text, c.Text, c.Timeout, onOutput, c.Spill)
	t.finish(sh)
	res.Duration = time.Since(begin)
	return res, nil
}

// commandText checks a command and shapes it for typing: a script of
// several lines is wrapped in braces so it runs as one command with one
// status and is not run at all when any of it does not parse.
func commandText(s string) (string, error) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimRight(s, " \t\n")
	s = strings.TrimLeft(s, "\n")
	if strings.TrimSpace(s) == "" {
		return "", errors.New("the command is empty")
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return "", fmt.Errorf("the command contains the control character %U; write it with printf escapes such as '\\x1b' instead", r)
		}
	}
	if strings.Contains(s, "\n") {
		s = "{ " + s + "\n}"
	}
	return s, nil
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// waitReady waits until the shell shows its prompt and no one else uses
// it, and returns it.
func (t *Terminal) waitReady(ctx context.Context) (*shell, error) {
	t.mu.Lock()
	wait := busyWait
	if t.state == stateStarting {
		wait = t.startupWait
	}
	t.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		t.mu.Lock()
		if t.closed {
			t.mu.Unlock()
			return nil, errors.New("terminal: closed")
		}
		if t.state == stateReady && t.sh != nil {
			// Taken under the lock that saw the prompt, so no key of the
			// user's slips in between.
			sh := t.sh
			t.agent = true
			sh.out.enqueue([]byte(keyBegin))
			t.mu.Unlock()
			t.markDirty()
			return sh, nil
		}
		if t.state == stateDead {
			err := t.deadErr
			t.mu.Unlock()
			return nil, err
		}
		changed := t.changed
		state := t.state
		sh := t.sh
		t.mu.Unlock()
		if state != stateStarting {
			if r := t.Replaced(); r != "" {
				// No marker will come: say so at once.
				return nil, &BusyError{Replaced: r}
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.done:
			return nil, errors.New("terminal: closed")
		case <-timer.C:
			switch {
			case state == stateStarting:
				return nil, t.noPromptError(sh)
			case state == stateContinued:
				return nil, &BusyError{Continued: true}
			}
			be := &BusyError{Replaced: t.Replaced()}
			if sh != nil && be.Replaced == "" {
				if pg, err := foregroundPgrp(sh.pty); err == nil && pg != sh.pid {
					be.Program = processName(pg)
				}
			}
			return nil, be
		}
	}
}

// noPromptError says why a shell showed no prompt within startupWait: its
// startup files still run something, or bash waits for input but fawn's
// prompt marker never came, which something in ~/.bashrc broke (its last
// words are quoted).
func (t *Terminal) noPromptError(sh *shell) error {
	running := ""
	if sh != nil {
		running = stillRunning(sh)
	}
	if running != "" || sh == nil {
		return fmt.Errorf("the shell showed no prompt within %s%s; its startup files (~/.bashrc) are slow or waiting for something", t.startupWait, running)
	}
	msg := fmt.Sprintf("the shell started but fawn's prompt marker never came within %s: something in ~/.bashrc (PROMPT_COMMAND, PS1, a trap or an error) stops fawn's shell integration", t.startupWait)
	if last := lastShellLine(t.scr.text()); last != "" {
		msg += fmt.Sprintf("; the shell last printed %q", last)
	}
	return errors.New(msg)
}

// lastShellLine returns the last line of screen text that is not fawn's own.
func lastShellLine(screen string) string {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !strings.HasPrefix(l, "[fawn:") {
			return l
		}
	}
	return ""
}

// runLine types one command line and waits for it, driving the timeout
// ladder and cancellation.
func (t *Terminal) runLine(ctx context.Context, sh *shell, text, shown string, timeout time.Duration, onOutput func(string), spill io.Writer) Result {
	r := &run{sh: sh, text: shown, cap: newCapture(), wake: make(chan struct{}, 1)}
	r.cap.spill = spill
	t.mu.Lock()
	t.run = r
	sh.out.enqueue([]byte("\x1b[200~" + text + "\x1b[201~\r"))
	t.mu.Unlock()
	t.markDirty()

	var res Result
	ladder := time.NewTimer(time.Hour)
	ladder.Stop()
	if timeout > 0 {
		ladder.Reset(timeout)
	}
	defer ladder.Stop()
	st := &stopper{ladder: ladder}
	tick := time.NewTicker(streamEvery)
	defer tick.Stop()
	ctxDone := ctx.Done()
	var lastCtrlC time.Time

	for {
		select {
		case <-r.wake:
		case <-tick.C:
		case <-t.done:
			t.mu.Lock()
			t.run = nil
			t.mu.Unlock()
			res.ExitCode = -1
			res.Output = "the terminal was closed"
			return res
		case <-ctxDone:
			ctxDone = nil
			t.cancelRun(sh, st, &res)
		case <-ladder.C:
			t.climb(sh, st, &res)
		}
		if t.pumpRun(r, sh, onOutput, &lastCtrlC) {
			break
		}
	}
	return t.runResult(r, res, text, st.restarted, onOutput)
}

// stopper is where one run is on the way to stopping it: the timeout
// ladder, or after its context is done, cancellation.
type stopper struct {
	ladder    *time.Timer
	step      int  // timeout ladder step taken
	canceled  bool // ctx is done; ladder runs in cancel mode
	cancelAt  time.Time
	restarted bool
}

// pressCtrlC types a Ctrl-C into the shell.
func (t *Terminal) pressCtrlC(sh *shell) {
	t.mu.Lock()
	sh.out.enqueue([]byte{0x03})
	t.mu.Unlock()
}

// cancelRun starts cancellation once the run's context is done: a Ctrl-C
// now, and the ladder in cancel mode.
func (t *Terminal) cancelRun(sh *shell, st *stopper, res *Result) {
	st.canceled = true
	st.cancelAt = time.Now()
	res.Interrupted = true
	t.pressCtrlC(sh)
	st.ladder.Reset(cancelStep)
}

// climb takes the next step when the ladder fires: in cancel mode, a kill
// of the job (or a Ctrl-C to the shell, then a restart past
// cancelRestart); otherwise the next step of the timeout ladder.
func (t *Terminal) climb(sh *shell, st *stopper, res *Result) {
	if st.canceled {
		if time.Since(st.cancelAt) >= cancelRestart && !st.restarted {
			st.restarted = true
			t.killShell(sh)
		} else if !t.signalJob(sh, syscall.SIGKILL) {
			// The shell itself is in the foreground (a builtin, a
			// PS2 prompt): only Ctrl-C reaches it.
			t.pressCtrlC(sh)
		}
		st.ladder.Reset(cancelStep)
		return
	}
	res.TimedOut = true
	st.ladder.Reset(t.timeoutStep(sh, st, res))
}

// timeoutStep takes the timeout ladder's next step: Ctrl-C twice, SIGTERM,
// SIGKILL, then a restart of the shell. It returns how long to wait for
// the next.
func (t *Terminal) timeoutStep(sh *shell, st *stopper, res *Result) time.Duration {
	next := t.opts.Grace
	switch st.step {
	case 0, 1:
		// Ctrl-C twice: one pressed while bash is between two
		// commands of a list can be lost.
		t.pressCtrlC(sh)
		res.StoppedBy = "Ctrl-C"
		if st.step == 0 {
			next = t.opts.Grace / 4
		} else {
			next = t.opts.Grace - t.opts.Grace/4
		}
		st.step++
	case 2, 3:
		sig := syscall.SIGTERM
		if st.step == 3 {
			sig = syscall.SIGKILL
		}
		if t.signalJob(sh, sig) {
			res.StoppedBy = signalName(sig)
			st.step++
			break
		}
		// The shell itself is stuck: only a restart helps.
		fallthrough
	case 4:
		res.StoppedBy = "restart"
		st.restarted = true
		t.killShell(sh)
		st.step = 5
	}
	return next
}

// pumpRun passes on the output captured since the last call, abandons a line
// bash waits to have continued, and reports whether the run finished.
func (t *Terminal) pumpRun(r *run, sh *shell, onOutput func(string), lastCtrlC *time.Time) bool {
	t.mu.Lock()
	if chunk := r.cap.takeStream(); chunk != "" && onOutput != nil {
		t.mu.Unlock()
		onOutput(chunk)
		t.mu.Lock()
	}
	if r.cont && !r.done && time.Since(*lastCtrlC) >= contRetry {
		// An unterminated quote or here-document: bash waits for more
		// lines. Nothing ran; Ctrl-C abandons the line. It is repeated
		// until the prompt is back: one pressed while bash was still
		// drawing PS2 can go unnoticed.
		*lastCtrlC = time.Now()
		sh.out.enqueue([]byte{0x03})
	}
	finished := r.exited || (r.done && r.prompt)
	if finished {
		t.run = nil
	}
	t.mu.Unlock()
	return finished
}

// runResult completes res for a finished run of the line text: its output
// (the rest passed on to onOutput), how it ended and the shell's cwd.
func (t *Terminal) runResult(r *run, res Result, text string, restarted bool, onOutput func(string)) Result {
	r.cap.finish()
	if chunk := r.cap.takeStream(); chunk != "" && onOutput != nil {
		onOutput(chunk)
	}
	out := r.cap.result()
	res.Output = out.text
	res.Binary = out.binary
	res.BinarySample = out.binaryVisible
	res.TotalBytes, res.TotalLines = out.totalBytes, out.totalLines
	res.OmittedBytes, res.OmittedLines = out.omittedBytes, out.omittedLines
	res.UserInterrupted = r.userInterrupt
	if res.TimedOut || res.Interrupted || res.UserInterrupted {
		// The terminal echoes the Ctrl-C that stopped the command.
		res.Output = strings.TrimSuffix(strings.TrimSuffix(res.Output, "\n"), "^C")
		if res.Output != "" && !strings.HasSuffix(res.Output, "\n") {
			res.Output += "\n"
		}
	}
	switch {
	case r.cont:
		res.SyntaxError = true
		res.ExitCode = 2
		res.Output = incompleteMessage(t.bash, text)
	case r.done && !r.started && (res.Interrupted || res.UserInterrupted || res.TimedOut):
		// Stopped before bash began to run it: readline dropped the line
		// at the Ctrl-C. Not a syntax error.
		res.ExitCode = r.status
		res.Output = ""
	case r.done && !r.started:
		res.SyntaxError = true
		res.ExitCode = r.status
		res.Output = syntaxMessage(r.pre)
	case r.done:
		res.ExitCode = r.status
	case r.exited:
		res.ShellRestarted = true
		res.ExitCode = r.exitStatus
		if restarted {
			res.ExitCode = -1
		}
	}
	if restarted && r.exited {
		res.ShellRestarted = true
	}
	t.mu.Lock()
	res.Cwd = t.cwd
	t.mu.Unlock()
	return res
}

func signalName(sig syscall.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGKILL"
}

// finish restores the user's half-typed line and sends what they typed
// meanwhile.
func (t *Terminal) finish(sh *shell) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.agent = false
	held := t.held
	t.held = nil
	if t.sh == nil {
		return
	}
	if t.sh == sh {
		t.sh.out.enqueue([]byte(keyEnd))
	}
	if len(held) > 0 {
		t.input(held)
	}
	t.markDirty()
}

// signalJob sends sig to the foreground job; it reports false when there
// is none but the shell itself.
func (t *Terminal) signalJob(sh *shell, sig syscall.Signal) bool {
	pg, err := foregroundPgrp(sh.pty)
	if err != nil || pg <= 0 || pg == sh.pid {
		return false
	}
	return syscall.Kill(-pg, sig) == nil
}

// killShell ends a stuck shell and all it started; the reader then sees it
// end and a new one is started.
func (t *Terminal) killShell(sh *shell) {
	hangUp(sh, restartGrace)
}

// syntaxMessage picks bash's complaint out of what it printed after the
// command line was entered.
func syntaxMessage(pre []byte) string {
	// Readline turns bracketed paste off when it hands the line over.
	if i := bytes.LastIndex(pre, []byte("\x1b[?2004l")); i >= 0 {
		pre = pre[i+len("\x1b[?2004l"):]
	}
	c := newCapture()
	c.write(pre)
	c.finish()
	text := strings.TrimSpace(c.result().text)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		// A script wrapped in braces makes bash complain about the brace
		// too once it gave up on the line before.
		if len(lines) > 0 && strings.HasSuffix(l, "syntax error near unexpected token `}'") {
			continue
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return "bash: syntax error"
	}
	return strings.Join(lines, "\n")
}

// syntaxCheck parses script with bash -n (extglob on, as interactive
// shells usually have it) and returns bash's complaint when it fails.
func syntaxCheck(bash, script string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := proc.Command(ctx, bash, "-O", "extglob", "-n", "-c", script)
	cmd.Args[0] = "bash" // bash names itself by argv[0] in its messages
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return "", false // no verdict (it could not run): let the shell decide
	}
	msg := strings.TrimSpace(strings.ReplaceAll(string(out), "bash: -c: ", "bash: "))
	if msg == "" {
		msg = "bash: syntax error"
	}
	return msg, true
}

// incompleteMessage asks a separate bash what is unterminated, since the
// interactive one just waits for more lines.
func incompleteMessage(bash, text string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := proc.Command(ctx, bash, "-O", "extglob", "-n", "-c", text)
	cmd.Args[0] = "bash"
	out, _ := cmd.CombinedOutput()
	msg := strings.TrimSpace(string(out))
	msg = strings.ReplaceAll(msg, "bash: -c: ", "bash: ")
	if msg == "" {
		msg = "bash: unexpected end of input"
	}
	return msg + "\n(the command is incomplete: an unterminated quote, here-document or block)"
}
