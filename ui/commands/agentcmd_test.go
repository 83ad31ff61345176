package commands

import (
	"testing"

	"github.com/fawn-ide/fawn/backend"
)

type agentCmds []backend.AgentCommand

func (a agentCmds) AgentCommands() []backend.AgentCommand { return a }

// submitHost is a Host that records what is submitted (nothing else of it
// is called).
type submitHost struct {
	Host
	sent []string
}

func (h *submitHost) Submit(text string) { h.sent = append(h.sent, text) }

// The agent's own slash commands complete beside fawn's and run by
// sending "/name input" to the agent; a command fawn offers under the same
// name is fawn's, one it does not offer is the agent's.
func TestAgentCommandsComplete(t *testing.T) {
	c := New()
	c.Add(Command{Name: "clear", Run: func(Host, string) {}})
	c.Add(Command{Name: "compact", Run: func(Host, string) {}, Needs: func(s backend.Services) bool { return s.Compact != nil }})
	svc := backend.Services{AgentCommands: agentCmds{
		{Name: "review", Description: "Review the changes", Hint: "what"},
		{Name: "clear", Description: "the agent's clear"},
		{Name: "compact", Description: "the agent's compact"},
	}}
	c.SetServices(func() backend.Services { return svc })

	m := c.Match("rev")
	if len(m) != 1 || m[0].Name != "review" || m[0].Args != "[what]" || m[0].Help != "Review the changes (the agent's)" {
		t.Fatalf("Match(rev) = %+v", m)
	}
	h := &submitHost{}
	c.Find("review").Run(h, "the diff")
	c.Find("compact").Run(h, "")
	if len(h.sent) != 2 || h.sent[0] != "//review the diff" || h.sent[1] != "//compact" {
		t.Errorf("sent %q", h.sent)
	}
	if cmd := c.Find("clear"); cmd == nil || cmd.Help != "" {
		t.Errorf("fawn's /clear is shadowed by the agent's: %+v", cmd)
	}
	n := 0
	for _, cmd := range c.All() {
		if cmd.Name == "clear" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("/clear listed %d times", n)
	}
}
