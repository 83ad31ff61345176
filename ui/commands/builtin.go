package commands

import "github.com/fawn-ide/fawn/ui/services"

// AddBuiltin adds fawn's own commands that live in this package to c. A
// command whose service s lacks is left out, as for an agent that has no
// such thing.
func AddBuiltin(c *Commands, s services.Services) {
	c.Add(Mode())
	c.Add(Model())
	c.Add(Tools())
	c.Add(MCP())
	c.Add(LSP())
	if s.Rules != nil {
		c.Add(Permissions())
	}
	if s.Hooks != nil {
		c.Add(Hooks())
	}
}
