package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func find(cs []Command, name string) *Command {
	for i := range cs {
		if cs[i].Name == name {
			return &cs[i]
		}
	}
	return nil
}

func TestLoadAndExpand(t *testing.T) {
	cfg, project := t.TempDir(), t.TempDir()
	write(t, filepath.Join(cfg, "commands", "review.md"), "Review this.\n")
	write(t, filepath.Join(project, ".fawn", "commands", "review.md"), "---\ndescription: Review a file\nargument-hint: <file>\nallowed-tools: bash, text_editor\n---\nReview @$1 for $2 problems.\n")
	write(t, filepath.Join(project, ".claude", "commands", "git", "commit.md"), "Write a commit message for: $ARGUMENTS\n")
	write(t, filepath.Join(project, ".claude", "commands", "plain.md"), "Explain the code.\n")
	write(t, filepath.Join(project, ".fawn", "commands", "broken.md"), "---\ndescription: [unclosed\n---\nx\n")
	write(t, filepath.Join(project, ".fawn", "commands", "empty.md"), "---\ndescription: nothing\n---\n")
	write(t, filepath.Join(project, "main.go"), "package main\n")
	cs := Load(cfg, project)

	r := find(cs, "review")
	if r == nil || r.Scope != "project" || r.Description != "Review a file" || r.ArgumentHint != "<file>" || len(r.AllowedTools) != 2 {
		t.Fatalf("review: %+v", r)
	}
	got, err := Expand(*r, "main.go style", project)
	if err != nil || !strings.Contains(got, "Review main.go:\n```main.go\npackage main\n```") || !strings.Contains(got, "for style problems.") {
		t.Errorf("review expands to %q, %v", got, err)
	}
	c := find(cs, "git:commit")
	if c == nil {
		t.Fatalf("no namespaced command: %+v", cs)
	}
	if got, _ := Expand(*c, "fix the parser", project); got != "Write a commit message for: fix the parser" {
		t.Errorf("git:commit: %q", got)
	}
	p := find(cs, "plain")
	if got, _ := Expand(*p, "main.go please", project); got != "Explain the code.\n\nmain.go please" {
		t.Errorf("plain: %q", got)
	}
	if p.Description != "Explain the code." {
		t.Errorf("description from the body: %q", p.Description)
	}
	for _, name := range []string{"broken", "empty"} {
		b := find(cs, name)
		if b == nil || b.Err == nil {
			t.Errorf("%s: listed without its error: %+v", name, b)
			continue
		}
		if _, err := Expand(*b, "", project); err == nil || !strings.Contains(err.Error(), b.Path) {
			t.Errorf("%s ran: %v", name, err)
		}
	}
}

// @ outside the project, a missing file or an address is left as written.
func TestIncludeStaysInside(t *testing.T) {
	project := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	write(t, outside, "SECRET")
	if err := os.Symlink(outside, filepath.Join(project, "link.txt")); err != nil {
		t.Fatal(err)
	}
	c := Command{Name: "x", Body: "see @link.txt and @../secret.txt and @nope.go, mail me@example.com"}
	got, err := Expand(c, "", project)
	if err != nil || strings.Contains(got, "SECRET") || !strings.Contains(got, "@nope.go") || !strings.Contains(got, "me@example.com") {
		t.Errorf("%q %v", got, err)
	}
}
