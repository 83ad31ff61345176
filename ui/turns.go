package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
)

// A turn from the App's side: a message submitted (a command, a new turn,
// or one queued while a turn runs), the turn's events followed into the
// router, its end, and Esc's cancelling; and a "!cmd" run, which holds
// the task as a turn does (the run itself and its record are chat's).

// typed handles what the user sent from the input: "!cmd" runs cmd in
// the terminal, "#note" notes it in an AGENTS.md, anything else is
// submitted. Only the input comes here: a custom command's text (a
// project's file) is submitted, and never runs a program.
func (t *Task) typed(text string) {
	switch {
	case strings.HasPrefix(text, "!"):
		t.runShell(text[1:])
	case strings.HasPrefix(text, "#"):
		t.list.ScrollToBottom()
		commands.Remember(t.app, text[1:])
	default:
		t.submit(text)
	}
}

// submit handles a message: a command, a new turn, or a queued message
// while a turn runs.
func (t *Task) submit(text string) {
	if name, args, ok := commands.Parse(text); ok {
		t.list.ScrollToBottom()
		cmd := t.app.commands.Find(name)
		if cmd == nil {
			msg := fmt.Sprintf("unknown command /%s — type / to see the commands", name)
			if t.app.commands.Known(name) {
				msg = fmt.Sprintf("/%s is not offered by this task's agent — type / to see the commands it offers", name)
			}
			t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: msg})
			return
		}
		cmd.Run(t.app, args)
		return
	}
	if strings.HasPrefix(strings.TrimSpace(text), "//") {
		text = strings.TrimSpace(text)[1:]
	}
	item := &chat.User{Text: text}
	t.list.Append(item)
	t.list.ScrollToBottom()
	if at := t.svc.Attach; at != nil {
		if ms := agent.MentionsIn(text); len(ms) > 0 {
			t.attachAndRun(at, item, ms)
			return
		}
	}
	t.send(item)
}

// prompt sends text to the agent as the user's message, shown (and kept
// as what the user typed) as shown: a command's own prompt (/init).
func (t *Task) prompt(shown, text string) {
	item := &chat.User{Text: shown, Input: &agent.Input{Text: text, Typed: shown}}
	t.list.Append(item)
	t.list.ScrollToBottom()
	t.send(item)
}

// send starts item's turn, or queues it behind the one running.
func (t *Task) send(item *chat.User) {
	if t.turnRunning() {
		item.Queued = true
		t.queued = append(t.queued, item)
		return
	}
	t.startTurn(item)
}

func (t *Task) startTurn(item *chat.User) {
	t.ended = panes.TaskIdle
	item.Queued = false
	item.Ver++
	t.chat.Pending.AttachTo(item) // the output of "!cmd" runs
	ctx, cancel := context.WithCancel(t.app.runCtx)
	t.turnCancel = cancel
	t.router.BeginTurn()
	var events <-chan agent.Event
	switch at := t.svc.Attach; {
	case at != nil && item.Input != nil:
		events = at.RunInput(ctx, *item.Input)
	case item.Input != nil:
		events = t.agent.Run(ctx, item.Input.Text)
	default:
		events = t.agent.Run(ctx, item.Text)
	}
	if bg := t.svc.Background; bg != nil {
		events = bg.Follow(ctx, events, item.Text, t.agent.Run) // a goal's judge and its next turns
	}
	t.follow(events, cancel)
}

// follow shows a turn's events as they arrive, until its stream closes.
func (t *Task) follow(events <-chan agent.Event, cancel context.CancelFunc) {
	if events == nil {
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "the agent did not start the turn (no event stream); try again, or restart fawn"})
		t.turnEnded(cancel)
		return
	}
	t.app.readers.Add(1)
	go func() {
		defer t.app.readers.Done()
		defer t.app.Recover()
		for ev := range events {
			ev := ev
			post := t.app.post
			if ev.Type == agent.EventText || ev.Type == agent.EventReasoning {
				post = t.app.postChat // only the chat and the status bar change
			}
			post(func() {
				t.router.Handle(ev)
				switch ev.Type {
				case agent.EventToolRunEnded:
					t.tracker.Refresh() // an edit or a command may have changed files
				case agent.EventTurnEnded:
					// The status says "idle" from here: "cancelling…" goes
					// with the same frame, not when the stream closes.
					t.app.status.Unflash(flashCancelling)
				}
			})
		}
		t.app.post(func() { t.turnEnded(cancel) })
	}()
}

// turnEnded runs when a turn's event channel closed.
func (t *Task) turnEnded(cancel context.CancelFunc) {
	cancel()
	if t.router.TurnActive {
		// The stream closed without EventTurnEnded: finish the turn anyway.
		t.router.Handle(agent.Event{Type: agent.EventTurnEnded})
	}
	t.turnCancel = nil
	t.ended = panes.TaskDone
	if t.router.LastError != "" {
		t.ended = panes.TaskFailed
	}
	t.attention = t.attention || !t.shown()
	if t.ended == panes.TaskFailed {
		t.flashUnseen("failed")
	} else if !t.router.Cancelled {
		t.flashUnseen("has finished")
	}
	t.app.status.Unflash(flashCancelling)
	t.recordWorkspace()
	t.tracker.Refresh()
	if !t.router.Cancelled {
		what := "the agent has finished"
		if t.router.LastError != "" {
			what = "the turn ended with an error"
		}
		t.app.attend(what)
	}
	if len(t.queued) > 0 {
		next := t.queued[0]
		t.queued = t.queued[1:]
		t.startTurn(next)
		return
	}
	t.list.Settle()
	t.app.releaseMemory()
}

// releaseMemory gives the memory a turn used and no longer needs back to
// the system, now that fawn waits for the user: Go's heap otherwise keeps
// room for twice what is live, and the resident size of a long session
// would grow by that room with every turn. A forced collection costs a
// few milliseconds, in the background, once per turn.
func (a *App) releaseMemory() {
	if !a.releasing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer a.releasing.Store(false)
		debug.FreeOSMemory()
	}()
}

// cancelTurn is Esc: cancel the running turn and put queued messages back
// into the input, so nothing typed is lost.
func (t *Task) cancelTurn() {
	if t.turnCancel == nil {
		return
	}
	t.router.Cancelled = true
	t.turnCancel()
	if len(t.queued) > 0 {
		var texts []string
		for _, q := range t.queued {
			t.list.Remove(q)
			texts = append(texts, q.Text)
		}
		t.queued = nil
		if cur := t.input.GetText(); cur != "" {
			texts = append(texts, cur)
		}
		t.input.SetText(strings.Join(texts, "\n"), true)
	}
	t.app.flash(flashCancelling)
}

// flashCancelling is shown from Esc until the turn has ended.
const flashCancelling = "cancelling…"

// attachAndRun resolves the mentions of item's text off the UI goroutine,
// then shows what was attached, opens the files in tabs, and starts the
// turn (or queues it).
func (t *Task) attachAndRun(at backend.Attacher, item *chat.User, ms []agent.Mention) {
	item.Attaching = true
	ctx := t.app.runCtx
	text := item.Text
	t.app.Go(func() {
		res := agent.ResolveMentions(ctx, at.Attach, ms)
		t.app.post(func() {
			item.Attaching = false
			item.Ver++
			in := agent.Input{Text: text, Typed: text}.WithMentions(t.root, res)
			seen := map[string]bool{}
			for _, r := range res {
				if r.Err != nil {
					if agent.LooksLikePath(r.Path) {
						item.Chips = append(item.Chips, chat.Chip{Text: render.Clean(r.Err.Error()), Err: true})
					}
					continue
				}
				if seen[r.Att.Path] {
					continue
				}
				seen[r.Att.Path] = true
				rel := render.RelPath(t.root, r.Att.Path)
				switch {
				case r.Att.Image != nil:
					item.Chips = append(item.Chips, chat.Chip{Text: rel + " · " + r.Att.Image.String()})
				case r.Att.Dir:
					item.Chips = append(item.Chips, chat.Chip{Text: strings.TrimSuffix(rel, "/") + "/ · listing"})
				default:
					what := chat.ViewedRange(r.Att.Viewed)
					if r.Att.About != "" {
						what = render.Clean(r.Att.About)
					}
					item.Chips = append(item.Chips, chat.Chip{Text: rel + " · " + what})
					if ed := t.EditorPane(); ed != nil && r.Att.Viewed != nil {
						ed.AgentViewed(*r.Att.Viewed)
					}
				}
			}
			if len(in.Images) > 0 && !at.AcceptsImages() {
				t.list.Remove(item)
				t.input.SetText(text, true)
				t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: fmt.Sprintf(
					"%s does not take images, so the message was not sent (it is back in the input): /model switches to a model that does, or set vision: yes for this model in the configuration if it does",
					t.agent.ModelName())})
				return
			}
			item.Input = &in
			if t.turnRunning() {
				item.Queued = true
				t.queued = append(t.queued, item)
				return
			}
			t.startTurn(item)
		})
	})
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
	runner, ok := t.terminal.(chat.ShellRunner)
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
	if notRun := run.End(res, err); notRun != "" {
		t.chat.Pending.Remove(run)
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: notRun})
	}
	t.app.RequestDraw()
	if len(t.queued) > 0 {
		next := t.queued[0]
		t.queued = t.queued[1:]
		t.startTurn(next)
	}
}

// escape is Esc in the chat's input: it cancels a running turn (or
// "!cmd"), drops the output of "!cmd" runs waiting for the next message;
// twice in a row on an empty input with nothing running, it opens
// /rewind.
func (a *App) escape() {
	if a.task.turnRunning() {
		a.task.cancelTurn()
		return
	}
	if n := a.task.chat.Pending.Drop(); n > 0 {
		a.flash(fmt.Sprintf("dropped: the output of %s will not be sent", words.Plural(n, "command", "commands")))
		return
	}
	now := time.Now()
	if a.task.input.GetText() == "" && now.Sub(a.task.lastEsc) < escEscWindow {
		a.task.lastEsc = time.Time{}
		if a.task.svc.Rewind != nil {
			a.PickRewind()
		}
		return
	}
	a.task.lastEsc = now
}

// escEscWindow is how quickly a second Esc must follow the first.
const escEscWindow = 600 * time.Millisecond
