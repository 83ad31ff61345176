package panes

import (
	"testing"

	"github.com/fawn-ide/fawn/ui/theme"
)

// The agent terminal shows each command, its output line by line as it
// arrives (colours dropped, control characters made visible), whose
// command a line continues when two run at once, and how each ended.
func TestAgentTermText(t *testing.T) {
	th := theme.Get("")
	v := NewAgentTerm(&th, nil)
	v.Command("a", "go test ./...")
	v.Output("a", "ok  \x1b[32mpkg\x1b[0m")
	v.Output("a", " 0.1s\nPA")
	v.Command("b", "ls")
	v.Output("b", "main.go\n")
	v.Output("a", "SS\n")
	if v.Title() != "Agent · running" {
		t.Errorf("title %q", v.Title())
	}
	v.Ended("a", false)
	v.Ended("b", true)
	want := "$ go test ./...\nok  pkg 0.1s\nPA\n$ ls\nmain.go\n(go test ./...)\nSS\n[done]\n[failed]\n"
	if got := v.Text(); got != want {
		t.Errorf("text:\n%q\nwant:\n%q", got, want)
	}
	if v.Title() != "Agent" {
		t.Errorf("title %q", v.Title())
	}
}
