package ui

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/panes"
)

// The terminals the user opens beside the agent's (Alt-N): each belongs
// to a task, in its strip, and closes when its shell exits.

// userTerm is a terminal the user opened (Alt-N).
type userTerm struct {
	pane  TerminalPane
	close func()
}

// newTerminal opens another terminal in the strip, in the directory of
// the agent's, and focuses it.
func (a *App) newTerminal() {
	t := a.task
	if t.opts.NewTerminal == nil {
		a.flash("no other terminal can be started here")
		return
	}
	dir := t.root
	if t.opts.Cwd != nil {
		if d := t.opts.Cwd(); d != "" {
			dir = d
		}
	}
	t.termSeq++
	name := fmt.Sprintf("Terminal %d", t.termSeq+1)
	ut := &userTerm{}
	pane, closeFn, err := t.opts.NewTerminal(dir, name, func() { a.post(func() { t.closeTerminal(ut) }) })
	if err != nil {
		a.flash("cannot start another terminal: " + err.Error())
		return
	}
	ut.pane, ut.close = pane, closeFn
	t.userTerms = append(t.userTerms, ut)
	if tc, ok := pane.(interface{ SetOnCopy(func(string)) }); ok {
		tc.SetOnCopy(a.copy)
	}
	if tl, ok := pane.(interface{ SetOnLink(func(string)) }); ok {
		tl.SetOnLink(a.openLink)
	}
	title := func() string { return name }
	if tt, ok := pane.(interface{ Title() string }); ok {
		title = tt.Title
	}
	t.strip.AddTerminal(stripTab{pane: panes.Terminal, prim: pane, title: title})
	if a.layout.zoomed && a.layout.pane(a.layout.zoomPane) != a.layout.strip {
		a.layout.zoomed = false
	}
	t.strip.ShowPrim(pane)
	a.setFocus(pane)
	a.focusPane = panes.Terminal
	a.flash(name + " in " + dir + ": exit (or Ctrl-D) closes it; the agent keeps its own")
}

// closeTerminal closes a terminal the user opened, whose shell exited.
func (t *Task) closeTerminal(ut *userTerm) {
	i := slices.Index(t.userTerms, ut)
	if i < 0 {
		return
	}
	t.userTerms = slices.Delete(t.userTerms, i, i+1)
	focused := ut.pane.HasFocus()
	t.strip.Remove(ut.pane)
	t.app.Go(ut.close)
	if focused && t.shown() {
		t.app.focusOn(panes.Terminal)
	}
}

// closeTasks closes every task's terminals and what was started for the
// tasks opened with /task new (fawn is quitting), all at once.
func (a *App) closeTasks() {
	var wg sync.WaitGroup
	for _, t := range a.tasks {
		for _, ut := range t.userTerms {
			wg.Add(1)
			go func() { defer wg.Done(); ut.close() }()
		}
		t.userTerms = nil
		if c := t.opts.Close; c != nil {
			t.opts.Close = nil
			wg.Add(1)
			go func() { defer wg.Done(); c() }()
		}
	}
	wg.Wait()
}

// keyCapturer is a pane that takes keys ahead of the global table while it
// has focus (the terminal: every key goes to its program but an escape
// key). CaptureKey reports whether it took ev; when it did not, the key is
// handled as usual.
type keyCapturer interface {
	CaptureKey(ev *tcell.EventKey) bool
}

// captured gives ev to the focused pane first when that pane captures
// keys and no dialog or help is open; it reports whether the pane took it.
func (a *App) captured(ev *tcell.EventKey) bool {
	c, ok := a.focus.(keyCapturer)
	if !ok || a.layout.TooSmall() || a.layout.modalOverlay() != nil || !a.focus.HasFocus() {
		return false
	}
	if !c.CaptureKey(ev) {
		return false
	}
	if a.focusPane == panes.Terminal {
		a.task.strip.Touch()
	}
	return true
}

// keyHint is the status bar's reminder of the help and quit keys; while
// a pane that captures keys has focus, they follow its escape key.
func (a *App) keyHint() string {
	if e, ok := a.focus.(interface{ EscapeKey() string }); ok && a.focus.HasFocus() {
		if k := e.EscapeKey(); k != "" {
			return k + " F1 help · " + k + " Ctrl-Q quit"
		}
	}
	return "F1 help · Ctrl-Q quit"
}

// runningPane is a terminal pane that can name the programs running in
// it, which quitting would end (*termview.View).
type runningPane interface {
	Running() []string
	Title() string
}

// runningPrograms names what runs in every terminal, as "sleep (Terminal),
// vim (Terminal 2)"; "" when nothing does.
func (a *App) runningPrograms() string {
	var parts []string
	for _, t := range a.tasks {
		panes := []TerminalPane{t.terminal}
		for _, ut := range t.userTerms {
			panes = append(panes, ut.pane)
		}
		for _, p := range panes {
			r, ok := p.(runningPane)
			if !ok {
				continue
			}
			if names := r.Running(); len(names) > 0 {
				// The tab's name, without what the title adds after it
				// (the sandbox's state, the program running).
				tab := r.Title()
				for _, sep := range []string{" — ", " · "} {
					tab, _, _ = strings.Cut(tab, sep)
				}
				if len(a.tasks) > 1 && t.name != "" {
					tab += " of task " + t.name
				}
				parts = append(parts, strings.Join(names, ", ")+" ("+tab+")")
			}
		}
	}
	return strings.Join(parts, "; ")
}

// quitQuestion is what quitting would lose, as the confirm box asks it:
// the programs running in the terminals and the unsaved files (names
// relative to the project).
func quitQuestion(running string, unsaved []string) (title, text string) {
	var b strings.Builder
	if running != "" {
		title = "Programs are running"
		fmt.Fprintf(&b, "Quitting ends what runs in the terminals: %s.", running)
	}
	if len(unsaved) > 0 {
		title = "Unsaved changes"
		what := "1 file has"
		if len(unsaved) > 1 {
			what = fmt.Sprintf("%d files have", len(unsaved))
		}
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s unsaved changes: %s.", what, strings.Join(unsaved, ", "))
	}
	return title, b.String()
}

// ShowTerminal adds pane, a terminal fawn started for the agent of the
// task whose terminal is beside (its own bash, when the user replaced that
// terminal's shell with exec), as a tab after that task's others, without
// taking the focus. Quitting asks about what runs in it like the user's
// terminals; its owner closes it. Safe from any goroutine.
func (a *App) ShowTerminal(beside, pane TerminalPane) {
	a.post(func() {
		i := slices.IndexFunc(a.tasks, func(t *Task) bool { return t.terminal == beside })
		if i < 0 {
			return // the task closed meanwhile
		}
		t := a.tasks[i]
		t.userTerms = append(t.userTerms, &userTerm{pane: pane, close: func() {}})
		if tc, ok := pane.(interface{ SetOnCopy(func(string)) }); ok {
			tc.SetOnCopy(a.copy)
		}
		if tl, ok := pane.(interface{ SetOnLink(func(string)) }); ok {
			tl.SetOnLink(a.openLink)
		}
		title := func() string { return "Terminal" }
		if tt, ok := pane.(interface{ Title() string }); ok {
			title = tt.Title
		}
		t.strip.AddTerminal(stripTab{pane: panes.Terminal, prim: pane, title: title})
		if !t.strip.HasFocus() {
			t.strip.ShowPrim(pane) // not under the user working in another tab
		}
	})
}
