package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/services"
	"github.com/fawn-ide/fawn/ui/sessions"
)

// tabbedEditor is an editor whose tabs a session keeps (*editor.Tabs).
type tabbedEditor interface {
	TabStates() []editor.TabState
	RestoreTabs(states []editor.TabState) (missing []string)
}

func (a *App) keeper() (services.SessionKeeper, bool) {
	k := a.opts.Services.Sessions
	if k == nil || k.Store() == nil {
		return nil, false
	}
	return k, true
}

// addSessionCommands registers /resume, /new and /export.
func (a *App) addSessionCommands() {
	a.commands.Add(commands.Command{Name: "resume", Args: "[id]", Help: "Resume a saved session of this project (a picker, or by ID)", Run: func(_ commands.Host, args string) {
		k, ok := a.keeper()
		if !ok {
			a.list.Append(&noticeItem{kind: noticeError, text: "sessions are not kept (fawn has no data directory)"})
			return
		}
		if a.turnRunning() {
			a.list.Append(&noticeItem{kind: noticeError, text: "a turn is running — press Esc to cancel it, then /resume"})
			return
		}
		if args != "" {
			a.resumeSession(k, args)
			return
		}
		a.pickSession(k)
	}})
	a.commands.Add(commands.Command{Name: "new", Help: "Start a new session (this one is kept: /resume brings it back)", Run: func(_ commands.Host, _ string) {
		if a.turnRunning() {
			a.list.Append(&noticeItem{kind: noticeError, text: "a turn is running — press Esc to cancel it, then /new"})
			return
		}
		k, ok := a.keeper()
		if !ok {
			a.opts.Agent.Clear()
		} else {
			a.recordWorkspace()
			old := k.ID()
			k.NewConversation(false)
			defer a.list.Append(&noticeItem{kind: noticeInfo, text: fmt.Sprintf("new session %s — the last one (%s) is kept: /resume brings it back", short(k.ID()), short(old))})
		}
		a.list.Clear()
		a.router.resetUsage()
		a.todos.SetItems(a.opts.Agent.Todos())
		a.noteChanges()
	}})
	a.commands.Add(commands.Command{Name: "export", Args: "[file]", Help: "Write this session as Markdown (default: fawn-session-ID.md in the project)", Run: func(_ commands.Host, args string) {
		k, ok := a.keeper()
		if !ok {
			a.list.Append(&noticeItem{kind: noticeError, text: "sessions are not kept (fawn has no data directory)"})
			return
		}
		a.exportSession(k, args)
	}})
}

func short(id string) string { return id[:min(8, len(id))] }

// pickSession opens the /resume picker.
func (a *App) pickSession(k services.SessionKeeper) {
	p := picker.New(&a.th, "Resume a session", nil)
	p.SetLoading(true)
	a.openPicker(p)
	a.Go(func() {
		infos, err := k.Sessions()
		a.post(func() {
			p.SetItems(sessions.Items(infos, k.ID(), time.Now()))
			p.SetLoading(false)
			switch {
			case err != nil:
				p.SetNote(clean(err.Error()))
			case len(infos) == 0:
				p.SetNote("no saved sessions of this project yet")
			}
		})
	})
	p.OnPick = func(it picker.Item) {
		in := it.Value.(session.Info)
		if in.ID == k.ID() {
			a.flash("that is the session in use")
			return
		}
		a.resumeSession(k, in.ID)
	}
}

// resumeSession loads session id off the UI goroutine, then shows it.
func (a *App) resumeSession(k services.SessionKeeper, id string) {
	a.recordWorkspace()
	a.flash("resuming…")
	a.Go(func() {
		res, err := k.Resume(id)
		a.post(func() {
			if err != nil {
				a.list.Append(&noticeItem{kind: noticeError, text: "could not resume: " + err.Error()})
				return
			}
			a.restore(res)
		})
	})
}

// restore shows a resumed session: its chat, to-dos, editor tabs and the
// terminal's directory, and what the user should know about it.
func (a *App) restore(res *agent.Resumed) {
	l := res.Log
	a.list.Clear()
	for _, it := range a.transcriptItems(l) {
		a.list.Append(it)
	}
	a.router.resetUsage()
	a.todos.SetItems(a.opts.Agent.Todos())
	a.noteChanges()
	id := l.Info.ID
	if k := a.opts.Services.Sessions; k != nil {
		id = k.ID() // a copy of a session another fawn has open carries on under a new ID
	}
	what := fmt.Sprintf("resumed session %s: %s, %s", short(id), plural(l.Info.Messages, "message", "messages"), sessions.Age(l.Info.Updated, time.Now()))
	if l.Info.Title != "" {
		what = fmt.Sprintf("resumed %q (session %s, %s, last used %s)", clean(l.Info.Title), short(id), plural(l.Info.Messages, "message", "messages"), sessions.Age(l.Info.Updated, time.Now()))
	}
	a.list.Append(&noticeItem{kind: noticeInfo, text: what})
	for _, n := range res.Notes {
		a.list.Append(&noticeItem{kind: noticeInfo, text: n})
	}
	if ws := l.Workspace; ws != nil {
		if ed, ok := a.editor.(tabbedEditor); ok && len(ws.Tabs) > 0 {
			states := make([]editor.TabState, len(ws.Tabs))
			for i, t := range ws.Tabs {
				states[i] = editor.TabState{Path: t.Path, Line: t.Line, Col: t.Col, Active: t.Active}
			}
			if missing := ed.RestoreTabs(states); len(missing) > 0 {
				a.list.Append(&noticeItem{kind: noticeInfo, text: "not reopened (no longer there): " + strings.Join(missing, ", ")})
			}
		}
		if ws.Cwd != "" && a.opts.Chdir != nil {
			a.opts.Chdir(ws.Cwd)
		}
	}
	a.list.ScrollToBottom()
}

// recordWorkspace keeps the open tabs and the terminal's directory in the
// session (off the UI goroutine: it syncs the file).
func (a *App) recordWorkspace() {
	k, ok := a.keeper()
	if !ok {
		return
	}
	ws := a.workspaceState()
	a.Go(func() { k.RecordWorkspace(ws) })
}

func (a *App) workspaceState() session.Workspace {
	var ws session.Workspace
	if ed, ok := a.editor.(tabbedEditor); ok {
		for _, t := range ed.TabStates() {
			ws.Tabs = append(ws.Tabs, session.Tab{Path: t.Path, Line: t.Line, Col: t.Col, Active: t.Active})
		}
	}
	if a.opts.Cwd != nil {
		ws.Cwd = a.opts.Cwd()
	}
	return ws
}

// exportSession writes the session as Markdown to file (relative to the
// project), asking before it replaces a file.
func (a *App) exportSession(k services.SessionKeeper, file string) {
	id := k.ID()
	if file == "" {
		file = "fawn-session-" + short(id) + ".md"
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(a.opts.Root, file)
	}
	write := func() {
		a.Go(func() {
			err := writeExport(k.Store(), id, file)
			a.post(func() {
				if err != nil {
					a.list.Append(&noticeItem{kind: noticeError, text: "could not export: " + err.Error()})
					return
				}
				a.list.Append(&noticeItem{kind: noticeInfo, text: "wrote the session as Markdown to " + relPath(a.opts.Root, file)})
			})
		})
	}
	if _, err := os.Stat(file); err == nil {
		a.ask.ask("Export", relPath(a.opts.Root, file)+" exists.",
			choice{key: "o", label: "overwrite it", do: write},
			choice{key: "esc", label: "keep it", do: func() {}})
		return
	}
	write()
}

func writeExport(st *session.Store, id, file string) error {
	l, err := st.Load(id)
	if errors.Is(err, session.ErrNotFound) {
		return errors.New("nothing to export yet: the session has no messages")
	}
	if err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	err = session.WriteMarkdown(f, l)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// todosOf converts a session's to-dos.
func todosOf(items []session.Todo) []tools.Todo {
	out := make([]tools.Todo, len(items))
	for i, t := range items {
		out[i] = tools.Todo{ID: t.ID, Title: t.Title, Status: t.Status, Priority: t.Priority}
	}
	return out
}
