package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// goplsPath returns a PATH with the real gopls on it (installed by
// .ci/run into $GOPATH/bin), or skips.
func goplsPath(t *testing.T) string {
	t.Helper()
	path := os.Getenv("PATH")
	if _, err := exec.LookPath("gopls"); err == nil {
		return path
	}
	out, _ := exec.Command("go", "env", "GOPATH").Output()
	for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
		if _, err := os.Stat(filepath.Join(dir, "bin", "gopls")); err == nil {
			return filepath.Join(dir, "bin") + string(os.PathListSeparator) + path
		}
	}
	t.Skip("skipped: gopls not installed (.ci/run installs it)")
	return ""
}

// An agent edit that breaks the types: the gutter marks the line, the
// tab counts the problem, the status line says it, the tool card lists
// it, and the model is told.
func TestAgentEditTypeErrorShowsEverywhere(t *testing.T) {
	path := goplsPath(t)
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(project, "main.go"), "package main\n\nimport \"example.com/m/util\"\n\nfunc main() {\n\tprintln(util.Double(2))\n}\n")
	writeFile(t, filepath.Join(project, "util", "util.go"), "package util\n\n// Double returns twice n.\nfunc Double(n int) int { return n * 2 }\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{Name: "text_editor", Arguments: `{"command":"view","path":"main.go"}`}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "text_editor", Arguments: `{"command":"str_replace","path":"main.go","old_str":"util.Double(2)","new_str":"util.Double(\"two\")"}`}}},
		{Text: "Broken on purpose."},
		{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"sed -i 's/\"two\"/2/' main.go"}`}}},
		{Text: "Fixed by sed."},
	}})
	tm := Start(t, 150, 42, project, []string{"PATH=" + path, "GOFLAGS=-mod=mod", "GOPROXY=off"},
		"--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo", "--trust")
	tm.WaitFor("Chat", "Ask fawn")
	tm.prompt("break main.go")
	s := tm.WaitFor("Broken on purpose.", "main.go:6:22: error: cannot use \"two\"", "✖1")
	gutter := false
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "✖  6") && strings.Contains(line, "println(util.Double(\"two\"))") {
			gutter = true
		}
	}
	if !gutter {
		t.Errorf("line 6 is not marked in the gutter:\n%s", s)
	}
	msgs := srv.ChatRequests()[2].Messages
	if got := string(msgs[len(msgs)-1].Content); !strings.Contains(got, "New in main.go (1):") || !strings.Contains(got, "main.go:6:22: error:") {
		t.Errorf("the model was not told: %s", got)
	}
	// A command that fixes it: the card and the model hear it, and the
	// marks go.
	tm.prompt("fix it with sed")
	tm.WaitFor("Fixed by sed.", "gopls: no errors or warnings in main.go")
	tm.WaitGone("✖1")
	msgs = srv.ChatRequests()[4].Messages
	if got := string(msgs[len(msgs)-1].Content); !strings.Contains(got, "exit code 0") || !strings.Contains(got, "(1 fixed by it)") {
		t.Errorf("the model was not told what the command fixed: %s", got)
	}
	// /lsp shows the server.
	tm.prompt("/lsp")
	tm.WaitFor("gopls — ready (pid ", "1 open")
}

// /rewind puts back a file the agent broke: the editor drops the problems
// of the broken text and the language server, asked again, finds none.
func TestRewindDropsTheOldProblems(t *testing.T) {
	path := goplsPath(t)
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(project, "main.go"), "package main\n\nfunc lookupKey(k string) string { return k }\n\nfunc main() {\n\tprintln(lookupKey(\"a\"))\n}\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{Name: "text_editor", Arguments: `{"command":"view","path":"main.go"}`}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "text_editor", Arguments: `{"command":"str_replace","path":"main.go","old_str":"func lookupKey(k string) string { return k }\n","new_str":""}`}}},
		{Text: "Removed the helper."},
	}})
	tm := Start(t, 150, 42, project, []string{"PATH=" + path, "GOFLAGS=-mod=mod", "GOPROXY=off"},
		"--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo", "--trust")
	tm.WaitFor("Chat", "Ask fawn")
	tm.prompt("remove the helper")
	tm.WaitFor("Removed the helper.", "undefined: lookupKey", "✖1", "idle")
	tm.prompt("/rewind")
	tm.WaitFor("Rewind to before a prompt", "› remove the helper")
	tm.Keys("Enter")
	tm.WaitFor("code and conversation")
	tm.Keys("Enter")
	tm.WaitFor("rewind: restored main.go", "func lookupKey(k string) string")
	s := tm.WaitGone("✖1")
	if strings.Contains(s, "undefined: lookupKey") && !strings.Contains(s, "rewind: restored") {
		t.Errorf("the old problem is still shown:\n%s", s)
	}
}
