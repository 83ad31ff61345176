package ui

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
)

// shellRunner is a terminal pane that runs a command in its shell in
// sight (*termview.View).
type shellRunner interface {
	Run(ctx context.Context, c terminal.Command) (terminal.Result, error)
}

// runShell is "!cmd" typed in the chat. cmd runs in the task's terminal,
// in sight, as the agent's commands do; its output is held for the user's
// next message (chat.Pending shows it above the input; Esc drops it). It
// is the user's own command, so nothing asks, whatever the project's
// trust. While it runs the task counts as working: Esc stops it, and a
// message sent meanwhile waits for it and takes its output. While a turn
// runs it is refused and given back to the input: the agent's commands
// run in that same shell.
func (t *Task) runShell(line string) {
	cmd := strings.TrimSpace(line)
	switch {
	case cmd == "":
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "! needs a command after it: !go test ./... runs it in the terminal and sends its output with your next message"})
		return
	case t.turnRunning():
		if t.input.GetText() == "" {
			t.input.SetText("!"+line, true)
		}
		what := "a turn is running"
		if t.chat.Pending.Running() {
			what = "a command is running"
		}
		t.app.flash(what + ": send !" + render.Clean(cmd) + " again when it has ended (Esc stops it), or type it in the terminal")
		return
	}
	runner, ok := t.terminal.(shellRunner)
	if !ok {
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "this task has no terminal to run !" + render.Clean(cmd) + " in"})
		return
	}
	run := &chat.ShellRun{Command: cmd, Running: true}
	t.chat.Pending.Add(run)
	t.list.ScrollToBottom()
	ctx, cancel := context.WithCancel(t.app.runCtx)
	t.turnCancel = cancel
	t.ended = panes.TaskIdle
	t.Reveal(panes.Terminal)
	t.app.Go(func() {
		res, err := runner.Run(ctx, terminal.Command{Text: cmd})
		t.app.post(func() { t.shellEnded(run, res, err, cancel) })
	})
}

// shellEnded records how a "!cmd" ended and starts the message that
// waited for it.
func (t *Task) shellEnded(run *chat.ShellRun, res terminal.Result, err error, cancel context.CancelFunc) {
	cancel()
	t.turnCancel = nil
	t.router.Cancelled = false
	t.app.status.Unflash(flashCancelling)
	t.TerminalUsed()
	run.Running = false
	if err != nil {
		t.chat.Pending.Remove(run)
		msg := err.Error()
		if errors.Is(err, terminal.ErrBusy) {
			msg = "the terminal is busy (" + msg + "): finish what runs in it, then send it again"
		}
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "!" + render.Clean(run.Command) + " did not run: " + msg})
	} else {
		run.Ended = shellEnding(res)
		out := res.Output
		if res.Binary {
			out = "(binary output, not shown)"
		}
		run.SetOutput(out, int(res.TotalLines))
	}
	t.app.RequestDraw()
	if len(t.queued) > 0 {
		next := t.queued[0]
		t.queued = t.queued[1:]
		t.startTurn(next)
	}
}

// shellEnding says how a run ended, in a few words.
func shellEnding(r terminal.Result) string {
	switch {
	case r.SyntaxError:
		return "syntax error — not run"
	case r.Interrupted, r.UserInterrupted:
		return "interrupted"
	case r.ShellRestarted:
		return "the shell ended"
	case r.ExitCode < 0:
		return "killed"
	}
	return "exit " + strconv.Itoa(r.ExitCode)
}
