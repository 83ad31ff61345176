package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// Ctrl-Q in the terminal pane is the program's; fawn's quit, after the
// escape key or from another pane, asks while a program runs in a
// terminal or a file is unsaved, naming both.
func TestQuitAsksWithCatRunningAndUnsavedWork(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	dir := project(t)
	writeFile(t, filepath.Join(dir, "notes.txt"), "alpha\n")
	tm := startIDE(t, srv, dir)
	tm.Keys("C-p")
	tm.WaitFor("notes.txt")
	tm.Type("notes")
	tm.Keys("Enter")
	tm.WaitFor("alpha")
	tm.Type("UNSAVED ")
	tm.WaitFor("UNSAVED alpha")

	tm.Keys("M-t")
	// Once ready shows, the shell has given the tty back to cooked mode:
	// what is typed next is echoed and read by cat.
	tm.run("echo rea''dy; cat")
	tm.WaitFor("ready")
	tm.Keys("C-q") // the program's (XON, which the tty takes): fawn stays
	tm.Type("still-here")
	tm.Keys("Enter")
	tm.WaitUntil("cat's echo of the line", func(s string) bool { return strings.Count(s, "still-here") >= 2 })

	tm.Keys(`C-\`, "C-q")
	s := tm.WaitFor("Quitting ends what runs in the terminals: cat (Terminal).", "unsaved changes: notes.txt.")
	if !strings.Contains(s, "save all and quit") {
		t.Fatalf("no choice to save:\n%s", s)
	}
	tm.Keys("Escape")
	tm.WaitGone("Quitting ends")

	// From the chat the same question; d quits without saving.
	tm.Keys(`C-\`, "M-c")
	tm.Keys("C-q")
	tm.WaitFor("cat (Terminal)", "quit without saving")
	tm.Keys("d")
	tm.WaitFor("fawn-exited-0")
}
