package ui

import (
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/render"
)

// The file explorer (ui/explorer) sits at the left of the editor while it
// is shown. It is built the first time it is asked for, so it costs nothing
// at start-up; the paths changed before that are marked when it comes.

// explorerPane returns the explorer, building it on first use.
func (a *App) explorerPane() *explorer.Explorer {
	if a.explorer != nil {
		return a.explorer
	}
	a.explorer = explorer.New(a.opts.Root, a.th, a.keys.explorer, a.post, explorer.WithWatcher(a.opts.Watcher))
	a.explorer.OnOpen = func(path string) {
		if ed := a.editorPane(); ed != nil {
			if err := ed.Open(path, 0); err != nil {
				a.flash("could not open " + relPath(a.opts.Root, path) + ": " + err.Error())
				return
			}
			a.focusOn(PaneEditor)
		}
	}
	for _, p := range a.changedPaths {
		a.explorer.MarkChanged(p)
	}
	a.changedPaths = nil
	a.layout.explorer = newFrame(a.explorer, &a.th, func() render.Line { return a.paneTitle("Files", a.explorer) })
	return a.explorer
}

// toggleExplorer is Alt-X: show the explorer and focus it; focused, hide it.
func (a *App) toggleExplorer() {
	if a.opts.Root == "" {
		a.flash("no project directory to show")
		return
	}
	ex := a.explorerPane()
	switch {
	case !a.layout.explorerShown:
		a.layout.explorerShown = true
		a.focusOn(PaneExplorer)
	case ex.HasFocus():
		a.layout.explorerShown = false
		a.focusOn(PaneEditor)
	default:
		a.focusOn(PaneExplorer)
	}
}

// fileChanged marks a file the agent changed in the explorer.
func (a *App) fileChanged(path string) {
	if a.explorer != nil {
		a.explorer.MarkChanged(path)
		return
	}
	if len(a.changedPaths) < 10_000 {
		a.changedPaths = append(a.changedPaths, path)
	}
}

// explorerFocused reports whether the explorer has the keyboard.
func (a *App) explorerFocused() bool { return a.explorer != nil && a.explorer.HasFocus() }
