package e2e

import (
	"path/filepath"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// editor.keys: vim in the real binary: the mode shows in the editor's
// status line, a vim change edits the file and :w saves it.
func TestVimKeysInTheEditor(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, "notes.txt"), "alpha beta\n")
	writeFile(t, filepath.Join(home, "config.yaml"), "editor:\n  keys: vim\n")
	srv := llmtest.Start(t, llmtest.Script{})
	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Chat", "Editor", "Ask fawn")
	tm.Keys("C-p")
	tm.WaitFor("notes.txt")
	tm.Type("notes")
	tm.Keys("Enter")
	tm.WaitFor("alpha beta", "-- NORMAL --")
	tm.Type("dwi")
	tm.WaitFor("-- INSERT --")
	tm.Type("X")
	tm.Keys("Escape")
	tm.WaitFor("Xbeta", "-- NORMAL --")
	tm.Type("qa")
	tm.WaitFor("vim: q (macros) not built")
	tm.Type(":w")
	tm.WaitFor(":w")
	tm.Keys("Enter")
	tm.WaitFor("saved notes.txt")
	if got := readFile(t, filepath.Join(project, "notes.txt")); got != "Xbeta\n" {
		t.Errorf("notes.txt after dwiX<Esc>:w is %q", got)
	}
}
