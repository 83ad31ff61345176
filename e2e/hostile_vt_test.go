package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// vtHostileFile is a file a hostile repository carries: escape sequences
// with huge counts (each took the emulator from seconds to minutes, with
// the IDE frozen, or panicked it), a flood of combining marks on one
// character, then a line that says the pane got to its end.
func vtHostileFile() string {
	const huge = "99999999"
	var b strings.Builder
	b.WriteString("x\x1b[" + huge + "b")
	for _, f := range []string{"@", "P", "X", "L", "M", "S", "T", "I", "Z", "C", "B"} {
		b.WriteString("y\x1b[" + huge + f)
	}
	b.WriteString("\x1b[2;" + huge + "r\x1b[" + huge + "B\n\n\x1b[5L\x1b[r")
	b.WriteString("e" + strings.Repeat("\u0301", 1<<20))
	b.WriteString("\x1b[2J\x1b[H")
	return b.String()
}

// Finding 9: `cat` of a file with hostile escape sequences in the terminal
// pane neither freezes the IDE nor takes it down: while and after the pane
// works through it, focus moves and typing shows, the pane reaches the
// file's end, and Ctrl-Q quits with the terminal restored. The repository
// is opened with its trust prompt declined; trusting it would change
// nothing here (the file is shown by the user's own shell either way).
func TestHostileVTEscapeSequencesInTheTerminalPane(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	dir := project(t)
	writeFile(t, filepath.Join(dir, "evil.txt"), vtHostileFile())
	marker := filepath.Join(t.TempDir(), "ran")
	writeFile(t, filepath.Join(dir, ".fawn", "config.yaml"), fmt.Sprintf("tools:\n  mcp_servers:\n    x:\n      command: sh\n      args: [\"-c\", \"echo ran >> %s\"]\n", marker))
	tm := Start(t, 150, 42, dir, nil, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Trust this folder?")
	tm.Keys("n")
	tm.WaitFor("Chat", "Terminal", "Ask fawn")
	tm.Keys("M-t")
	tm.run("cat evil.txt; echo vt-hostile-$((20+22))")
	// The UI answers at once: focus goes to the chat and what is typed
	// there shows, however long the pane takes.
	tm.Keys(`C-\`, "M-c")
	tm.Type("typed while the pane works")
	tm.WaitFor("typed while the pane works")
	tm.WaitFor("vt-hostile-42")
	tm.Keys("C-q")
	s := tm.WaitFor("fawn-exited-0")
	if strings.Contains(s, "Ask fawn") || strings.Contains(s, "vt-hostile-42") {
		t.Fatalf("the IDE's screen stayed after it quit (the terminal was not restored):\n%s", s)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the declined repository's MCP server ran")
	}
}
