package subagent

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

func TestLoad(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, filepath.Join(user, "agents", "reviewer.md"), "---\nname: reviewer\ndescription: user's reviewer\n---\nUser prompt.\n")
	write(t, filepath.Join(user, "agents", "writer.md"), "---\ndescription: Writes docs\ntools: Read, Grep, Glob\nmodel: mini\n---\nYou write docs.\n")
	write(t, filepath.Join(project, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews code for bugs\ntools:\n  - text_editor\n  - grep\n---\nYou review code.\n")
	write(t, filepath.Join(project, ".fawn", "agents", "bad.md"), "no front matter\n")
	write(t, filepath.Join(project, ".fawn", "agents", "Bad Name.md"), "---\ndescription: x\n---\nbody\n")
	write(t, filepath.Join(project, ".fawn", "agents", "empty.md"), "---\ndescription: x\n---\n\n")
	write(t, filepath.Join(project, ".fawn", "agents", "notes.txt"), "not an agent\n")

	m := map[string]Def{}
	for _, d := range Load(user, project) {
		m[d.Name] = d
	}
	if g := m["general"]; g.Scope != "built-in" || g.Err != nil || g.Prompt == "" {
		t.Errorf("general: %+v", g)
	}
	if r := m["reviewer"]; r.Scope != "project" || r.Description != "Reviews code for bugs" || r.Prompt != "You review code." || strings.Join(r.Tools, ",") != "text_editor,grep" || r.Err != nil {
		t.Errorf("the project's reviewer should replace the user's: %+v", r)
	}
	w := m["writer"]
	if w.Err != nil || w.Model != "mini" || !w.Allows("text_editor") || !w.Allows("grep") || w.Allows("bash") || !w.ViewOnly() {
		t.Errorf("writer (Claude Code tool names, Read only): %+v", w)
	}
	for name, want := range map[string]string{"bad": "no front matter", "Bad Name": "not an agent name", "empty": "body"} {
		if d, ok := m[name]; !ok || d.Err == nil || !strings.Contains(d.Err.Error(), want) {
			t.Errorf("%s: %+v, want an error saying %q", name, d, want)
		}
	}
	if len(m) != 6 {
		t.Errorf("%d agents: %v", len(m), m)
	}
	if General.Allows("task") || General.Allows("todo_write") || !General.Allows("bash") || General.ViewOnly() {
		t.Errorf("general's tools")
	}
}

func TestProjectAgentStaysInside(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "x.md"), "---\ndescription: SECRET\n---\nSECRET\n")
	if err := os.MkdirAll(filepath.Join(project, ".fawn", "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(project, ".fawn", "agents", "x.md")); err != nil {
		t.Fatal(err)
	}
	for _, d := range Load("", project) {
		if d.Name == "x" && (d.Err == nil || strings.Contains(d.Prompt, "SECRET")) {
			t.Errorf("read from outside the project: %+v", d)
		}
	}
}
