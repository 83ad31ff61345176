package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// /context shows the breakdown of the window; /compact shows a card while
// it runs and then what it did, and the next request carries on from the
// summary.
func TestContextAndCompactInTheIDE(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "AGENTS.md"), "Run go vet before you finish.\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "The parser lives in parse.go."},
		{Text: "## Goal\nPort the parser.\n## Next steps\nWrite the tests. COMPACT-SUMMARY"},
		{Text: "Carrying on from the summary."},
	}})
	home := t.TempDir()
	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "gpt-4o", "--permission-mode", "yolo")
	tm.WaitFor("Ask fawn")
	tm.prompt("where is the parser?")
	tm.WaitFor("The parser lives in parse.go.", "idle")
	tm.prompt("/context")
	s := tm.WaitFor("Context window: 128.0k tokens, from fawn's table", "tool schemas", " AGENTS.md", "answer reserve", "Compacts by itself at 85%")
	_ = s
	tm.prompt("/compact the parser work")
	tm.WaitFor("Compacted:", "(/compact)", "focus:", "parser work", "idle")
	tm.prompt("go on")
	tm.WaitFor("Carrying on from the summary.")
	reqs := srv.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := contents(reqs[2])
	if len(got) != 3 || !strings.Contains(got[0], "COMPACT-SUMMARY") || got[2] != "user:go on" {
		t.Errorf("the request after /compact: %q", got)
	}
	// The compaction is in the session: a resume shows its card again.
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")
	tm2 := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "gpt-4o", "--continue")
	tm2.WaitFor("Compacted:", "Carrying on from the summary.")
}
