package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/sessions"
)

// tabbedEditor is an editor whose tabs a session keeps (*editor.Tabs).
type tabbedEditor interface {
	TabStates() []editor.TabState
	RestoreTabs(states []editor.TabState) (missing []string)
}

// sessionID is the short form of a session's ID shown to the user.
func sessionID(id string) string { return id[:min(8, len(id))] }

func (t *Task) keeper() (backend.SessionKeeper, bool) {
	k := t.svc.Sessions
	if k == nil || k.Store() == nil {
		return nil, false
	}
	return k, true
}

// restore shows a resumed session: its chat, to-dos, editor tabs and the
// terminal's directory, and what the user should know about it.
func (a *App) restore(res *agent.Resumed) {
	l := res.Log
	a.task.list.Clear()
	for _, it := range a.task.transcript(l) {
		a.task.list.Append(it)
	}
	// A long session's chat shows its last entries first; the rest is
	// put above them once the first frame is out.
	chat.Backfill(a, a.task.list, a.task.router.Reg, l, cardOpener(a.task), backfilled(a.task.list, l.Warnings))
	a.task.router.ResetUsage()
	a.task.todos.SetItems(a.task.agent.Todos())
	a.task.tracker.Refresh()
	id := l.Info.ID
	if k := a.task.svc.Sessions; k != nil {
		id = k.ID() // a copy of a session another fawn has open carries on under a new ID
	}
	what := fmt.Sprintf("resumed session %s: %s, %s", sessionID(id), words.Plural(l.Info.Messages, "message", "messages"), sessions.Age(l.Info.Updated, time.Now()))
	if l.Info.Title != "" {
		what = fmt.Sprintf("resumed %q (session %s, %s, last used %s)", render.Clean(l.Info.Title), sessionID(id), words.Plural(l.Info.Messages, "message", "messages"), sessions.Age(l.Info.Updated, time.Now()))
	}
	a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: what})
	for _, n := range res.Notes {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: n})
	}
	if ws := l.Workspace; ws != nil {
		if ed, ok := a.task.editor.(tabbedEditor); ok && len(ws.Tabs) > 0 {
			states := make([]editor.TabState, len(ws.Tabs))
			for i, t := range ws.Tabs {
				states[i] = editor.TabState{Path: t.Path, Line: t.Line, Col: t.Col, Active: t.Active}
			}
			if missing := ed.RestoreTabs(states); len(missing) > 0 {
				a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: "not reopened (no longer there): " + strings.Join(missing, ", ")})
			}
		}
		if ws.Cwd != "" && a.task.opts.Chdir != nil {
			a.task.opts.Chdir(ws.Cwd)
		}
	}
	a.task.list.ScrollToBottom()
}

// cardOpener opens the file of a card of an edit of a saved session in
// t's editor.
func cardOpener(t *Task) func(path string) {
	return func(path string) {
		if ed := t.EditorPane(); ed != nil {
			_ = ed.Open(path, 0)
		}
		t.JumpTo(panes.Editor)
	}
}

// backfilled says what reading a session whole found beyond the warnings
// shown when it was resumed (a damaged line in its older part).
func backfilled(list *chat.MessageList, shown []string) func(full *session.Log, ok bool) {
	return func(full *session.Log, _ bool) {
		for _, w := range full.Warnings {
			if !slices.Contains(shown, w) {
				list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: w})
			}
		}
	}
}

// recordWorkspace keeps the open tabs and the terminal's directory in the
// session (off the UI goroutine: it syncs the file).
func (t *Task) recordWorkspace() {
	k, ok := t.keeper()
	if !ok {
		return
	}
	ws := t.workspaceState()
	t.app.Go(func() { k.RecordWorkspace(ws) })
}

func (t *Task) workspaceState() session.Workspace {
	var ws session.Workspace
	if ed, ok := t.editor.(tabbedEditor); ok {
		for _, tab := range ed.TabStates() {
			ws.Tabs = append(ws.Tabs, session.Tab{Path: tab.Path, Line: tab.Line, Col: tab.Col, Active: tab.Active})
		}
	}
	if t.opts.Cwd != nil {
		ws.Cwd = t.opts.Cwd()
	}
	return ws
}

// reloadChat shows the task's conversation as its session holds it on
// disk (after /rewind took it back). It is read as a resume reads it: the
// last entries at once, the older ones put above them after the next frame
// (a whole read of an all-day session would hold the screen still).
func (t *Task) reloadChat() {
	k, ok := t.keeper()
	if !ok {
		return
	}
	l, err := k.Store().LoadLazy(k.ID())
	if err != nil {
		t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "could not reload the chat: " + err.Error()})
		return
	}
	t.list.Clear()
	for _, it := range t.transcript(l) {
		t.list.Append(it)
	}
	chat.Backfill(t.app, t.list, t.router.Reg, l, cardOpener(t), nil)
	t.todos.SetItems(t.agent.Todos())
	t.tracker.Refresh()
	t.list.ScrollToBottom()
}
