// Package skills owns skills: folders with a SKILL.md (front matter name
// and description, then instructions) that teach the agent a project's or
// a user's way of doing something, in the shape Claude Code users already
// wrote. They are read from <config>/skills/, .fawn/skills/ and
// .claude/skills/. Only each skill's name and description go into the
// system prompt; the skill tool loads a body (and lists the folder's
// files) when the model decides the skill applies.
//
// A skill is text, never a program: scripts a skill mentions run only
// through the agent's bash tool, which asks like any command.
//
// It imports internal/frontmatter; agent, tools, ui and cmd/fawn import it.
package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fawn-ide/fawn/internal/frontmatter"
)

// Skill is one skill.
type Skill struct {
	Name, Description string
	// Dir is the skill's folder; Scope "user" or "project".
	Dir, Scope string
	// Err is why it cannot be used (it is listed all the same).
	Err error
	// project is the project a project skill belongs to: its SKILL.md
	// must lie inside it.
	project string
}

const maxSkill = 256 << 10

// Load reads the skills; a project's replaces a user's of the same name.
func Load(configDir, project string) []Skill {
	byName := map[string]Skill{}
	type root struct{ dir, scope, project string }
	var roots []root
	if configDir != "" {
		roots = append(roots, root{filepath.Join(configDir, "skills"), "user", ""})
	}
	if project != "" {
		roots = append(roots, root{filepath.Join(project, ".claude", "skills"), "project", project},
			root{filepath.Join(project, ".fawn", "skills"), "project", project})
	}
	for _, r := range roots {
		ents, err := os.ReadDir(r.dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !e.IsDir() {
				continue
			}
			dir := filepath.Join(r.dir, e.Name())
			if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err != nil {
				continue
			}
			s := Skill{Name: e.Name(), Dir: dir, Scope: r.scope, project: r.project}
			if fm, _, err := s.read(); err != nil {
				s.Err = err
			} else {
				if fm.Name != "" {
					s.Name = fm.Name
				}
				s.Description = fm.Description
				if s.Description == "" {
					s.Err = fmt.Errorf("SKILL.md has no description in its front matter")
				}
			}
			byName[s.Name] = s
		}
	}
	out := make([]Skill, 0, len(byName))
	for _, s := range byName {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

type frontMatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// read parses the skill's SKILL.md; a project's must lie inside the
// project (a symlink must not pull in a file from elsewhere).
func (s Skill) read() (frontMatter, string, error) {
	var fm frontMatter
	data, err := frontmatter.Read(filepath.Join(s.Dir, "SKILL.md"), s.project, maxSkill)
	if err != nil {
		return fm, "", err
	}
	body, has, err := frontmatter.Parse(string(data), &fm)
	switch {
	case err != nil:
		return fm, "", fmt.Errorf("SKILL.md: %v", err)
	case !has:
		return fm, "", fmt.Errorf("SKILL.md has no front matter (---, name, description, ---)")
	}
	return fm, strings.TrimSpace(body), nil
}

// Body is a skill's instructions and the files of its folder, as the
// skill tool returns them.
func (s Skill) Body() (string, error) {
	if s.Err != nil {
		return "", fmt.Errorf("the skill %s cannot be used: %v", s.Name, s.Err)
	}
	_, body, err := s.read()
	if err != nil {
		return "", err
	}
	var files []string
	_ = filepath.WalkDir(s.Dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && len(files) < 200 {
			if rel, err := filepath.Rel(s.Dir, p); err == nil && rel != "SKILL.md" {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	var b strings.Builder
	fmt.Fprintf(&b, "# Skill: %s\n(folder: %s)\n\n%s\n", s.Name, s.Dir, body)
	if len(files) > 0 {
		b.WriteString("\nFiles in the skill's folder (read them with the file tools when the instructions call for them):\n")
		for _, f := range files {
			b.WriteString("- " + f + "\n")
		}
	}
	return b.String(), nil
}
