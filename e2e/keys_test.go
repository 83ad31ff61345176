package e2e

import (
	"path/filepath"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// A binding in keys.yaml of a key that was fixed before — the editor find
// bar's Enter and Esc — takes effect in the real binary: Enter no longer
// closes the bar (the next letter still types into it), Ctrl-O stays at
// the match and closes it, Ctrl-E closes it.
func TestKeysFileRebindsTheFindBar(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, "notes.txt"), "alpha\nbeta\ndelta\n")
	writeFile(t, filepath.Join(home, "keys.yaml"), "editor.promptSubmit: [ctrl+o]\neditor.promptCancel: [ctrl+e]\n")
	srv := llmtest.Start(t, llmtest.Script{})
	tm := Start(t, 120, 30, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Chat", "Editor")
	tm.Keys("C-p")
	tm.WaitFor("notes.txt")
	tm.Type("notes")
	tm.Keys("Enter")
	tm.WaitFor("alpha", "Ln 1, Col 1")
	tm.Keys("C-f")
	tm.WaitFor("Find:")
	tm.Type("delt")
	tm.WaitFor("Find: delt")
	tm.Keys("Enter")
	tm.Type("a")
	tm.WaitFor("Find: delta", "1 match")
	tm.Keys("C-o")
	tm.WaitGone("Find:")
	tm.WaitFor("find: delta", "Ln 3, Col 6") // at the match, selected
	tm.Keys("C-f")
	tm.WaitFor("Find:")
	tm.Keys("C-e")
	tm.WaitGone("Find:")
}

// The trust prompt, shown before the IDE, answers by the keys keys.yaml
// binds: with trust.ignore on x, n does nothing and x opens the IDE
// without the project's items (the x is not typed into the chat).
func TestKeysFileRebindsTheTrustPrompt(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	dir, home := project(t), t.TempDir()
	writeFile(t, filepath.Join(dir, ".fawn", "config.yaml"), "tools:\n  mcp_servers:\n    x:\n      command: \"true\"\n")
	writeFile(t, filepath.Join(home, "keys.yaml"), "trust.ignore: [x]\n")
	tm := Start(t, 120, 40, dir, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Trust this folder?", "x not now")
	tm.Type("n")
	tm.Type("x")
	tm.WaitFor("Not trusted: fawn ignores MCP server x", "Ask fawn…")
}
