package e2e

import (
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// TestCompactAfterModelSwitchUsesTheNewModel: /compact right after
// /model X asks X for the summary.
func TestCompactAfterModelSwitchUsesTheNewModel(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "The parser lives in parse.go."},
		{Text: "## Goal\nPort the parser. SUMMARY-TEXT"},
	}})
	tm := Start(t, 150, 42, t.TempDir(), []string{"FAWN_HOME=" + t.TempDir()}, "--base-url", srv.URL(), "--model", "gpt-4o", "--permission-mode", "yolo")
	tm.WaitFor("Ask fawn")
	tm.prompt("where is the parser?")
	tm.WaitFor("The parser lives in parse.go.", "idle")
	tm.prompt("/model bigger-model")
	tm.WaitFor("bigger-model")
	tm.prompt("/compact")
	tm.WaitFor("Compacted:", "idle")
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || reqs[0].Model != "gpt-4o" || reqs[1].Model != "bigger-model" {
		var models []string
		for _, r := range reqs {
			models = append(models, r.Model)
		}
		t.Errorf("models asked: %v, want [gpt-4o bigger-model]", models)
	}
}
