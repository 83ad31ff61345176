package config

import (
	"fmt"
	"strings"

	"github.com/spf13/viper"
)

// decode turns the flat effective values into a Config through viper.
func decode(values map[string]any, cfg *Config) error {
	v := viper.New()
	for k, x := range values {
		switch k {
		case "models.named":
			x = namedDurations(x)
		case "ui.keys":
			// Action names hold dots (editor.save), which viper would
			// read as nested keys and drop: decoded by hand below.
			continue
		case "agents":
			// viper lower-cases map keys: an agent's environment variable
			// names must stay as written. Decoded by hand below.
			continue
		}
		v.Set(k, x)
	}
	if err := v.Unmarshal(cfg); err != nil {
		return err
	}
	cfg.Agents = decodeAgents(values["agents"])
	mcpEnvAsWritten(values["tools.mcp_servers"], cfg.Tools.MCPServers)
	lspEnvAsWritten(values["lsp"], cfg.LSP)
	keys, _ := values["ui.keys"].(map[string]any)
	for name, raw := range keys {
		var list []string
		switch x := raw.(type) {
		case string:
			list = []string{x}
		case []any:
			for _, e := range x {
				if s, ok := e.(string); ok {
					list = append(list, s)
				}
			}
		}
		if cfg.UI.Keys == nil {
			cfg.UI.Keys = map[string][]string{}
		}
		cfg.UI.Keys[name] = list
	}
	return nil
}

// decodeAgents reads the agents entries (checked by checkAgents) with their
// names and environment variables as written.
func decodeAgents(v any) map[string]ACPAgent {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]ACPAgent, len(m))
	for name, e := range m {
		a, _ := e.(map[string]any)
		var ag ACPAgent
		ag.Command, _ = a["command"].(string)
		if args, ok := a["args"].([]any); ok {
			for _, x := range args {
				ag.Args = append(ag.Args, fmt.Sprint(x))
			}
		}
		if env, ok := a["env"].(map[string]any); ok {
			ag.Env = make(map[string]string, len(env))
			for k, x := range env {
				ag.Env[k] = fmt.Sprint(x)
			}
		}
		out[name] = ag
	}
	return out
}

// envAsWritten is an entry's env mapping with its variable names as the
// file wrote them (viper lower-cases map keys: GITHUB_TOKEN would reach the
// server as github_token); nil when the entry has none.
func envAsWritten(entry any) map[string]string {
	e, _ := entry.(map[string]any)
	env, ok := e["env"].(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(env))
	for k, x := range env {
		out[k] = fmt.Sprint(x)
	}
	return out
}

// mcpEnvAsWritten gives the MCP servers viper decoded their env names as
// written. Their names stay lower-cased, as viper reads them: they are in
// the tools' names (mcp__github__…), which the permission rules users
// wrote (a deny rule too) compare as they are.
func mcpEnvAsWritten(raw any, decoded map[string]MCPServer) {
	m, _ := raw.(map[string]any)
	for name, entry := range m {
		srv, ok := decoded[strings.ToLower(name)]
		if !ok {
			continue
		}
		if env := envAsWritten(entry); env != nil {
			srv.Env = env
			decoded[strings.ToLower(name)] = srv
		}
	}
}

// lspEnvAsWritten gives the language servers viper decoded their env
// names as written. Their names stay lower-cased: an entry named as a
// built-in server (gopls) changes that one.
func lspEnvAsWritten(raw any, decoded map[string]LSPServer) {
	m, _ := raw.(map[string]any)
	for name, entry := range m {
		srv, ok := decoded[strings.ToLower(name)]
		if !ok {
			continue
		}
		if env := envAsWritten(entry); env != nil {
			srv.Env = env
			decoded[strings.ToLower(name)] = srv
		}
	}
}

// namedDurations reads the timeouts of models.named entries as the
// top-level keys are read: "90s", or a bare number of seconds.
func namedDurations(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for name, e := range m {
		mc, ok := e.(map[string]any)
		if !ok {
			out[name] = e
			continue
		}
		cp := make(map[string]any, len(mc))
		for k, x := range mc {
			if k == "timeout" || k == "stall_timeout" {
				if d, ok := coerce(kDuration, x); ok {
					x = d
				}
			}
			cp[k] = x
		}
		out[name] = cp
	}
	return out
}
