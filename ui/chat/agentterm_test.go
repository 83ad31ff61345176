package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
)

// recordingOutput is an agent terminal tab that records what it is told.
type recordingOutput struct{ log []string }

func (r *recordingOutput) Command(id, command string) {
	r.log = append(r.log, fmt.Sprintf("command %s %s", id, command))
}
func (r *recordingOutput) Output(id, text string) {
	r.log = append(r.log, fmt.Sprintf("output %s %q", id, text))
}
func (r *recordingOutput) Ended(id string, failed bool) {
	r.log = append(r.log, fmt.Sprintf("ended %s %v", id, failed))
}

type agentTermWorkspace struct {
	noWorkspace
	out *recordingOutput
}

func (w agentTermWorkspace) AgentTerminal() AgentOutput { return w.out }

// A hosted agent's own command (execute) writes its command line, its
// output as it arrives and its end into the agent terminal tab, besides
// its card; fawn's own bash does not.
func TestExecuteDrivesTheAgentTerminal(t *testing.T) {
	h := newHarness()
	out := &recordingOutput{}
	h.router = NewRouter(NewRegistry(), h.list, agentTermWorkspace{out: out})
	for _, ev := range []agent.Event{
		{Type: agent.EventTurnStarted},
		{Type: agent.EventToolCallStarted, ID: "x1", Name: "execute"},
		{Type: agent.EventToolCallReady, ID: "x1", Name: "execute", Args: `{"command":"go test ./...","title":"Run go test"}`},
		{Type: agent.EventToolRunStarted, ID: "x1", Name: "execute", Action: &tools.Action{Kind: tools.KindExec, Command: "go test ./..."}},
		{Type: agent.EventToolOutput, ID: "x1", Name: "execute", Text: "ok  \tpkg\n"},
		{Type: agent.EventToolOutput, ID: "x1", Name: "execute", Text: "PASS\n"},
		{Type: agent.EventToolRunEnded, ID: "x1", Name: "execute", Result: "ok  \tpkg\nPASS\n"},
		{Type: agent.EventToolCallStarted, ID: "b1", Name: "bash"},
		{Type: agent.EventToolCallReady, ID: "b1", Name: "bash", Args: `{"command":"ls"}`},
		{Type: agent.EventToolRunStarted, ID: "b1", Name: "bash"},
		{Type: agent.EventToolRunEnded, ID: "b1", Name: "bash", Result: "a\n"},
		{Type: agent.EventTurnEnded, Usage: &agent.Usage{}},
	} {
		h.router.Handle(ev)
	}
	want := `command x1 go test ./...
output x1 "ok  \tpkg\n"
output x1 "PASS\n"
ended x1 false`
	if got := strings.Join(out.log, "\n"); got != want {
		t.Errorf("the agent terminal got:\n%s\nwant:\n%s", got, want)
	}
}
