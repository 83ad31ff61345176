package commands

import (
	"strings"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/ui/render"
)

// AddMCPPrompts offers the prompts of the MCP servers of the task shown as
// slash commands, /mcp__SERVER__PROMPT ARGS, while their servers are
// ready: the arguments are bound as mcp.Prompt.Bind says, and the prompt's
// messages are sent as the user's message.
func AddMCPPrompts(h Host) {
	h.Commands().AddSource(func() []Command {
		ms := h.MCP()
		if ms == nil {
			return nil
		}
		ps := ms.Prompts()
		out := make([]Command, 0, len(ps))
		for _, p := range ps {
			out = append(out, promptCommand(p))
		}
		return out
	})
}

// promptCommand is one prompt as a slash command.
func promptCommand(p mcp.Prompt) Command {
	help := p.Description
	if help == "" {
		help = p.Title
	}
	if help != "" {
		help += " · "
	}
	help += "MCP " + p.Server + " prompt"
	return Command{Name: p.Command(), Args: render.Clean(p.Synopsis()), Help: render.Clean(help), Run: func(h Host, args string) {
		vals, err := p.Bind(args)
		if err != nil {
			h.Error(render.Clean(err.Error()))
			return
		}
		ms := h.MCP()
		if ms == nil {
			h.Error("the MCP servers are gone")
			return
		}
		h.Flash("asking " + render.Clean(p.Server) + " for its prompt " + render.Clean(p.Name) + "…")
		ctx := h.Context()
		h.Go(func() {
			text, err := ms.GetPrompt(ctx, p.Server, p.Name, vals)
			h.Post(func() {
				if err != nil {
					h.Error(render.Clean(err.Error()))
					return
				}
				if strings.HasPrefix(strings.TrimSpace(text), "/") {
					text = "/" + strings.TrimSpace(text) // a prompt, not another command
				}
				h.Submit(text)
			})
		})
	}}
}

// WithResources is the @ list's candidates: the resources of the MCP
// servers (ms may be nil), as SERVER:URI, before the project's paths. A
// resource whose mention would not survive the input (a space, a quote,
// a control character) is left out.
func WithResources(ms MCPView, paths []string) []string {
	if ms == nil {
		return paths
	}
	rs := ms.Resources()
	if len(rs) == 0 {
		return paths
	}
	out := make([]string, 0, len(rs)+len(paths))
	for _, r := range rs {
		m := r.Mention()
		if !safetext.IsSafe(m) || strings.ContainsAny(m, " \t\"") {
			continue
		}
		out = append(out, m)
	}
	return append(out, paths...)
}
