package commands

import "strings"

// initPrompt is what /init asks of the agent.
const initPrompt = `Write or update the file AGENTS.md at the root of this project: the instructions every coding agent working here (you included) reads at the start of each session.

First learn the project: its README, its build, package and CI files (Makefile, go.mod, package.json, pyproject.toml, Cargo.toml, .github/workflows, …), the layout of its directories, and any instructions other tools keep (CLAUDE.md, .cursorrules, .cursor/rules/, .github/copilot-instructions.md) — take what is useful from them.

Then write AGENTS.md, short and specific to this project:
- the commands that build, lint and test it, and how to run a single test;
- the architecture in broad strokes: what lives where, and what one sees only by reading several files;
- the conventions a newcomer would get wrong (style, naming, errors, how tests are written).

Leave out what anyone sees at a glance (a list of every file, generic advice such as "write tests") and invent nothing: only what the project shows. If AGENTS.md exists, improve it and keep what is still true rather than starting over. Keep it under about 100 lines.`

// Init is /init: the agent writes or updates the project's AGENTS.md from
// what it reads of the project, in a turn like any other (its write asks
// as every edit does). Words after /init are added to the request.
func Init() Command {
	return Command{Name: "init", Args: "[focus]", Help: "Have the agent write or update AGENTS.md (what it should know of this project)", Run: func(h Host, args string) {
		text := initPrompt
		if args = strings.TrimSpace(args); args != "" {
			text += "\n\nThe user adds: " + args
		}
		h.Prompt("/init"+strings.TrimRight(" "+args, " "), text)
	}}
}
