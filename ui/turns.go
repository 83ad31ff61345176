package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/commands"
)

// A turn from the App's side: a message submitted (a command, a new turn,
// or one queued while a turn runs), the turn's events followed into the
// router, its end, and Esc's cancelling.

func (a *App) turnRunning() bool { return a.task.turnCancel != nil }

// submit handles a message from the input: a command, a new turn, or a
// queued message while a turn runs.
func (a *App) submit(text string) {
	if name, args, ok := commands.Parse(text); ok {
		a.task.list.ScrollToBottom()
		cmd := a.commands.Find(name)
		if cmd == nil {
			a.task.list.Append(&noticeItem{kind: noticeError, text: fmt.Sprintf("unknown command /%s — type / to see the commands", name)})
			return
		}
		cmd.Run(a, args)
		return
	}
	if strings.HasPrefix(strings.TrimSpace(text), "//") {
		text = strings.TrimSpace(text)[1:]
	}
	item := &userItem{text: text}
	a.task.list.Append(item)
	a.task.list.ScrollToBottom()
	if at := a.task.svc.Attach; at != nil {
		if ms := mentionsIn(text); len(ms) > 0 {
			a.attachAndRun(at, item, ms)
			return
		}
	}
	if a.turnRunning() {
		item.queued = true
		a.task.queued = append(a.task.queued, item)
		return
	}
	a.startTurn(item)
}

func (a *App) startTurn(item *userItem) {
	item.queued = false
	item.ver++
	ctx, cancel := context.WithCancel(a.runCtx)
	a.task.turnCancel = cancel
	a.task.router.beginTurn()
	var events <-chan agent.Event
	if at := a.task.svc.Attach; at != nil && item.input != nil {
		events = at.RunInput(ctx, *item.input)
	} else {
		events = a.task.agent.Run(ctx, item.text)
	}
	a.follow(events, cancel)
}

// follow shows a turn's events as they arrive, until its stream closes.
func (a *App) follow(events <-chan agent.Event, cancel context.CancelFunc) {
	if events == nil {
		a.task.list.Append(&noticeItem{kind: noticeError, text: "the agent did not start the turn (no event stream); try again, or restart fawn"})
		a.turnEnded(cancel)
		return
	}
	a.readers.Add(1)
	go func() {
		defer a.readers.Done()
		defer a.Recover()
		for ev := range events {
			ev := ev
			post := a.post
			if ev.Type == agent.EventText || ev.Type == agent.EventReasoning {
				post = a.postChat // only the chat and the status bar change
			}
			post(func() {
				a.task.router.Handle(ev)
				switch ev.Type {
				case agent.EventToolRunEnded:
					a.noteChanges() // an edit or a command may have changed files
				case agent.EventTurnEnded:
					// The status says "idle" from here: "cancelling…" goes
					// with the same frame, not when the stream closes.
					a.status.Unflash(flashCancelling)
				}
			})
		}
		a.post(func() { a.turnEnded(cancel) })
	}()
}

// turnEnded runs when a turn's event channel closed.
func (a *App) turnEnded(cancel context.CancelFunc) {
	cancel()
	if a.task.router.turnActive {
		// The stream closed without EventTurnEnded: finish the turn anyway.
		a.task.router.Handle(agent.Event{Type: agent.EventTurnEnded})
	}
	a.task.turnCancel = nil
	a.status.Unflash(flashCancelling)
	a.recordWorkspace()
	a.noteChanges()
	if !a.task.router.cancelled {
		what := "the agent has finished"
		if a.task.router.lastError != "" {
			what = "the turn ended with an error"
		}
		a.attend(what)
	}
	if len(a.task.queued) > 0 {
		next := a.task.queued[0]
		a.task.queued = a.task.queued[1:]
		a.startTurn(next)
		return
	}
	a.task.list.Settle()
	a.releaseMemory()
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
func (a *App) cancelTurn() {
	if a.task.turnCancel == nil {
		return
	}
	a.task.router.cancelled = true
	a.task.turnCancel()
	if len(a.task.queued) > 0 {
		var texts []string
		for _, q := range a.task.queued {
			a.task.list.Remove(q)
			texts = append(texts, q.text)
		}
		a.task.queued = nil
		if cur := a.task.input.GetText(); cur != "" {
			texts = append(texts, cur)
		}
		a.task.input.SetText(strings.Join(texts, "\n"), true)
	}
	a.flash(flashCancelling)
}

// flashCancelling is shown from Esc until the turn has ended.
const flashCancelling = "cancelling…"
