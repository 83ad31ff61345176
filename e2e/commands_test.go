package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// A project's custom command runs headless (fawn -p "/review main.go") and
// shows in the IDE's slash popup with its description and hint; a broken
// one is listed with its error.
func TestCustomCommands(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, ".claude", "commands", "review.md"), "---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview @$1 and list the bugs.\n")
	writeFile(t, filepath.Join(project, ".fawn", "commands", "broken.md"), "---\ndescription: [oops\n---\nx\n")
	writeFile(t, filepath.Join(project, "main.go"), "package main // MAIN-CONTENT\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "No bugs."}, {Text: "Still none."}}})
	out, errs, code := fawnIn(t, home, srv, "-p", "/review main.go", project)
	if code != 0 || strings.TrimSpace(out) != "No bugs." {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	got := contents(srv.ChatRequests()[0])
	if len(got) != 1 || !strings.Contains(got[0], "Review main.go:") || !strings.Contains(got[0], "MAIN-CONTENT") || !strings.Contains(got[0], "list the bugs") {
		t.Errorf("the model got %q", got)
	}

	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Ask fawn")
	tm.Type("/re")
	tm.WaitFor("/review", "Review a file for bugs", "project command")
	tm.Keys("C-c")
	tm.Type("/bro")
	tm.WaitFor("/broken", "cannot run")
	tm.Keys("C-c")
	tm.prompt("/review main.go")
	tm.WaitFor("Still none.")
	if got := contents(srv.ChatRequests()[1]); !strings.Contains(got[len(got)-1], "MAIN-CONTENT") {
		t.Errorf("in the IDE the model got %q", got)
	}
}
