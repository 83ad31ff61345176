package ui

import "github.com/fawn-ide/fawn/ui/panes"

// ShowTerminal adds pane, a terminal fawn started for the agent of the
// first task (its own bash, when the user replaced the terminal's shell
// with exec), as a tab after that task's others, without taking the
// focus. Quitting asks about what runs in it like the user's terminals;
// its owner closes it. Safe from any goroutine.
func (a *App) ShowTerminal(pane TerminalPane) {
	a.post(func() {
		if len(a.tasks) == 0 {
			return
		}
		t := a.tasks[0]
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
