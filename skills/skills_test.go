package skills

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

func byName(ss []Skill) map[string]Skill {
	m := map[string]Skill{}
	for _, s := range ss {
		m[s.Name] = s
	}
	return m
}

func TestLoad(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, filepath.Join(user, "skills", "release", "SKILL.md"), "---\nname: release\ndescription: Cut a release (user's)\n---\nTag it.\n")
	write(t, filepath.Join(user, "skills", "notes", "SKILL.md"), "---\ndescription: Write release notes\n---\nBe short.\n")
	write(t, filepath.Join(project, ".fawn", "skills", "release", "SKILL.md"), "---\nname: release\ndescription: Cut a release the project's way\n---\nRun make release, then push the tag.\n")
	write(t, filepath.Join(project, ".fawn", "skills", "release", "scripts", "bump.sh"), "echo bump\n")
	write(t, filepath.Join(project, ".claude", "skills", "pdf", "SKILL.md"), "---\nname: pdf-forms\ndescription: Fill PDF forms\n---\nUse the script.\n")
	write(t, filepath.Join(project, ".fawn", "skills", "broken", "SKILL.md"), "no front matter here\n")
	write(t, filepath.Join(project, ".fawn", "skills", "nodesc", "SKILL.md"), "---\nname: nodesc\n---\nbody\n")
	write(t, filepath.Join(project, ".fawn", "skills", "empty", "README.md"), "not a skill: no SKILL.md\n")
	write(t, filepath.Join(project, ".fawn", "skills", "unclosed", "SKILL.md"), "---\nname: x\n")

	ss := Load(user, project)
	m := byName(ss)
	if len(ss) != 6 {
		t.Errorf("loaded %d skills, want 6: %+v", len(ss), ss)
	}
	for i := 1; i < len(ss); i++ {
		if ss[i-1].Name > ss[i].Name {
			t.Errorf("not sorted: %s before %s", ss[i-1].Name, ss[i].Name)
		}
	}
	rel := m["release"]
	if rel.Scope != "project" || rel.Description != "Cut a release the project's way" || rel.Err != nil {
		t.Errorf("the project's release skill should replace the user's: %+v", rel)
	}
	if n := m["notes"]; n.Scope != "user" || n.Description != "Write release notes" || n.Err != nil {
		t.Errorf("a skill named by its folder: %+v", n)
	}
	if p := m["pdf-forms"]; p.Err != nil || !strings.HasSuffix(p.Dir, filepath.Join(".claude", "skills", "pdf")) {
		t.Errorf(".claude/skills with a front-matter name: %+v", p)
	}
	for name, want := range map[string]string{"broken": "no front matter", "nodesc": "no description", "unclosed": "no closing ---"} {
		if s := m[name]; s.Err == nil || !strings.Contains(s.Err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", name, s.Err, want)
		}
	}
	body, err := rel.Body()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Skill: release", "Run make release, then push the tag.", "- scripts/bump.sh"} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "description:") {
		t.Errorf("the body repeats the front matter:\n%s", body)
	}
	if _, err := m["broken"].Body(); err == nil || !strings.Contains(err.Error(), "cannot be used") {
		t.Errorf("a broken skill's body: %v", err)
	}
}

// A project's SKILL.md that links outside the project is not read: a
// hostile repository must not pull a key file into the prompt.
func TestProjectSkillStaysInside(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "SKILL.md")
	write(t, secret, "---\nname: leak\ndescription: SECRET-KEY-123\n---\nSECRET\n")
	dir := filepath.Join(project, ".fawn", "skills", "leak")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	// A whole skill folder linked from outside is refused too.
	if err := os.Symlink(outside, filepath.Join(project, ".fawn", "skills", "linked")); err != nil {
		t.Fatal(err)
	}
	ss := Load("", project)
	if len(ss) != 1 || ss[0].Name != "leak" {
		t.Errorf("want the linked SKILL.md listed as unusable and the linked folder skipped: %+v", ss)
	}
	for _, s := range ss {
		if s.Err == nil || strings.Contains(s.Description, "SECRET") {
			t.Errorf("%s was read from outside the project: %+v", s.Name, s)
		}
		if _, err := s.Body(); err == nil {
			t.Errorf("%s: the body was read from outside the project", s.Name)
		}
	}
}
