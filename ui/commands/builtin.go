package commands

import "github.com/fawn-ide/fawn/backend"

// AddBuiltin adds fawn's own commands that live in this package to c. A
// command whose service the task shown lacks is not offered there, as for
// an agent that has no such thing.
func AddBuiltin(c *Commands) {
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
	c.Add(Task())
	c.Add(Init())
	needs := func(cmd Command, has func(backend.Services) bool) Command {
		cmd.Needs = has
		return cmd
	}
	c.Add(needs(Compact(), func(s backend.Services) bool { return s.Compact != nil }))
	c.Add(needs(Context(), func(s backend.Services) bool { return s.Context != nil }))
	c.Add(needs(Skills(), func(s backend.Services) bool { return s.Skills != nil }))
	c.Add(needs(Agents(), func(s backend.Services) bool { return s.Subagents != nil }))
	rewinds := func(s backend.Services) bool { return s.Rewind != nil }
	c.Add(needs(Rewind(), rewinds))
	c.Add(needs(Diff(), rewinds))
	c.Add(needs(Revert(), rewinds))
	c.Add(needs(Permissions(), func(s backend.Services) bool { return s.Rules != nil }))
	c.Add(needs(Hooks(), func(s backend.Services) bool { return s.Hooks != nil }))
	bg := func(s backend.Services) bool { return s.Background != nil }
	c.Add(needs(Goal(), bg))
	c.Add(needs(Commit(), bg))
}
