package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// /model in the real binary: a picker of the configured models and those the
// server lists; the choice answers the next message and shows in the status bar.
func TestModelSwitchInTheSession(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Models: []string{"scripted", "coder-7b", "big-32b"},
		Responses: []llmtest.Response{{Text: "Answered by the first model."}, {Text: "Answered by the second model."}}})
	conf := filepath.Join(t.TempDir(), "models.yaml")
	writeFile(t, conf, "models:\n  named:\n    mini:\n      model: coder-7b\n      base_url: "+srv.URL()+"\n")
	tm := startIDE(t, srv, "", "--config", conf)
	tm.prompt("hello")
	tm.WaitFor("Answered by the first model.")
	tm.prompt("/model")
	tm.WaitFor("Model", "● scripted", "mini", "big-32b", "listed by 127.0.0.1")
	tm.Type("mini")
	tm.Keys("Enter")
	tm.WaitFor("model: openai/coder-7b (models.named.mini)")
	tm.WaitUntil("the status bar to name the new model", func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return strings.Contains(lines[len(lines)-1], "openai/coder-7b")
	})
	tm.prompt("again")
	tm.WaitFor("Answered by the second model.")
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || reqs[1].Model != "coder-7b" {
		t.Errorf("the second request went to %q", reqs[len(reqs)-1].Model)
	}
}
