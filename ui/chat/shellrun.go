package chat

// "!cmd" typed in the chat runs cmd in the task's terminal, in sight, and
// its output goes with the user's next message: until then the chat shows
// it pending on a row above the input, and Esc drops it. This file keeps
// the runs pending, draws that row, and writes what the agent is sent.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// maxShellOutput is how much of one run's output a message carries: the
// terminal keeps 32 KiB of a command's output; a prompt gets the first
// and last parts of that, as a tool result would.
const (
	maxShellHead = 4 << 10
	maxShellTail = 12 << 10
)

// ShellRun is one "!cmd": the command line and, once it has ended, what
// it printed and how it ended.
type ShellRun struct {
	Command string
	Running bool
	// Output is the command's output as text (escape sequences removed,
	// control characters shown), cut to its first and last parts.
	Output string
	Lines  int
	// Ended says how it ended: "exit 0", "interrupted", "syntax error — not run".
	Ended string
}

// ShellRunner is a terminal pane that runs a command in its shell in
// sight (*termview.View): where a "!cmd" runs.
type ShellRunner interface {
	Run(ctx context.Context, c terminal.Command) (terminal.Result, error)
}

// End records how r ended: what it printed and how, or, when it did not
// run, why not, as the chat says it ("" when it ran).
func (r *ShellRun) End(res terminal.Result, err error) (notRun string) {
	r.Running = false
	if err != nil {
		msg := err.Error()
		switch {
		case errors.Is(err, terminal.ErrBusy):
			msg = "the terminal is busy (" + msg + "): finish what runs in it, then send it again"
		case errors.Is(err, context.Canceled):
			return "!" + render.Clean(r.Command) + " was stopped before it started"
		}
		return "!" + render.Clean(r.Command) + " did not run: " + msg
	}
	r.Ended = shellEnding(res)
	out := res.Output
	if res.Binary {
		out = "(binary output, not shown)"
	}
	r.SetOutput(out, int(res.TotalLines))
	return ""
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

// SetOutput records what a run printed, cut and made safe to send and show.
func (r *ShellRun) SetOutput(out string, lines int) {
	out = safetext.Text(out)
	if len(out) > maxShellHead+maxShellTail {
		head, tail := out[:maxShellHead], out[len(out)-maxShellTail:]
		// Cut at line ends where there are some, never inside a character.
		if i := strings.LastIndexByte(head, '\n'); i >= 0 {
			head = head[:i+1]
		} else {
			head = strings.ToValidUTF8(head, "") + "\n"
		}
		if i := strings.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		} else {
			tail = strings.ToValidUTF8(tail, "")
		}
		omitted := strings.Count(out, "\n") - strings.Count(head, "\n") - strings.Count(tail, "\n")
		out = head + fmt.Sprintf("[… %s left out …]\n", words.Plural(omitted, "line", "lines")) + tail
	}
	r.Output, r.Lines = out, lines
}

// Pending is the runs waiting for the user's next message.
type Pending struct{ runs []*ShellRun }

// Add holds r for the next message.
func (p *Pending) Add(r *ShellRun) { p.runs = append(p.runs, r) }

// Len is how many runs wait.
func (p *Pending) Len() int { return len(p.runs) }

// Remove forgets r (it could not run).
func (p *Pending) Remove(r *ShellRun) {
	for i, x := range p.runs {
		if x == r {
			p.runs = append(p.runs[:i], p.runs[i+1:]...)
			return
		}
	}
}

// Running reports whether a run has not ended yet.
func (p *Pending) Running() bool {
	for _, r := range p.runs {
		if r.Running {
			return true
		}
	}
	return false
}

// Drop forgets the runs that have ended, and says how many there were.
func (p *Pending) Drop() int {
	kept := p.runs[:0]
	for _, r := range p.runs {
		if r.Running {
			kept = append(kept, r)
		}
	}
	n := len(p.runs) - len(kept)
	p.runs = kept
	return n
}

// AttachTo gives item the runs that have ended: the agent is sent them
// after the text the user typed, and the message shows a chip for each.
func (p *Pending) AttachTo(item *User) {
	var blocks []string
	kept := p.runs[:0]
	for _, r := range p.runs {
		if r.Running {
			kept = append(kept, r)
			continue
		}
		out := strings.TrimRight(r.Output, "\n")
		if out == "" {
			out = "(no output)"
		}
		blocks = append(blocks, fmt.Sprintf("<shell command=%q ended=%q>\n%s\n</shell>", r.Command, r.Ended, out))
		item.Chips = append(item.Chips, Chip{Text: r.chip()})
	}
	p.runs = kept
	if len(blocks) == 0 {
		return
	}
	if item.Input == nil {
		item.Input = &agent.Input{Text: item.Text}
	}
	if item.Input.Typed == "" {
		item.Input.Typed = item.Text
	}
	item.Input.Text += "\n\n(The user ran these commands in the terminal with \"!\" and attached their output.)\n" + strings.Join(blocks, "\n")
	item.Ver++
}

// chip is how a run shows on a row: "!go test · exit 1 · 20 lines".
func (r *ShellRun) chip() string {
	s := "!" + render.Clean(r.Command)
	if r.Running {
		return s + " · running…"
	}
	return s + " · " + r.Ended + " · " + words.Plural(r.Lines, "line", "lines")
}

// rows is how many rows the pending row takes: one while anything waits.
func (p *Pending) rows() int {
	if len(p.runs) == 0 {
		return 0
	}
	return 1
}

// draw draws the pending row at y: what goes with the next message, and
// that Esc drops it.
func (p *Pending) draw(screen tcell.Screen, th *theme.Theme, x, y, w int) {
	dim := tcell.StyleDefault.Foreground(th.Dim).Background(th.Background)
	render.Fill(screen, x, y, w, 1, dim)
	chips := make([]string, len(p.runs))
	for i, r := range p.runs {
		chips[i] = r.chip()
	}
	tail := " — sent with your next message · Esc drops it"
	if p.Running() {
		tail = " — sent with your next message once it ends · Esc stops it"
	}
	line := render.Line{
		{Text: "⎘ ", Style: dim.Foreground(th.Accent)},
		{Text: strings.Join(chips, ", "), Style: tcell.StyleDefault.Foreground(th.Foreground).Background(th.Background)},
		{Text: tail, Style: dim},
	}
	render.DrawLine(screen, x, y, w, render.TruncateLine(line, w))
}
