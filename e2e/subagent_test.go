package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// A project's subagent does a task: its permission dialog names it, its
// str_replace marks the changed line in the editor tab like the main
// agent's, its card is indented under the task's, and its answer is the
// task's result. /agents lists it.
func TestSubagentEditsShowInTheTabs(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, ".claude", "agents", "fixer.md"), "---\nname: fixer\ndescription: Fixes small bugs\ntools: Read, Edit, Grep\n---\nYou fix bugs. FIXER-PROMPT\n")
	writeFile(t, filepath.Join(project, "main.go"), "package main\n\nfunc main() {\n\tprintln(\"helo\")\n}\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Handing it to the fixer.", ToolCalls: []llmtest.ToolCall{call("task", `{"description":"Fix the typo","prompt":"Fix the typo in main.go.","subagent_type":"fixer"}`)}},
		{Text: "Looking at main.go.", ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"main.go"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"main.go","old_str":"helo","new_str":"hello"}`)}},
		{Text: "Fixed helo → hello at main.go:4."},
		{Text: "The fixer fixed the typo."},
	}})
	tm := startIDE(t, srv, project)
	tm.prompt("/agents")
	tm.WaitFor("fixer — Fixes small bugs", "general — A general-purpose agent")
	tm.prompt("fix the typo")
	tm.WaitFor("the fixer agent: text_editor wants to edit a file", "fixer ▸ Edi", "2 calls · now")
	tm.Type("y")
	s := tm.WaitFor("The fixer fixed the typo.", "fixer ▸ Edit main.go", "fixer agent: 3 steps · 2 calls")
	s = tm.WaitFor(`println("hello")`)
	marked := false
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "~  4 "); i >= 0 && strings.Contains(line[i:], "hello") {
			marked = true
		}
	}
	if !marked {
		t.Errorf("line 4 is not marked in the editor tab:\n%s", s)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "main.go")); !strings.Contains(string(b), `println("hello")`) {
		t.Errorf("main.go = %q", b)
	}
	reqs := srv.ChatRequests()
	if sys := string(reqs[1].Messages[0].Content); !strings.Contains(sys, "FIXER-PROMPT") {
		t.Errorf("the subagent's system prompt:\n%s", sys)
	}
	if got := contents(reqs[4]); !strings.Contains(strings.Join(got, "\n"), "Fixed helo → hello at main.go:4.") {
		t.Errorf("the task's result: %q", got)
	}
}

// ask_user shows its options numbered; a number key answers, and headless
// the call says nobody can answer instead of waiting.
func TestAskUserDialog(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("ask_user", `{"question":"Which database should the app use?","options":["SQLite","Postgres","MySQL"]}`)}},
		{Text: "Setting up Postgres."},
		{ToolCalls: []llmtest.ToolCall{call("ask_user", `{"question":"Which?","options":["a","b"]}`)}},
		{Text: "Nobody answered; chose a."},
	}})
	tm := startIDE(t, srv, "")
	tm.prompt("set up a database")
	tm.WaitFor("the agent asks you", "Which database should the app use?", "1 SQLite", "2 Postgres", "4 Other", "waiting for your answer")
	tm.Type("2")
	tm.WaitFor("Setting up Postgres.")
	if got := contents(srv.ChatRequests()[1]); !strings.Contains(got[len(got)-1], "The user answered: Postgres") {
		t.Errorf("the answer the model got: %q", got)
	}

	home := t.TempDir()
	out, errs, code := fawnIn(t, home, srv, "-p", "pick one", t.TempDir())
	if code != 0 || !strings.Contains(out, "Nobody answered") {
		t.Fatalf("headless: exit %d: %s %s", code, out, errs)
	}
	if got := contents(srv.ChatRequests()[3]); !strings.Contains(got[len(got)-1], "no user can answer") {
		t.Errorf("headless ask_user: %q", got)
	}
}
