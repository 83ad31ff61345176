package ui

import (
	"fmt"
	"strings"
)

// runningPane is a terminal pane that can name the programs running in
// it, which quitting would end (*termview.View).
type runningPane interface {
	Running() []string
	Title() string
}

// runningPrograms names what runs in every terminal, as "sleep (Terminal),
// vim (Terminal 2)"; "" when nothing does.
func (a *App) runningPrograms() string {
	var panes []TerminalPane
	for _, t := range a.tasks {
		panes = append(panes, t.terminal)
		for _, ut := range t.userTerms {
			panes = append(panes, ut.pane)
		}
	}
	var parts []string
	for _, p := range panes {
		r, ok := p.(runningPane)
		if !ok {
			continue
		}
		if names := r.Running(); len(names) > 0 {
			tab := r.Title()
			if name, _, ok := strings.Cut(tab, " — "); ok {
				tab = name
			}
			parts = append(parts, strings.Join(names, ", ")+" ("+tab+")")
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
