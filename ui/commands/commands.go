// Package commands owns the slash commands typed in the chat ("/mode",
// "/model"): the registry the input's completion and the help overlay
// read, the Host a command is given to act on the frame, and one file per
// command. A command reaches the App only through Host and the typed
// services (backend), so it cannot depend on the App's fields. "#note"
// in the chat is here too (Remember): a question through Host, a write
// through project.WriteFile. ui imports this package; it imports neither
// ui nor the panes.
package commands

import (
	"sort"
	"strings"

	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/safetext"
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
	// Needs says whether the services of the task shown offer what the
	// command runs on; nil means it always can. A command not offered is
	// neither completed, listed nor run.
	Needs func(backend.Services) bool
}

// Commands is the slash-command registry: the chat's completion popup and
// the help overlay read it, so a new command is one Add.
type Commands struct {
	byName map[string]*Command
	// sources give commands that come and go (an MCP server's prompts),
	// asked each time the registry is read.
	sources []func() []Command
	// services are those of the task shown (Command.Needs reads them).
	services func() backend.Services
}

// New returns an empty registry.
func New() *Commands { return &Commands{byName: map[string]*Command{}} }

// Add registers cmd, replacing a command of the same name.
func (c *Commands) Add(cmd Command) {
	cp := cmd
	c.byName[cmd.Name] = &cp
}

// AddSource registers commands that come and go (an MCP server's
// prompts): src is asked, on the UI goroutine, each time the registry is
// read. A command Add registered keeps its name.
func (c *Commands) AddSource(src func() []Command) { c.sources = append(c.sources, src) }

// lookup is the command called name, added or from a source.
func (c *Commands) lookup(name string) *Command {
	if cmd := c.byName[name]; cmd != nil {
		return cmd
	}
	for _, src := range c.sources {
		for _, cmd := range src() {
			if cmd.Name == name {
				return &cmd
			}
		}
	}
	return nil
}

// SetServices tells the registry where the services of the task shown
// are, for the commands that need one.
func (c *Commands) SetServices(f func() backend.Services) { c.services = f }

func (c *Commands) offered(cmd *Command) bool {
	if cmd.Needs == nil {
		return true
	}
	var s backend.Services
	if c.services != nil {
		s = c.services()
	}
	return cmd.Needs(s)
}

// Find returns the command called name, or nil when there is none or the
// task shown does not offer it. fawn's own command of a name wins over
// the agent's (which "//name" still sends to the agent).
func (c *Commands) Find(name string) *Command {
	if cmd := c.lookup(name); cmd != nil && c.offered(cmd) {
		return cmd
	}
	for _, cmd := range c.agentCommands() {
		if cmd.Name == name {
			return cmd
		}
	}
	return nil
}

// agentCommands are the agent's own slash commands (backend's
// AgentCommands), as commands that send "/name input" to the agent as a
// prompt.
func (c *Commands) agentCommands() []*Command {
	if c.services == nil {
		return nil
	}
	ac := c.services().AgentCommands
	if ac == nil {
		return nil
	}
	var out []*Command
	for _, a := range ac.AgentCommands() {
		name := a.Name
		args := ""
		if a.Hint != "" {
			args = "[" + safetext.Line(a.Hint) + "]"
		}
		help := safetext.Line(a.Description)
		if help == "" {
			help = "the agent's own command"
		}
		out = append(out, &Command{Name: name, Args: args, Help: help + " (the agent's)", Run: func(h Host, args string) {
			text := "//" + name
			if args != "" {
				text += " " + args
			}
			h.Submit(text) // "//" sends the rest to the agent as it is
		}})
	}
	return out
}

// Known reports whether a command called name exists, offered or not.
func (c *Commands) Known(name string) bool { return c.lookup(name) != nil }

// All returns the commands the task shown offers, sorted by name.
func (c *Commands) All() []*Command {
	out := make([]*Command, 0, len(c.byName))
	for _, cmd := range c.byName {
		if c.offered(cmd) {
			out = append(out, cmd)
		}
	}
	for _, src := range c.sources {
		for _, cmd := range src() {
			if c.byName[cmd.Name] == nil && c.offered(&cmd) {
				out = append(out, &cmd)
			}
		}
	}
	for _, cmd := range c.agentCommands() {
		if own := c.lookup(cmd.Name); own == nil || !c.offered(own) {
			out = append(out, cmd)
		}
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
