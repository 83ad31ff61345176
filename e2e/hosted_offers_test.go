package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reportSays waits until the scripted agent's report holds want.
func reportSays(tm *Term, report, want string) {
	tm.t.Helper()
	tm.WaitUntil("the agent's report says "+want, func(string) bool {
		b, _ := os.ReadFile(report)
		return strings.Contains(string(b), want)
	})
}

// TestHostedSlashCommands: the hosted agent's own slash commands complete
// in the chat once it has said them, and go to it as a prompt.
func TestHostedSlashCommands(t *testing.T) {
	cfg, report := acpConfig(t, "commands")
	tm := Start(t, 140, 40, "", nil, "--config", cfg, "--agent", "scripted")
	tm.WaitFor("acp/scripted")
	tm.Keys("hello", "Enter")
	reportSays(tm, report, "prompt 1: hello")
	tm.Type("/revi")
	tm.WaitFor("/review [what to review]", "Review the changes")
	tm.Keys("Tab")
	tm.Type("the diff")
	tm.Keys("Enter")
	reportSays(tm, report, "prompt 2: /review the diff")
}

// TestHostedLogin: an agent that wants the user signed in says so in the
// chat with its ways; /agent login runs its own, and the message goes
// through after.
func TestHostedLogin(t *testing.T) {
	cfg, report := acpConfig(t, "auth")
	tm := Start(t, 160, 40, "", nil, "--config", cfg, "--agent", "scripted")
	tm.WaitFor("acp/scripted")
	tm.Keys("hello", "Enter")
	tm.WaitFor("needs you to sign in", "Scripted sign-in", "/agent login")
	tm.Keys("/agent login", "Enter")
	tm.WaitFor("signs in at once")
	tm.Keys("Enter")
	tm.WaitFor("Signed in (Scripted sign-in)")
	tm.Keys("hello again", "Enter")
	reportSays(tm, report, "prompt 1: hello again")
}

// TestHostedMentions: an @-mentioned file goes to the hosted agent as a
// resource of the prompt, its text apart from what was typed.
func TestHostedMentions(t *testing.T) {
	cfg, report := acpConfig(t, "mention-embed")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "notes.txt"), "first\nsecond\n")
	tm := Start(t, 140, 40, dir, nil, "--config", cfg, "--agent", "scripted")
	tm.WaitFor("acp/scripted")
	tm.Type("look at @notes.txt")
	tm.Keys("Enter")
	reportSays(tm, report, `block text "look at @notes.txt"`)
	reportSays(tm, report, `block resource file://`)
	if b, _ := os.ReadFile(report); !strings.Contains(string(b), `/notes.txt "first\nsecond\n"`) {
		t.Errorf("report: %s", b)
	}
}
