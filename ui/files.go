package ui

import (
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
)

// The file explorer (ui/explorer) sits at the left of the editor while it
// is shown. It is built the first time it is asked for, so it costs nothing
// at start-up; the paths changed before that are marked when it comes.

// explorerPane returns the explorer, building it on first use.
func (a *App) explorerPane() *explorer.Explorer {
	if a.task.explorer != nil {
		return a.task.explorer
	}
	a.task.explorer = explorer.New(a.task.root, a.th, a.keys.explorer, a.post, explorer.WithWatcher(a.task.opts.Watcher))
	a.task.explorer.OnOpen = func(path string) {
		if ed := a.task.EditorPane(); ed != nil {
			if err := ed.Open(path, 0); err != nil {
				a.flash("could not open " + render.RelPath(a.task.root, path) + ": " + err.Error())
				return
			}
			a.focusOn(panes.Editor)
		}
	}
	for _, p := range a.task.changedPaths {
		a.task.explorer.MarkChanged(p)
	}
	a.task.changedPaths = nil
	ex := a.task.explorer
	a.task.explorerFrame = newFrame(ex, &a.th, func() render.Line { return a.paneTitle("Files", ex) })
	a.layout.explorer = a.task.explorerFrame
	return ex
}

// toggleExplorer is Alt-X: show the explorer and focus it; focused, hide it.
func (a *App) toggleExplorer() {
	if a.task.root == "" {
		a.flash("no project directory to show")
		return
	}
	ex := a.explorerPane()
	switch {
	case !a.layout.explorerShown:
		a.layout.explorerShown = true
		a.focusOn(panes.Explorer)
	case ex.HasFocus():
		a.layout.explorerShown = false
		a.focusOn(panes.Editor)
	default:
		a.focusOn(panes.Explorer)
	}
}

// FileChanged marks a file the agent changed in the explorer.
func (t *Task) FileChanged(path string) {
	if t.explorer != nil {
		t.explorer.MarkChanged(path)
		return
	}
	if len(t.changedPaths) < 10_000 {
		t.changedPaths = append(t.changedPaths, path)
	}
}

// explorerFocused reports whether the explorer has the keyboard.
func (a *App) explorerFocused() bool { return a.task.explorer != nil && a.task.explorer.HasFocus() }
