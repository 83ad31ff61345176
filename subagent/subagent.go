// Package subagent owns subagent definitions: Markdown files, in the shape
// Claude Code users already wrote, that describe an agent the main agent
// can hand a task to (the task tool). Front matter gives name,
// description, tools (an allow-list; default every tool but task and
// todo_write) and model (a model of the user's configuration; default the
// session's); the body is the subagent's system prompt.
//
// They are read from <config>/agents/ (the user's), .claude/agents/ and
// .fawn/agents/ (the project's; a project's replaces a user's of the same
// name). One built-in, general, needs no file.
//
// A definition is text: it cannot start a program, widen a permission or
// pick a server. Its tools can only narrow what the subagent may call, and
// every call asks exactly as the main agent's would. Its model names one
// of the user's own configured models, never an address.
//
// It imports internal/frontmatter; agent, ui and cmd/fawn import it.
package subagent

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/fawn-ide/fawn/internal/frontmatter"
)

// Def is one subagent.
type Def struct {
	Name, Description string
	// Tools is the allow-list (nil: every tool but task and todo_write).
	Tools []string
	// Model names a configured model ("", "inherit": the session's).
	Model string
	// Prompt is the subagent's system prompt.
	Prompt string
	// Path is the file ("" for the built-in); Scope "built-in", "user" or
	// "project".
	Path, Scope string
	// Err is why the file cannot be used (it is listed all the same).
	Err error
}

// General is the built-in subagent.
var General = Def{
	Name:        "general",
	Description: "A general-purpose agent for a self-contained task: researching a question across the codebase, or carrying out a well-specified change, and reporting back",
	Scope:       "built-in",
	Prompt: `You are a subagent of fawn, a coding agent: the main agent handed you one task. You work in the user's project with the tools you have; the user watches your calls and answers your permission requests.

- Do the task you were given, and only that. Read before you change anything.
- View a file before you edit it; keep edits small and exact.
- When you mention code, give its file path and line number (path/to/file:42).
- Your final answer is all the main agent sees of your work: make it complete and concrete. Say what you found or changed (files, lines), how you checked it, and anything left undone.`,
}

const maxFile = 256 << 10

var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`) })

// Load returns the built-in general agent and the definitions found, sorted
// by name.
func Load(configDir, project string) []Def {
	byName := map[string]Def{General.Name: General}
	type root struct{ dir, scope, project string }
	var roots []root
	if configDir != "" {
		roots = append(roots, root{filepath.Join(configDir, "agents"), "user", ""})
	}
	if project != "" {
		roots = append(roots, root{filepath.Join(project, ".claude", "agents"), "project", project},
			root{filepath.Join(project, ".fawn", "agents"), "project", project})
	}
	for _, r := range roots {
		ents, err := os.ReadDir(r.dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			d := read(filepath.Join(r.dir, e.Name()), r.scope, r.project)
			byName[d.Name] = d
		}
	}
	out := make([]Def, 0, len(byName))
	for _, d := range byName {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func read(path, scope, project string) Def {
	d := Def{Name: strings.TrimSuffix(filepath.Base(path), ".md"), Path: path, Scope: scope}
	data, err := frontmatter.Read(path, project, maxFile)
	if err != nil {
		d.Err = err
		return d
	}
	var fm struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
		Tools       any    `yaml:"tools"`
		Model       string `yaml:"model"`
	}
	body, has, err := frontmatter.Parse(string(data), &fm)
	switch {
	case err != nil:
		d.Err = err
		return d
	case !has:
		d.Err = fmt.Errorf("no front matter (---, name, description, ---)")
		return d
	}
	if fm.Name != "" {
		d.Name = fm.Name
	}
	d.Description, d.Model = strings.TrimSpace(fm.Description), strings.TrimSpace(fm.Model)
	d.Prompt = strings.TrimSpace(body)
	if d.Tools, err = frontmatter.List(fm.Tools); err != nil {
		d.Err = fmt.Errorf("tools: %v", err)
	}
	switch {
	case d.Err != nil:
	case !validName().MatchString(d.Name):
		d.Err = fmt.Errorf("%q is not an agent name (lower-case letters, digits, - and _)", d.Name)
	case d.Description == "":
		d.Err = fmt.Errorf("no description in the front matter")
	case d.Prompt == "":
		d.Err = fmt.Errorf("the body (the agent's system prompt) is empty")
	}
	return d
}

// Allows reports whether the definition lets the subagent call tool.
// Claude Code's names for the same tools are accepted too.
func (d Def) Allows(tool string) bool {
	if tool == "task" || tool == "todo_write" {
		return false // no recursion; the to-do list is the main agent's
	}
	if d.Tools == nil {
		return true
	}
	for _, t := range d.Tools {
		if t == tool || t == "*" {
			return true
		}
		for _, alias := range aliases[t] {
			if alias == tool {
				return true
			}
		}
	}
	return false
}

// ViewOnly reports whether the definition gives text_editor only to read
// files (Claude Code's Read without Edit or Write): its edits are refused.
func (d Def) ViewOnly() bool {
	if d.Tools == nil {
		return false
	}
	read := false
	for _, t := range d.Tools {
		switch t {
		case "text_editor", "*", "Edit", "MultiEdit", "Write":
			return false
		case "Read":
			read = true
		}
	}
	return read
}

// aliases maps Claude Code's tool names to fawn's.
var aliases = map[string][]string{
	"Read":      {"text_editor"},
	"Edit":      {"text_editor"},
	"MultiEdit": {"text_editor"},
	"Write":     {"text_editor"},
	"Bash":      {"bash"},
	"Grep":      {"grep"},
	"Glob":      {"glob"},
	"LS":        {"ls", "tree"},
	"Skill":     {"skill"},
}
