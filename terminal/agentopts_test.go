package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentCommandIsReadAsTheRulesReadIt: whatever the user's rc sets, an
// agent's command line is read with interactive_comments on and set -k
// off, as fawn's permission rules read it: "# ; touch X" is a comment, and
// FOO=bar after the command name is an argument.
func TestAgentCommandIsReadAsTheRulesReadIt(t *testing.T) {
	term := startTermWithRC(t, "shopt -u interactive_comments\nset -k\n")
	res := mustRun(t, term, "echo a # ; touch marker")
	if _, err := os.Stat(filepath.Join(term.root, "marker")); err == nil {
		t.Errorf("the text after # ran: %+v", res)
	}
	if strings.TrimSpace(res.Output) != "a" {
		t.Errorf("echo a # …: output %q, want a", res.Output)
	}
	res = mustRun(t, term, `sh -c 'echo "[${FOO-}]"' FOO=bar`)
	if strings.TrimSpace(res.Output) != "[]" {
		t.Errorf("FOO=bar after the command name reached its environment: %q", res.Output)
	}
}
