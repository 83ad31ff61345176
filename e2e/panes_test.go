package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

func TestBashRunsVisiblyInTheTerminalPane(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Running it in the terminal.", ToolCalls: []llmtest.ToolCall{
			call("bash", `{"command":"mkdir -p sub && cd sub && echo fawn-was-here $((6*7))"}`)}},
		{Text: "Where am I now?", ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"pwd"}`)}},
		{Text: "Both commands ran."},
	}})
	project := t.TempDir()
	tm := startIDE(t, srv, project, "--permission-mode", "yolo")
	tm.prompt("run something")
	s := tm.WaitFor("Both commands ran.")
	// The pane shows the command as typed and its output.
	s = tm.WaitFor("# mkdir -p sub && cd", "fawn-was-here 42", "/sub# pwd")
	if !strings.Contains(s, "$ mkdir -p sub") {
		t.Errorf("the chat card does not show the command:\n%s", s)
	}
	// The model got the output, the exit status and the cwd, which persisted
	// between the two calls.
	msgs := srv.ChatRequests()[2].Messages
	var results []string
	for _, m := range msgs {
		if m.Role == "tool" {
			results = append(results, string(m.Content))
		}
	}
	if len(results) != 2 {
		t.Fatalf("tool results: %q", results)
	}
	if !strings.Contains(results[0], "fawn-was-here 42") || !strings.Contains(results[0], "exit code 0") {
		t.Errorf("first result: %q", results[0])
	}
	if !strings.Contains(results[1], filepath.Join(project, "sub")) {
		t.Errorf("cwd did not persist: %q", results[1])
	}
}

// A command that fails is marked on its chat card with its exit code, the
// number the bash tool reports beside the text the model reads.
func TestFailedCommandCardShowsItsExitCode(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Trying it.", ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo half-done; (exit 3)"}`)}},
		{Text: "It failed."},
	}})
	tm := startIDE(t, srv, "", "--permission-mode", "yolo")
	tm.prompt("run something")
	tm.WaitFor("It failed.")
	s := tm.WaitFor("✗ ❯ $ echo half-done", "│ exit code 3")
	if strings.Contains(s, "✓ ❯ $ echo half-done") {
		t.Errorf("the failed command's card is marked as a success:\n%s", s)
	}
}

func TestTodoWriteShowsTheItems(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Here is the plan.", ToolCalls: []llmtest.ToolCall{call("todo_write", `{"todos":[
			{"id":"1","title":"Read the parser","status":"completed","priority":"high"},
			{"id":"2","title":"Fix the off-by-one","status":"in_progress","priority":"high"},
			{"id":"3","title":"Add a regression test","status":"pending","priority":"medium"}]}`)}},
		{Text: "Plan written."},
	}})
	tm := startIDE(t, srv, "")
	tm.prompt("plan it")
	tm.WaitFor("Plan written.", "To-do 1/3")
	tm.WaitFor("☑ Read the parser", "◐ Fix the off-by-one", "☐ Add a regression test")
}

func TestDemoTourOnAFreshProject(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "README.md"), "# Fresh\n\nTODO: everything\n")
	tm := Start(t, 160, 45, project, nil)
	tm.WaitFor("Chat", "Editor", "Terminal", "To-do", "demo/fawn-demo", "runs on its offline")
	tm.prompt("hello")
	// The tour reads the README into the editor, searches, and asks before its command.
	tm.WaitFor("bash wants to run a command", "y allow once")
	tm.WaitFor("TODO: everything") // README.md open in a tab
	tm.Keys("y")
	tm.WaitFor("That's the tour", "To-do")
	tm.WaitFor("idle")
}

// At 100×30 the chat beside the editor is wide enough for a command card
// to show its whole command.
func TestCommandCardFitsAt100Columns(t *testing.T) {
	const cmd = "echo the-command-card-shows-all-of-it"
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"`+cmd+`"}`)}},
		{Text: "Printed."},
	}})
	tm := Start(t, 100, 30, t.TempDir(), nil, "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo")
	tm.WaitFor("Chat", "Editor", "Ask fawn")
	tm.prompt("print")
	tm.WaitFor("Printed.", "idle", "$ "+cmd)
}
