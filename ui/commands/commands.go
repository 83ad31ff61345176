// Package commands owns the slash commands typed in the chat ("/mode",
// "/model"): the registry the input's completion and the help overlay
// read, the Host a command is given to act on the frame, and one file per
// command. A command reaches the App only through Host and the typed
// services (backend), so it cannot depend on the App's fields. ui
// imports this package; it imports neither ui nor the panes.
package commands

import (
	"sort"
	"strings"
)

// Command is a slash command typed in the chat ("/clear").
type Command struct {
	Name string // without the slash
	// Args is the argument synopsis for help and completion: "[mode]" for
	// optional arguments (Enter on the command alone runs it bare), "<file>"
	// for a required one (Enter puts the name in and waits for it).
	Args string
	Help string
	// Run executes the command on the UI goroutine; args is the text after
	// the name, trimmed.
	Run func(h Host, args string)
}

// Commands is the slash-command registry: the chat's completion popup and
// the help overlay read it, so a new command is one Add.
type Commands struct {
	byName map[string]*Command
}

// New returns an empty registry.
func New() *Commands { return &Commands{byName: map[string]*Command{}} }

// Add registers cmd, replacing a command of the same name.
func (c *Commands) Add(cmd Command) {
	cp := cmd
	c.byName[cmd.Name] = &cp
}

// Find returns the command called name, or nil.
func (c *Commands) Find(name string) *Command { return c.byName[name] }

// All returns the commands sorted by name.
func (c *Commands) All() []*Command {
	out := make([]*Command, 0, len(c.byName))
	for _, cmd := range c.byName {
		out = append(out, cmd)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Match returns the commands whose names start with prefix, then those that
// merely contain it.
func (c *Commands) Match(prefix string) []*Command {
	var starts, contains []*Command
	for _, cmd := range c.All() {
		switch {
		case strings.HasPrefix(cmd.Name, prefix):
			starts = append(starts, cmd)
		case strings.Contains(cmd.Name, prefix):
			contains = append(contains, cmd)
		}
	}
	return append(starts, contains...)
}

// Parse splits "/name args" into name and args; ok is false when text is
// not a command. "//text" sends "/text" as a message.
func Parse(text string) (name, args string, ok bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/") || strings.HasPrefix(t, "//") || len(t) < 2 {
		return "", "", false
	}
	name, args, _ = strings.Cut(t[1:], " ")
	if strings.ContainsAny(name, "/\n\t") {
		return "", "", false // a path such as /etc/hosts, not a command
	}
	return name, strings.TrimSpace(args), true
}
