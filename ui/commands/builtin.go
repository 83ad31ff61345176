package commands

import "github.com/fawn-ide/fawn/backend"

// AddBuiltin adds fawn's own commands that live in this package to c. A
// command whose service s lacks is left out, as for an agent that has no
// such thing.
func AddBuiltin(c *Commands, s backend.Services) {
	c.Add(Help())
	c.Add(Clear())
	c.Add(Exit())
	c.Add(Mode())
	c.Add(Model())
	c.Add(Tools())
	c.Add(MCP())
	c.Add(LSP())
	c.Add(Resume())
	c.Add(NewSession())
	c.Add(Export())
	if s.Compact != nil {
		c.Add(Compact())
	}
	if s.Context != nil {
		c.Add(Context())
	}
	if s.Skills != nil {
		c.Add(Skills())
	}
	if s.Subagents != nil {
		c.Add(Agents())
	}
	if s.Rewind != nil {
		c.Add(Rewind())
		c.Add(Diff())
		c.Add(Revert())
	}
	if s.Rules != nil {
		c.Add(Permissions())
	}
	if s.Hooks != nil {
		c.Add(Hooks())
	}
}
