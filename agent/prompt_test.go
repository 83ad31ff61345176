package agent

import (
	"bytes"
	"strings"
	"testing"
	"text/template"

	"github.com/fawn-ide/fawn/skills"
)

// TestSystemPromptAsTheTemplateWrote renders the system prompt for every
// combination of the parts that come and go (git or not, tools, skills,
// instructions) and compares it byte for byte with what the text/template
// it replaced wrote (testdata/prompt.tmpl, kept for this test). A change to
// the prompt's wording changes both.
func TestSystemPromptAsTheTemplateWrote(t *testing.T) {
	tmpl := template.Must(template.ParseFiles("testdata/prompt.tmpl"))
	sks := []skills.Skill{
		{Name: "release", Description: "Cut a release: tag, changelog, {{.Root}} left as it is"},
		{Name: "review", Description: "Review a diff <b>&</b> say what is wrong"},
	}
	ins := []instructions{
		{Path: "/p/AGENTS.md", Text: "Run make test.\n\n- tabs, not spaces\n{{.OS}}"},
		{Path: "/home/u/.config/fawn/AGENTS.md", Text: "Answer in French."},
	}
	n := 0
	for mask := range 1 << 5 {
		d := promptData{
			Root: "/home/u/proj $HOME", OS: "linux (Debian GNU/Linux 13) amd64",
			Date: "Friday 27 November 2026",
		}
		if mask&1 != 0 {
			d.Git, d.Branch = true, "main"
			d.Status = "2 changed, 1 untracked file(s):\n   M a.go\n   M b.go\n  ?? c.go"
		}
		if mask&2 != 0 {
			d.Tools = "view, edit, bash, todo_write"
		}
		if mask&4 != 0 {
			d.Skills = sks
		}
		if mask&8 != 0 {
			d.Instructions = ins
		}
		if mask&16 != 0 { // one of each, with surrounding white space
			d.Skills, d.Instructions = sks[:1], []instructions{{Path: "/p/CLAUDE.md", Text: "  x  \n"}}
			d.Status = " clean. "
		}
		var want bytes.Buffer
		if err := tmpl.Execute(&want, d); err != nil {
			t.Fatal(err)
		}
		w := strings.TrimSpace(want.String()) + "\n"
		if got := buildSystemPrompt(d); got != w {
			t.Errorf("mask %05b: the prompt differs from the template's\n--- got\n%s\n--- want\n%s", mask, got, w)
		}
		n++
	}
	if n != 32 {
		t.Fatalf("compared %d prompts", n)
	}
}
