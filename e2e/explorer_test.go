package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The file explorer in the real binary: Alt-X shows the project (ignored
// files left out), Enter opens a file in a tab, n creates a file and d
// deletes one after a yes; a file made in the terminal appears on its own.
func TestExplorer(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, ".gitignore"), "secret.log\n")
	writeFile(t, filepath.Join(project, "secret.log"), "ignored\n")
	writeFile(t, filepath.Join(project, "cmd", "tool", "main.go"), "package main\n\n// the explorer opened me\n")
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startIDE(t, srv, project)
	tm.Keys("M-x")
	s := tm.WaitFor("Files", "▸ cmd/", ".gitignore")
	if lineOf(s, "secret.log") >= 0 {
		t.Errorf("an ignored file is shown:\n%s", s)
	}
	tm.Keys("Enter") // cmd/ opens
	tm.WaitFor("▸ tool/")
	tm.Keys("Down", "Enter")
	tm.WaitFor("main.go")
	tm.Keys("Down", "Enter")
	tm.WaitFor("// the explorer opened me") // in the editor

	tm.Keys("M-x")
	tm.Keys("n")
	tm.WaitFor("new in cmd/tool/")
	tm.Type("notes.md")
	tm.Keys("Enter")
	tm.WaitFor("notes.md ✦")
	if _, err := os.Stat(filepath.Join(project, "cmd", "tool", "notes.md")); err != nil {
		t.Fatalf("n did not create the file: %v", err)
	}
	tm.Keys("M-x") // back from the editor, where the new file opened
	tm.Keys("d")
	tm.WaitFor("delete cmd/tool/notes.md?")
	tm.Keys("y")
	tm.WaitFor("deleted cmd/tool/notes.md")
	if _, err := os.Stat(filepath.Join(project, "cmd", "tool", "notes.md")); err == nil {
		t.Fatal("y did not delete the file")
	}
	// Made elsewhere: it appears.
	writeFile(t, filepath.Join(project, "cmd", "tool", "later.go"), "package main\n")
	tm.WaitFor("later.go ✦")
}
