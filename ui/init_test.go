package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// /init asks the agent, in a turn, to write or update AGENTS.md from the
// project; the chat shows "/init" as the message.
func TestInitAsksForAGENTSmd(t *testing.T) {
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.typeText("/init mention the e2e tests")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the turn", func() bool { return len(ag.promptList()) == 1 })
	p := ag.promptList()[0]
	for _, want := range []string{"Write or update the file AGENTS.md", "build, lint and test", "If AGENTS.md exists, improve it", "The user adds: mention the e2e tests"} {
		if !strings.Contains(p, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, p)
		}
	}
	r.waitScreen("› /init mention the e2e tests")
	if s := r.text(); strings.Contains(s, "Write or update the file") {
		t.Errorf("the chat shows the whole prompt:\n%s", s)
	}
}
