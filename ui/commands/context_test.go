package commands

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/agent"
)

// /context says what the session has cost when every response had a
// price, and nothing of money when one had none.
func TestContextShowsTheCost(t *testing.T) {
	ci := agent.ContextInfo{Window: 128000, WindowSource: "fawn's table", Cost: agent.Cost{USD: 1.234, Priced: 4}}
	if got := contextText(ci, "/p"); !strings.Contains(got, "Cost so far: $1.23") {
		t.Errorf("/context lacks the cost:\n%s", got)
	}
	ci.Cost = agent.Cost{USD: 1.234, Priced: 3, Unpriced: 1}
	if got := contextText(ci, "/p"); strings.Contains(got, "$") {
		t.Errorf("/context shows a cost it does not know:\n%s", got)
	}
}
