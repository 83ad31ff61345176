// Package frontmatter reads the Markdown files users write to extend fawn
// in Claude Code's shape (custom commands, skills, subagents): the file
// itself, within a size limit and, for a project's, inside the project;
// the YAML front matter between "---" lines; and the lists it holds. It
// knows no file's keys: each reader decodes its own.
//
// It imports trust; commands, skills and subagent import it.
package frontmatter

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fawn-ide/fawn/trust"
)

// Read reads the regular file at path, of at most max bytes (never a FIFO
// or a device: see trust.ReadFile). A project's file (project set) is
// read only inside the project, so a symlink cannot pull in a file from
// elsewhere; a user's (project "") may be a symlink to anywhere.
func Read(path, project string, max int64) ([]byte, error) {
	if project != "" {
		return trust.ReadProjectFile(project, path, max)
	}
	return trust.ReadFile(path, max)
}

// Parse decodes the front matter of text into v and returns the body
// after it. has is false when the text has no front matter: the body is
// then all of it and v is left alone. A BOM and CRLF line breaks are
// allowed.
func Parse(text string, v any) (body string, has bool, err error) {
	text = strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return text, false, nil
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return "", true, fmt.Errorf("the front matter has no closing ---")
	}
	if err := yaml.Unmarshal([]byte(rest[:end]), v); err != nil {
		return "", true, fmt.Errorf("front matter: %v", err)
	}
	return strings.TrimPrefix(rest[end+4:], "\n"), true, nil
}

// List is a list of names in front matter, written either as a YAML list
// or as one comma-separated string ("Read, Grep").
func List(v any) ([]string, error) {
	var out []string
	switch t := v.(type) {
	case nil:
	case string:
		for _, s := range strings.Split(t, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	case []any:
		for _, s := range t {
			if s := strings.TrimSpace(fmt.Sprint(s)); s != "" {
				out = append(out, s)
			}
		}
	default:
		return nil, fmt.Errorf("want a list or a comma-separated string")
	}
	return out, nil
}
