package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

func planArgs(plan string) string {
	b, _ := json.Marshal(map[string]string{"plan": plan})
	return string(b)
}

// Plan mode in the IDE: the agent's plan shows in a dialog, as Markdown,
// scrollable; sent back with a note, the model reads the note; approved
// with "edits run", fawn leaves plan mode, the steps fill the to-do view,
// and the same turn goes on to edit without asking.
func TestPlanThenExecute(t *testing.T) {
	project := t.TempDir()
	var long []string
	for i := 1; i <= 40; i++ {
		long = append(long, fmt.Sprintf("Detail line %d of the approach.", i))
	}
	first := "# Greeting\n\n" + strings.Join(long, "\n\n") + "\n\n1. Write hello.txt\n"
	second := "# Greeting\n\nWrite the file, then **check** it.\n\n1. Create hello.txt with a greeting\n2. Read it back\n"
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("exit_plan", planArgs(first))}},
		{ToolCalls: []llmtest.ToolCall{call("exit_plan", planArgs(second))}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"create","path":"hello.txt","file_text":"hello\n"}`)}},
		{Text: "Greeting written."},
	}})
	tm := startIDE(t, srv, project, "--permission-mode", "plan")
	tm.WaitFor("plan")
	tm.prompt("greet")
	s := tm.WaitFor("the agent's plan", "Greeting", "Detail line 1 of", "1/a approve, edits run", "2/y approve, ask before edits", "3/n keep planning")
	if strings.Contains(s, "Detail line 40 of") {
		t.Fatalf("the long plan fits on one screen; the test wants it to scroll:\n%s", s)
	}
	tm.Keys("PgDn", "PgDn", "PgDn", "PgDn")
	tm.WaitFor("Detail line 40 of", "Write hello.txt")
	tm.Type("n")
	tm.WaitFor("What to change:")
	tm.Type("two steps please")
	tm.Keys("Enter")
	s = tm.WaitFor("Create hello.txt with a greeting", "Read it back", "1/a approve", "↺ ☰ Plan (1 step)", "sent back")
	if strings.Contains(s, "**check**") {
		t.Errorf("the plan's Markdown is shown raw:\n%s", s)
	}
	tm.Type("a")
	tm.WaitFor("Greeting written.", "idle", "accept-edits")
	if got := readFile(t, filepath.Join(project, "hello.txt")); got != "hello\n" {
		t.Errorf("hello.txt: %q", got)
	}
	tm.Keys("M-o") // the to-do view
	tm.WaitFor("Create hello.txt with a greeting", "Read it back")
	reqs := srv.ChatRequests()
	if got := contents(reqs[1]); !strings.Contains(strings.Join(got, "|"), "Their note: two steps please") {
		t.Errorf("the note did not reach the model: %q", got)
	}
	if got := contents(reqs[2]); !strings.Contains(strings.Join(got, "|"), "now in accept-edits mode") {
		t.Errorf("the model was not told of the approval: %q", got)
	}
	if len(reqs) != 4 {
		t.Errorf("%d requests; want 4 in one turn", len(reqs))
	}
}

// fawn -p in plan mode: nobody can approve the plan, so it is printed and
// the run ends with it, in plan mode still (nothing was written).
func TestHeadlessPlanIsPrinted(t *testing.T) {
	project := t.TempDir()
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("exit_plan", planArgs("1. Create hello.txt\n2. Read it back"))}},
		{Text: "The plan is ready."},
	}})
	out, errs, code := fawnIn(t, t.TempDir(), srv, "-p", "greet", "--permission-mode", "plan", project)
	if code != 0 || out != "1. Create hello.txt\n2. Read it back\n\nThe plan is ready.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	if got := contents(srv.ChatRequests()[1]); !strings.Contains(strings.Join(got, "|"), "End your turn now") {
		t.Errorf("the model was not told to stop: %q", got)
	}
}
