package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/config"
)

// "#note" asks where it goes, then appends it to the project's AGENTS.md
// (what was there kept) or the user's own, and says where in the chat.
func TestHashNotesInAGENTSmd(t *testing.T) {
	root, cfgDir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("# Project\nBuild with make."), 0o644); err != nil {
		t.Fatal(err)
	}
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag, Root: root, Config: &config.Config{ConfigDir: cfgDir, DataDir: t.TempDir()}}, 120, 30)
	r.typeText("#always run go vet")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Remember")
	r.waitScreen("project AGENTS.md")
	r.key(tcell.KeyRune, 'p', 0)
	r.waitScreen("noted in the project's AGENTS.md: always run go vet")
	waitFor(t, "the note in the file", func() bool {
		b, _ := os.ReadFile(filepath.Join(root, "AGENTS.md"))
		return string(b) == "# Project\nBuild with make.\n- always run go vet\n"
	})

	r.typeText("#answer in French")
	r.key(tcell.KeyEnter, 0, tcell.ModAlt) // a newline
	r.typeText("and briefly")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("your AGENTS.md (every project)")
	r.key(tcell.KeyRune, 'u', 0)
	r.waitScreen("noted in your AGENTS.md")
	waitFor(t, "the note in the user's file", func() bool {
		_, err := os.Stat(filepath.Join(cfgDir, "AGENTS.md"))
		return err == nil
	})
	if b, _ := os.ReadFile(filepath.Join(cfgDir, "AGENTS.md")); string(b) != "- answer in French\n  and briefly\n" {
		t.Fatalf("the user's AGENTS.md reads %q", b)
	}

	r.typeText("#never mind")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Remember")
	r.key(tcell.KeyEscape, 0, 0)
	r.waitScreen("the note was not saved")
	if got := ag.promptList(); len(got) != 0 {
		t.Fatalf("a note was sent to the agent: %q", got)
	}
	b, _ := os.ReadFile(filepath.Join(root, "AGENTS.md"))
	if strings.Contains(string(b), "never mind") {
		t.Fatal("a cancelled note was written")
	}
}

// F1 help says what "!" and "#" at the start of a message do.
func TestHelpListsWhatAMessageMayStartWith(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 120, 30)
	r.onUI(func() {
		help := linesText(r.app.help.Lines(140))
		for _, want := range []string{"!command", "Run the command in the terminal", "#note", "Add the note to AGENTS.md"} {
			if !strings.Contains(help, want) {
				t.Errorf("F1 help lacks %q:\n%s", want, help)
			}
		}
	})
}

// A space before "#" or "!" sends the text as a message.
func TestASpaceFirstSendsHashAsAMessage(t *testing.T) {
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.typeText(" #1 is the bug to fix")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the message", func() bool { return len(ag.promptList()) == 1 })
	if got := ag.promptList()[0]; got != " #1 is the bug to fix" {
		t.Errorf("sent %q", got)
	}
}
