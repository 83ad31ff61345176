package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// startIDE opens fawn on project against a scripted server, with the chat ready.
func startIDE(t *testing.T, srv *llmtest.Server, project string, extra ...string) *Term {
	t.Helper()
	args := append([]string{"--base-url", srv.URL(), "--model", "scripted"}, extra...)
	tm := Start(t, 150, 42, project, nil, args...)
	tm.WaitFor("Chat", "Editor", "Terminal", "To-do", "Ask fawn")
	return tm
}

func (tm *Term) prompt(text string) {
	tm.t.Helper()
	tm.Type(text)
	tm.Keys("Enter")
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func call(name, args string) llmtest.ToolCall { return llmtest.ToolCall{Name: name, Arguments: args} }

func TestAnswerStreamsIntoTheChat(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "The answer is forty-two, as **everyone** knows.", Delay: llmtest.Duration(20 * time.Millisecond),
			Usage: &llmtest.Usage{PromptTokens: 900, CompletionTokens: 12}},
	}})
	tm := startIDE(t, srv, "")
	tm.prompt("what is the answer?")
	s := tm.WaitFor("› what is the answer?", "The answer is forty-two, as everyone knows.")
	if strings.Contains(s, "**") {
		t.Errorf("Markdown emphasis shown raw:\n%s", s)
	}
	tm.WaitFor("idle", "↑900")
	if got := srv.ChatRequests()[0].Messages; string(got[len(got)-1].Content) != "what is the answer?" {
		t.Errorf("the server did not get the prompt last: %+v", got[len(got)-1])
	}
}

func TestAskModeYesRunsTheEditAndNoRefusesIt(t *testing.T) {
	project := t.TempDir()
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Creating two files.", ToolCalls: []llmtest.ToolCall{
			call("text_editor", `{"command":"create","path":"allowed.md","file_text":"# Allowed\n\nwritten after y\n"}`),
			call("text_editor", `{"command":"create","path":"denied.md","file_text":"never\n"}`),
		}},
		{Text: "One file written, one refused."},
	}})
	tm := startIDE(t, srv, project)
	tm.prompt("make two files")

	tm.WaitFor("wants to edit a file", "Create allowed.md", "y allow once", "waiting for permission")
	if _, err := os.Stat(filepath.Join(project, "allowed.md")); err == nil {
		t.Fatal("the file was written before the user answered")
	}
	tm.Keys("y")
	tm.WaitFor("Create denied.md", "y allow once")
	// The first edit has landed and shows in an editor tab.
	tm.WaitFor("allowed.md", "written after y")
	tm.Keys("n")
	tm.WaitFor("One file written, one refused.", "idle")

	if b, err := os.ReadFile(filepath.Join(project, "allowed.md")); err != nil || string(b) != "# Allowed\n\nwritten after y\n" {
		t.Errorf("allowed.md = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(project, "denied.md")); err == nil {
		t.Error("denied.md was written after n")
	}
	tm.WaitFor("denied")
	// The model was told which call was refused.
	reqs := srv.ChatRequests()
	last := reqs[len(reqs)-1].Messages
	var results []string
	for _, m := range last {
		if m.Role == "tool" {
			results = append(results, m.ToolCallID+": "+string(m.Content))
		}
	}
	if len(results) != 2 || !strings.Contains(strings.ToLower(results[1]), "denied") {
		t.Errorf("tool results sent back: %q", results)
	}
}

func TestStrReplaceMarksTheChangedLines(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Reading main.go.", ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"main.go"}`)}},
		{Text: "Changing the greeting.", ToolCalls: []llmtest.ToolCall{call("text_editor",
			`{"command":"str_replace","path":"main.go","old_str":"fmt.Println(\"hello\")","new_str":"fmt.Println(\"hello, world\")\n\tfmt.Println(\"bye\")"}`)}},
		{Text: "Done."},
	}})
	tm := startIDE(t, srv, project, "--permission-mode", "accept-edits")
	tm.prompt("greet the world")
	s := tm.WaitFor("Edit main.go  +2 −1", "Done.")
	s = tm.WaitFor(`fmt.Println("hello, world")`, `fmt.Println("bye")`)
	marked := 0
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "~  6 "); i >= 0 && strings.Contains(line[i:], "hello, world") {
			marked++
		}
		if i := strings.Index(line, "~  7 "); i >= 0 && strings.Contains(line[i:], "bye") {
			marked++
		}
		if strings.Contains(line, "~  5 ") {
			t.Errorf("an unchanged line is marked: %q", line)
		}
	}
	if marked != 2 {
		t.Errorf("want lines 6 and 7 marked in the gutter, found %d:\n%s", marked, s)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "main.go")); !strings.Contains(string(b), "\tfmt.Println(\"bye\")\n") {
		t.Errorf("main.go = %q", b)
	}
}

func TestEscCancelsASlowStreamAndTheNextTurnWorks(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: strings.Repeat("slowly streaming words ", 200), ChunkSize: 6, Delay: llmtest.Duration(150 * time.Millisecond)},
		{Text: "Back and ready."},
	}})
	tm := startIDE(t, srv, "")
	tm.prompt("talk slowly")
	tm.WaitFor("slowly streaming")
	tm.Keys("Escape")
	tm.WaitFor("cancelled", "idle")
	tm.prompt("again")
	tm.WaitFor("Back and ready.")
	if n := srv.Served(); n != 2 {
		t.Errorf("server answered %d requests, want 2", n)
	}
	// The second request carries the first turn, ended consistently.
	msgs := srv.ChatRequests()[1].Messages
	if string(msgs[len(msgs)-1].Content) != "again" {
		t.Errorf("last message = %+v", msgs[len(msgs)-1])
	}
}

func TestCtrlQQuitsAndRestoresTheTerminal(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startIDE(t, srv, "")
	tm.Keys("C-q")
	s := tm.WaitFor("fawn-exited-0")
	if strings.Contains(s, "╭─ Chat") {
		t.Errorf("the IDE is still on screen after quitting:\n%s", s)
	}
}

func TestNarrowTerminalStacksThePanes(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startIDE(t, srv, "")
	tm.Resize(80, 50)
	s := tm.WaitUntil("stacked panes", func(s string) bool {
		chat, editor := lineOf(s, "─ Chat"), lineOf(s, "─ Editor")
		return chat >= 0 && editor > chat
	})
	if lineOf(s, "─ Chat") == lineOf(s, "─ Editor") {
		t.Errorf("panes side by side at 80 columns:\n%s", s)
	}
	tm.Resize(150, 42)
	tm.WaitUntil("side-by-side panes", func(s string) bool {
		return lineOf(s, "─ Chat") >= 0 && lineOf(s, "─ Chat") == lineOf(s, "─ Editor")
	})
}

func lineOf(s, sub string) int {
	for i, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return i
		}
	}
	return -1
}
