package ui

import (
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/panes"
)

// AgentTerminal is the task's agent terminal tab, where a hosted agent's
// own commands show their output as it arrives: added to the strip beside
// the terminal on the first such command, and brought forward for each
// unless the user works in the strip.
func (t *Task) AgentTerminal() chat.AgentOutput {
	if t.agentTerm == nil {
		v := panes.NewAgentTerm(&t.app.th)
		t.agentTerm = v
		t.strip.AddTerminal(stripTab{pane: panes.Terminal, prim: v, title: v.Title})
	}
	if !t.strip.HasFocus() {
		t.strip.ShowPrim(t.agentTerm)
	}
	return t.agentTerm
}
