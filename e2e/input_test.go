package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// "!cmd" in the real binary: the command runs in the terminal pane, in
// sight; its output waits above the input and the model gets it with the
// next message, after what the user typed.
func TestBangRunsInTheTerminalPane(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "notes.txt"), "first line\nsecond line\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "It has two lines."}}})
	tm := startIDE(t, srv, project)
	tm.prompt("!wc -l notes.txt")
	tm.WaitFor("2 notes.txt", "⎘ !wc -l notes.txt · exit 0 · 1 line")
	if n := len(srv.ChatRequests()); n != 0 {
		t.Fatalf("!cmd sent %d requests", n)
	}
	tm.prompt("how long is it?")
	tm.WaitFor("It has two lines.", "↳ !wc -l notes.txt · exit 0 · 1 line")
	msgs := srv.ChatRequests()[0].Messages
	sent := string(msgs[len(msgs)-1].Content)
	if !strings.HasPrefix(sent, "how long is it?") || !strings.Contains(sent, `<shell command="wc -l notes.txt" ended="exit 0">`+"\n2 notes.txt\n</shell>") {
		t.Fatalf("the model was sent:\n%s", sent)
	}
	if s := tm.Screen(); strings.Contains(s, "sent with your next message") {
		t.Fatalf("the output still waits after it was sent:\n%s", s)
	}
}

// "#note" in the real binary: a question says where it goes; the
// project's AGENTS.md gets it, and the chat says so; nothing is sent.
func TestHashNotesInTheProjectsAGENTSmd(t *testing.T) {
	project := t.TempDir()
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "never sent"}}})
	tm := startIDE(t, srv, project)
	tm.prompt("#run make check before committing")
	tm.WaitFor("Remember", "project AGENTS.md", "your AGENTS.md")
	tm.Keys("p")
	tm.WaitFor("noted in the project's AGENTS.md: run make check")
	b, err := os.ReadFile(filepath.Join(project, "AGENTS.md"))
	if err != nil || string(b) != "- run make check before committing\n" {
		t.Fatalf("AGENTS.md: %q %v", b, err)
	}
	tm.prompt("#answer briefly")
	tm.WaitFor("Remember")
	tm.Keys("u")
	tm.WaitFor("noted in your AGENTS.md")
	if b, err := os.ReadFile(filepath.Join(tm.Home, "AGENTS.md")); err != nil || string(b) != "- answer briefly\n" {
		t.Fatalf("the user's AGENTS.md: %q %v", b, err)
	}
	if n := len(srv.ChatRequests()); n != 0 {
		t.Fatalf("a note sent %d requests", n)
	}
}

// Ctrl-R in the real binary finds a prompt of an earlier session of the
// project, and Enter puts it in the input.
func TestCtrlRFindsAnEarlierSessionsPrompt(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "done"}, {Text: "done too"}}})
	for _, p := range []string{"rename the frobnicator to widget", "why is the build slow?"} {
		if _, errs, code := fawnIn(t, home, srv, "-p", p, project); code != 0 {
			t.Fatalf("fawn -p %q: %d %s", p, code, errs)
		}
	}
	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home, "HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Chat", "Ask fawn")
	tm.Keys("C-r")
	tm.WaitFor("Prompt history", "rename the frobnicator to widget", "why is the build slow?")
	tm.Type("frob")
	tm.Keys("Enter")
	tm.WaitGone("Prompt history")
	tm.WaitFor("› rename the frobnicator to widget")
	if n := len(srv.ChatRequests()); n != 2 {
		t.Fatalf("%d requests: choosing a prompt sent it", n)
	}
}
