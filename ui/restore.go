package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/sessions"
)

// transcriptItems are the chat items of a saved session: the user's
// messages, the answers (reasoning folded), a card per tool call with its
// result, compactions and the errors turns ended with.
func (a *App) transcriptItems(l *session.Log) []chatItem {
	results := map[string]*session.Message{}
	for _, e := range l.Transcript {
		if m := e.Message; m != nil && m.Role == "tool" {
			results[m.ToolCallID] = m
		}
	}
	reg := a.task.router.reg
	var items []chatItem
	for _, e := range l.Transcript {
		switch {
		case e.Message != nil:
			m := e.Message
			switch m.Role {
			case "user":
				text := m.Text()
				if strings.HasPrefix(text, "(fawn: the images the tool calls above returned") {
					continue // fawn's own, shown on the cards already
				}
				u := &userItem{text: text}
				for _, p := range m.Parts {
					if p.Type == "image" {
						u.chips = append(u.chips, chip{text: "image " + strings.TrimPrefix(p.MIME, "image/")})
					}
				}
				items = append(items, u)
			case "assistant":
				if r := strings.TrimSpace(m.Reasoning); r != "" {
					ri := &reasoningItem{done: true}
					ri.text.WriteString(r)
					items = append(items, ri)
				}
				if strings.TrimSpace(m.Content) != "" {
					ai := &assistantItem{}
					ai.append(m.Content)
					items = append(items, ai)
				}
				for _, tc := range m.ToolCalls {
					items = append(items, a.restoredCard(reg, tc, results[tc.ID]))
				}
			}
		case e.Record != nil && e.Record.Type == session.TypeCompact:
			items = append(items, newCompactItem(e.Record.Reason, e.Record.Focus, e.Record.Summary, e.Record.TokensBefore, e.Record.TokensAfter, nil, nil))
		case e.Record != nil && e.Record.Type == session.TypeTurn && e.Record.Error != "":
			kind := noticeError
			if strings.Contains(e.Record.Error, agent.ErrCancelled.Error()) {
				kind = noticeCancel
			}
			text := e.Record.Error
			if kind == noticeCancel {
				text = "cancelled"
			}
			items = append(items, &noticeItem{kind: kind, text: text})
		}
	}
	return items
}

// restoredCard is the card of a call of a saved session, as it ended.
func (a *App) restoredCard(reg *Registry, tc session.ToolCall, res *session.Message) *Card {
	c := newCard(tc.ID, tc.Name, reg.Lookup(tc.Name))
	c.handle(agent.Event{Type: agent.EventToolCallReady, ID: tc.ID, Name: tc.Name, Args: tc.Arguments})
	if res == nil {
		c.cancel()
		return c
	}
	result := res.Text()
	c.handle(agent.Event{Type: agent.EventToolRunEnded, ID: tc.ID, Name: tc.Name, Result: result, IsError: strings.HasPrefix(result, "error")})
	if tc.Name == "bash" {
		c.exit = savedExitCode(result)
	}
	if c.Kind.Drives == PaneEditor {
		if path := c.arg("path"); path != "" {
			c.jump = func() {
				if ed := a.task.editorPane(); ed != nil {
					_ = ed.Open(path, 0)
				}
				a.task.jumpTo(PaneEditor)
			}
		}
	}
	return c
}

// savedExitCode is the exit status of a command of a saved session, or nil.
// A session keeps only what the model saw, so it is read back from the
// last "exit code N" of the result's closing line; a live card has it from
// the command's CommandDone.
func savedExitCode(result string) *int {
	i := strings.LastIndex(result, "exit code ")
	if i < 0 {
		return nil
	}
	rest := result[i+len("exit code "):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return nil
	}
	return &n
}

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
	for _, it := range a.transcriptItems(l) {
		a.task.list.Append(it)
	}
	a.task.router.resetUsage()
	a.task.todos.SetItems(a.task.agent.Todos())
	a.task.noteChanges()
	id := l.Info.ID
	if k := a.task.svc.Sessions; k != nil {
		id = k.ID() // a copy of a session another fawn has open carries on under a new ID
	}
	what := fmt.Sprintf("resumed session %s: %s, %s", sessionID(id), render.Plural(l.Info.Messages, "message", "messages"), sessions.Age(l.Info.Updated, time.Now()))
	if l.Info.Title != "" {
		what = fmt.Sprintf("resumed %q (session %s, %s, last used %s)", render.Clean(l.Info.Title), sessionID(id), render.Plural(l.Info.Messages, "message", "messages"), sessions.Age(l.Info.Updated, time.Now()))
	}
	a.task.list.Append(&noticeItem{kind: noticeInfo, text: what})
	for _, n := range res.Notes {
		a.task.list.Append(&noticeItem{kind: noticeInfo, text: n})
	}
	if ws := l.Workspace; ws != nil {
		if ed, ok := a.task.editor.(tabbedEditor); ok && len(ws.Tabs) > 0 {
			states := make([]editor.TabState, len(ws.Tabs))
			for i, t := range ws.Tabs {
				states[i] = editor.TabState{Path: t.Path, Line: t.Line, Col: t.Col, Active: t.Active}
			}
			if missing := ed.RestoreTabs(states); len(missing) > 0 {
				a.task.list.Append(&noticeItem{kind: noticeInfo, text: "not reopened (no longer there): " + strings.Join(missing, ", ")})
			}
		}
		if ws.Cwd != "" && a.task.opts.Chdir != nil {
			a.task.opts.Chdir(ws.Cwd)
		}
	}
	a.task.list.ScrollToBottom()
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
