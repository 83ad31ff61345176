package commands

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/mcp"
	"github.com/fawn-ide/fawn/ui/render"
)

// Tools is /tools: the tools the model can call, by MCP server.
func Tools() Command {
	return Command{Name: "tools", Help: "List the tools the model can call, by MCP server", Run: func(h Host, _ string) {
		h.Info(toolsText(h.Agent().ToolNames(), h.MCP()))
	}}
}

// MCP is /mcp: each MCP server's state; /mcp restart NAME restarts one.
func MCP() Command {
	return Command{Name: "mcp", Args: "[restart NAME]", Help: "Show each MCP server's state, tools and last error; restart one", Run: func(h Host, args string) {
		ms := h.MCP()
		if ms == nil || len(ms.Status()) == 0 {
			h.Info("no MCP servers are configured: add them under tools.mcp_servers (a command or a url), then restart fawn")
			return
		}
		if name, ok := strings.CutPrefix(args, "restart"); ok && (name == "" || name[0] == ' ') {
			name = strings.TrimSpace(name)
			if name == "" {
				h.Error("which server? /mcp restart NAME")
				return
			}
			if err := ms.Restart(name); err != nil {
				h.Error(err.Error())
				return
			}
			h.Info("MCP: restarting " + name)
			return
		}
		if args != "" {
			h.Error(fmt.Sprintf("unknown /mcp argument %q — /mcp shows the servers, /mcp restart NAME restarts one", args))
			return
		}
		h.Info(mcpText(ms.Status()))
	}}
}

// stateText is a server's state in words: "ready", "restarting in 4s".
func stateText(st mcp.Status) string {
	s := string(st.State)
	if st.State == mcp.Restarting && !st.Retry.IsZero() {
		if d := time.Until(st.Retry); d > 0 {
			s += " in " + render.HumanDuration(d.Round(100*time.Millisecond))
		} else {
			s += " now"
		}
	}
	return s
}

// shortTool is an MCP tool's name without its mcp__server__ prefix.
func shortTool(server, name string) string {
	if i := strings.Index(name[min(len(name), 5):], "__"); strings.HasPrefix(name, "mcp__") && i >= 0 {
		return name[5+i+2:]
	}
	return name
}

// toolsText lists the built-in tools, then each MCP server's, as soon as
// the server is ready (before the next turn binds them).
func toolsText(toolNames []string, ms MCPView) string {
	mcpTools := map[string]bool{}
	var statuses []mcp.Status
	if ms != nil {
		statuses = ms.Status()
		for _, st := range statuses {
			for _, n := range st.Tools {
				mcpTools[n] = true
			}
		}
	}
	var builtin []string
	for _, n := range toolNames {
		if !mcpTools[n] && !strings.HasPrefix(n, "mcp__") {
			builtin = append(builtin, n)
		}
	}
	var b strings.Builder
	if len(builtin) == 0 && len(statuses) == 0 {
		return "the model has no tools"
	}
	b.WriteString("tools: " + strings.Join(builtin, ", "))
	sort.Slice(statuses, func(i, j int) bool { return statuses[i].Name < statuses[j].Name })
	for _, st := range statuses {
		fmt.Fprintf(&b, "\nMCP %s (%s)", st.Name, stateText(st))
		if len(st.Tools) > 0 {
			var names []string
			for _, n := range st.Tools {
				names = append(names, shortTool(st.Name, n))
			}
			b.WriteString(": " + strings.Join(names, ", "))
		}
	}
	return b.String()
}

// mcpText is /mcp: every server with its endpoint, state, tools and last error.
func mcpText(statuses []mcp.Status) string {
	var b strings.Builder
	for i, st := range statuses {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s — %s · %s", st.Name, stateText(st), words.Plural(len(st.Tools), "tool", "tools"))
		if st.Prompts > 0 {
			fmt.Fprintf(&b, " · %s (/mcp__%s__…)", words.Plural(st.Prompts, "prompt", "prompts"), render.Clean(st.Name))
		}
		if st.Resources > 0 {
			fmt.Fprintf(&b, " · %s (@%s:…)", words.Plural(st.Resources, "resource", "resources"), render.Clean(st.Name))
		}
		fmt.Fprintf(&b, " · %s", render.Clean(st.Endpoint))
		if st.Restarts > 0 {
			fmt.Fprintf(&b, " · restarted %s", words.Plural(st.Restarts, "time", "times"))
		}
		if st.LastError != "" {
			fmt.Fprintf(&b, "\n  last error: %s", render.Clean(st.LastError))
		}
	}
	return b.String() + "\n(/mcp restart NAME restarts a server)"
}
