// Package commands owns custom slash commands: Markdown prompt files the
// user or the project keeps, in the shape Claude Code users already wrote.
//
// They are read from <config>/commands/ (the user's), .fawn/commands/ and,
// for compatibility, .claude/commands/ (the project's). The file's name is
// the command (review.md → /review); a subfolder is a namespace
// (git/commit.md → /git:commit). Optional YAML front matter gives
// description, argument-hint, model and allowed-tools. In the body,
// $ARGUMENTS is everything after the command and $1…$9 its words; a body
// with neither gets the arguments appended. @path includes a project
// file's content (a text file inside the project; anything else is left
// as written).
//
// A command is a prompt, never a program: nothing in it runs, so a
// project's commands need no trust. Their model and allowed-tools are read
// and shown but not applied.
//
// It imports internal/frontmatter and trust; ui and cmd/fawn import it.
package commands

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/fawn-ide/fawn/internal/frontmatter"
	"github.com/fawn-ide/fawn/trust"
)

// Command is one custom command.
type Command struct {
	// Name is without the slash: "review", "git:commit".
	Name         string
	Description  string
	ArgumentHint string
	Model        string
	AllowedTools []string
	Body         string
	// Path is the file; Scope "user" or "project".
	Path, Scope string
	// Err is why the file cannot be used (it is listed all the same).
	Err error
}

// maxFile bounds a command file, and what @path includes.
const (
	maxFile    = 256 << 10
	maxInclude = 100 << 10
)

// Load reads the user's and the project's commands; a project command
// replaces a user one of the same name. Sorted by name.
func Load(configDir, project string) []Command {
	byName := map[string]Command{}
	type root struct{ dir, scope, project string }
	var dirs []root
	if configDir != "" {
		dirs = append(dirs, root{filepath.Join(configDir, "commands"), "user", ""})
	}
	if project != "" {
		dirs = append(dirs,
			root{filepath.Join(project, ".claude", "commands"), "project", project},
			root{filepath.Join(project, ".fawn", "commands"), "project", project})
	}
	for _, d := range dirs {
		_ = filepath.WalkDir(d.dir, func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			rel, _ := filepath.Rel(d.dir, p)
			name := strings.ReplaceAll(filepath.ToSlash(strings.TrimSuffix(rel, ".md")), "/", ":")
			byName[name] = read(p, name, d.scope, d.project)
			return nil
		})
	}
	out := make([]Command, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]*$`) })

func read(path, name, scope, project string) Command {
	c := Command{Name: name, Path: path, Scope: scope}
	if !validName().MatchString(name) {
		c.Err = fmt.Errorf("%q is not a command name (letters, digits, - _ . and : only)", name)
		return c
	}
	data, err := frontmatter.Read(path, project, maxFile)
	if err != nil {
		c.Err = err
		return c
	}
	var fm struct {
		Description  string `yaml:"description"`
		ArgumentHint string `yaml:"argument-hint"`
		Model        string `yaml:"model"`
		AllowedTools any    `yaml:"allowed-tools"`
	}
	body, _, err := frontmatter.Parse(string(data), &fm)
	if err != nil {
		c.Err = err
		return c
	}
	c.Description, c.ArgumentHint, c.Model = fm.Description, fm.ArgumentHint, fm.Model
	c.AllowedTools, _ = frontmatter.List(fm.AllowedTools)
	c.Body = strings.TrimSpace(body)
	if c.Body == "" {
		c.Err = fmt.Errorf("the command has no prompt")
	}
	if c.Description == "" {
		c.Description = firstLine(c.Body)
	}
	return c
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 70 {
		s = string(r[:69]) + "…"
	}
	return s
}

// Compiled on first use: most starts of fawn expand no command.
var (
	argRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$(ARGUMENTS|[1-9])`) })
	atRef  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\s)@([^\s]+)`) })
)

// Expand is the prompt the command sends with args: $ARGUMENTS and $1…$9
// replaced (or args appended), @path replaced by the file's content.
func Expand(c Command, args, project string) (string, error) {
	if c.Err != nil {
		return "", fmt.Errorf("/%s cannot run: %s: %v", c.Name, c.Path, c.Err)
	}
	words := strings.Fields(args)
	body := c.Body
	if argRef().MatchString(body) {
		body = argRef().ReplaceAllStringFunc(body, func(m string) string {
			if m == "$ARGUMENTS" {
				return args
			}
			i := int(m[1] - '1')
			if i < len(words) {
				return words[i]
			}
			return ""
		})
	} else if strings.TrimSpace(args) != "" {
		body += "\n\n" + args
	}
	body = atRef().ReplaceAllStringFunc(body, func(m string) string {
		sub := atRef().FindStringSubmatch(m)
		lead, rel := sub[1], strings.TrimRight(sub[2], ".,;:)")
		text, err := include(project, rel)
		if err != nil {
			return m // not a project file (a name, an address): left as written
		}
		return lead + rel + ":\n```" + rel + "\n" + text + "\n```\n"
	})
	return body, nil
}

// include reads a project file for @path.
func include(project, rel string) (string, error) {
	if project == "" {
		return "", fmt.Errorf("@%s: no project", rel)
	}
	abs := filepath.Join(project, filepath.FromSlash(rel))
	data, err := trust.ReadProjectFile(project, abs, 16<<20)
	if err != nil {
		return "", fmt.Errorf("@%s: %v", rel, err)
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return "", fmt.Errorf("@%s is a binary file", rel)
	}
	if len(data) > maxInclude {
		return string(data[:maxInclude]) + "\n[… cut: the file is longer than a command includes]", nil
	}
	return strings.TrimRight(string(data), "\n"), nil
}
