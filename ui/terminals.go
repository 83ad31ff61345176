package ui

import (
	"fmt"
	"slices"
	"sync"

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
