package config

import (
	"path/filepath"
	"time"
)

// Config is the effective configuration. Every package reads the part it needs.
type Config struct {
	Models      Models      `mapstructure:"models" yaml:"models"`
	Tools       Tools       `mapstructure:"tools" yaml:"tools"`
	Permissions Permissions `mapstructure:"permissions" yaml:"permissions"`
	Shell       Shell       `mapstructure:"shell" yaml:"shell"`
	UI          UI          `mapstructure:"ui" yaml:"ui"`
	Editor      Editor      `mapstructure:"editor" yaml:"editor"`
	Chat        Chat        `mapstructure:"chat" yaml:"chat"`
	Agent       Agent       `mapstructure:"agent" yaml:"agent"`
	Worktrees   Worktrees   `mapstructure:"worktrees" yaml:"worktrees"`
	Sandbox     Sandbox     `mapstructure:"sandbox" yaml:"sandbox"`
	Goal        Goal        `mapstructure:"goal" yaml:"goal"`
	// Hooks are the hook commands by event (package hooks parses them); a
	// project's apply only once its directory is trusted.
	Hooks map[string]any `mapstructure:"hooks" yaml:"hooks"`
	// LSP changes the built-in language servers (by name: gopls,
	// typescript, pyright, pylsp, rust-analyzer, clangd) or adds others.
	LSP map[string]LSPServer `mapstructure:"lsp" yaml:"lsp"`
	// Web configures web_fetch and web_search; only the user's own layers
	// set it (a project's file cannot choose where fawn sends queries or
	// which private hosts it may reach).
	Web Web `mapstructure:"web" yaml:"web"`
	// Agents are the agents fawn can host over ACP instead of its own
	// (fawn --agent NAME); a project's apply only once it is trusted.
	Agents map[string]ACPAgent `mapstructure:"agents" yaml:"agents"`

	// Paths, filled by Load (not keys of the file).
	ProjectDir string `mapstructure:"-" yaml:"-"`
	ConfigDir  string `mapstructure:"-" yaml:"-"` // $FAWN_HOME or $XDG_CONFIG_HOME/fawn
	DataDir    string `mapstructure:"-" yaml:"-"` // $FAWN_HOME or $XDG_DATA_HOME/fawn
}

// Models holds the chat model fawn starts with and the other models /model
// offers, by name.
type Models struct {
	Chat Model `mapstructure:"chat_model" yaml:"chat_model"`
	// Named are more models to switch to in a session (/model), each with
	// its own provider, server and key; unset limits and timeouts are
	// chat_model's.
	Named map[string]Model `mapstructure:"named" yaml:"named"`
	// Background names the entries of Named that take background work and
	// subagents, so chat_model's slots (and their prompt cache) stay the
	// foreground conversation's.
	Background []string `mapstructure:"background" yaml:"background"`
	// FailoverCooldown is how long an endpoint that failed over stays
	// skipped before fawn tries it again.
	FailoverCooldown time.Duration `mapstructure:"failover_cooldown" yaml:"failover_cooldown"`
	// RetryDelay is the first wait before a failed model request is sent
	// again; it doubles with every attempt.
	RetryDelay time.Duration `mapstructure:"retry_delay" yaml:"retry_delay"`
}

// Model configures one model endpoint.
type Model struct {
	// Type is openai (any OpenAI-compatible server), anthropic or demo.
	Type          string         `mapstructure:"type" yaml:"type"`
	Model         string         `mapstructure:"model" yaml:"model"`
	BaseURL       string         `mapstructure:"base_url" yaml:"base_url"`
	APIKey        string         `mapstructure:"api_key" yaml:"api_key"`
	Temperature   *float64       `mapstructure:"temperature" yaml:"temperature"`
	MaxTokens     int            `mapstructure:"max_tokens" yaml:"max_tokens"`
	ContextWindow int            `mapstructure:"context_window" yaml:"context_window"`
	ExtraBody     map[string]any `mapstructure:"extra_body" yaml:"extra_body"`
	// Vision says whether the model takes images: auto (by its name), yes, no.
	Vision string `mapstructure:"vision" yaml:"vision"`
	// Timeout bounds a whole model request; StallTimeout bounds the silence between two chunks.
	Timeout      time.Duration `mapstructure:"timeout" yaml:"timeout"`
	StallTimeout time.Duration `mapstructure:"stall_timeout" yaml:"stall_timeout"`
	// PricePerMTok is what the model costs in US dollars per million
	// tokens: input, output and cached (prompt tokens read from the cache;
	// default: the input price). Empty: package pricing's table, by name.
	PricePerMTok map[string]float64 `mapstructure:"price_per_mtok" yaml:"price_per_mtok"`
	// Parallel is the most requests fawn sends this endpoint at once (0: 1).
	Parallel int `mapstructure:"parallel" yaml:"parallel"`
	// Fallbacks name entries of models.named to use, in order, when this
	// one fails after its retries.
	Fallbacks []string `mapstructure:"fallbacks" yaml:"fallbacks"`
	// Demo is set when fawn fell back to the offline demo model because no
	// provider is configured; DemoReason says why.
	Demo       bool   `mapstructure:"-" yaml:"-"`
	DemoReason string `mapstructure:"-" yaml:"-"`
}

// Tools configures the agent's tools.
type Tools struct {
	Bash       Bash                 `mapstructure:"bash" yaml:"bash"`
	MCPServers map[string]MCPServer `mapstructure:"mcp_servers" yaml:"mcp_servers"`
}

// Bash configures the shell tool and the terminal.
type Bash struct {
	Timeout    time.Duration `mapstructure:"timeout" yaml:"timeout"`
	Scrollback int           `mapstructure:"scrollback" yaml:"scrollback"` // lines kept by the terminal pane
}

// MCPServer is one MCP server: a command (stdio) or a URL (streamable HTTP).
type MCPServer struct {
	Command string            `mapstructure:"command" yaml:"command,omitempty"`
	Args    []string          `mapstructure:"args" yaml:"args,omitempty"`
	Env     map[string]string `mapstructure:"env" yaml:"env,omitempty"`
	URL     string            `mapstructure:"url" yaml:"url,omitempty"`
}

// Permissions configures what asks before it runs.
type Permissions struct {
	Mode string `mapstructure:"mode" yaml:"mode"` // ask | accept-edits | plan | yolo
	// Allow, Ask and Deny are permission rules (package rules), merged
	// across the layers; a project's allow rules apply only once the
	// directory is trusted.
	Allow []string `mapstructure:"allow" yaml:"allow"`
	Ask   []string `mapstructure:"ask" yaml:"ask"`
	Deny  []string `mapstructure:"deny" yaml:"deny"`
	// RuleSources says where each rule came from: "allow bash(go test:*)"
	// → "/home/u/.config/fawn/config.yaml:12".
	RuleSources map[string]string `mapstructure:"-" yaml:"-"`
}

// Shell configures the environment of the agent's shell, the terminal pane
// and the MCP servers fawn starts: fawn's own minus the variables UnsetEnv
// names (names or patterns such as *_API_KEY), except those KeepEnv names.
type Shell struct {
	UnsetEnv []string `mapstructure:"unset_env" yaml:"unset_env"`
	KeepEnv  []string `mapstructure:"keep_env" yaml:"keep_env"`
	// KeyVars are the environment variables fawn read a model key from
	// (OPENAI_API_KEY, a ${VAR} in an api_key): removed like UnsetEnv's.
	KeyVars []string `mapstructure:"-" yaml:"-"`
}

// Sandbox configures the operating-system sandbox of the shared shell
// (package sandbox reads it): what the shell may write, reach and read.
// Only the user's own layers set it; a project file cannot.
type Sandbox struct {
	Mode string `mapstructure:"mode" yaml:"mode"` // off | workspace-write | read-only
	// Network is false, true, or a list of host:port.
	Network  any      `mapstructure:"network" yaml:"network"`
	Writable []string `mapstructure:"writable" yaml:"writable"`
	DenyRead []string `mapstructure:"deny_read" yaml:"deny_read"`
}

// UI configures the screen.
type UI struct {
	Theme string `mapstructure:"theme" yaml:"theme"` // dark | light
	// Notify is how fawn calls the user back when a turn ends or a
	// permission is asked while its window is not focused: bell | osc9 |
	// osc777 | off.
	Notify string `mapstructure:"notify" yaml:"notify"`
	// Keys overrides key bindings: action name → keys ("ctrl+s", "alt+1"),
	// from keys.yaml and the config's keys: (ui.keys:) section.
	Keys map[string][]string `mapstructure:"keys" yaml:"keys"`
	// KeySources is where each action of Keys was bound ("file:line").
	KeySources map[string]string `mapstructure:"-" yaml:"-"`
}

// Editor configures the editor pane.
type Editor struct {
	// Keys is the editor's key set: standard (fawn's own) or vim.
	Keys string `mapstructure:"keys" yaml:"keys"`
}

// Chat configures the chat pane.
type Chat struct {
	// Keys is the chat input's key set: standard or vim (normal and
	// insert modes on the text being written).
	Keys string `mapstructure:"keys" yaml:"keys"`
}

// Worktrees configures where tasks' git worktrees are made.
type Worktrees struct {
	// Dir is an absolute directory outside every project; "" is
	// DataDir/worktrees (see WorktreesDir). Only the user's own config
	// sets it: a project's file may not choose where fawn writes.
	Dir string `mapstructure:"dir" yaml:"dir"`
}

// WorktreesDir is the directory tasks' worktrees are made in:
// worktrees.dir, or "worktrees" beside the session data ("" when fawn
// has no data directory).
func (c *Config) WorktreesDir() string {
	if c.Worktrees.Dir != "" {
		return c.Worktrees.Dir
	}
	if c.DataDir == "" {
		return ""
	}
	return filepath.Join(c.DataDir, "worktrees")
}

// Agent configures the agent loop.
type Agent struct {
	MaxSteps int `mapstructure:"max_steps" yaml:"max_steps"`
	// AutoCompact is how full the context window may get, in percent,
	// before the conversation is compacted (0: never automatically).
	AutoCompact int `mapstructure:"auto_compact" yaml:"auto_compact"`
	// RepeatWarn is how many identical calls (tool and arguments) in a turn
	// get a note telling the model it repeats itself; RepeatStop how many
	// stop the turn (0: never).
	RepeatWarn int `mapstructure:"repeat_warn" yaml:"repeat_warn"`
	RepeatStop int `mapstructure:"repeat_stop" yaml:"repeat_stop"`
	// SubagentMaxSteps is a subagent's step limit (task tool; default 50).
	SubagentMaxSteps int `mapstructure:"subagent_max_steps" yaml:"subagent_max_steps"`
}

// Goal configures /goal and -p --goal: the stop condition a judge checks
// after each turn.
type Goal struct {
	// MaxTurns is how many turns a goal may run before fawn stops it
	// (0: 10).
	MaxTurns int `mapstructure:"max_turns" yaml:"max_turns"`
}

// LSPServer configures one language server (package lsp): an entry named
// as a built-in one changes the fields it sets; another name adds one.
type LSPServer struct {
	Command string   `mapstructure:"command" yaml:"command,omitempty"`
	Args    []string `mapstructure:"args" yaml:"args,omitempty"`
	// Extensions are the files it serves (".go"); RootMarkers the files
	// that mark a project root ("go.mod", or a glob such as "*.py").
	Extensions  []string          `mapstructure:"extensions" yaml:"extensions,omitempty"`
	RootMarkers []string          `mapstructure:"root_markers" yaml:"root_markers,omitempty"`
	Env         map[string]string `mapstructure:"env" yaml:"env,omitempty"`
	InitOptions map[string]any    `mapstructure:"init_options" yaml:"init_options,omitempty"`
	Disabled    bool              `mapstructure:"disabled" yaml:"disabled,omitempty"`
}

// Web configures the web tools.
type Web struct {
	Fetch  WebFetch  `mapstructure:"fetch" yaml:"fetch"`
	Search WebSearch `mapstructure:"search" yaml:"search"`
}

// WebFetch configures web_fetch.
type WebFetch struct {
	// Timeout bounds one fetch.
	Timeout time.Duration `mapstructure:"timeout" yaml:"timeout"`
	// AllowPrivate are the hosts web_fetch may reach at a loopback,
	// private-network or link-local address ("localhost", "intranet.lan").
	AllowPrivate []string `mapstructure:"allow_private" yaml:"allow_private"`
}

// WebSearch configures web_search's backend.
type WebSearch struct {
	// Type is searxng, brave, or "" for none.
	Type string `mapstructure:"type" yaml:"type"`
	// URL is the SearXNG instance (for brave, another endpoint of the
	// same API; "" is Brave's own).
	URL string `mapstructure:"url" yaml:"url"`
	// APIKeyEnv names the variable holding the Brave Search API key.
	APIKeyEnv string `mapstructure:"api_key_env" yaml:"api_key_env"`
	// APIKey is the key read from APIKeyEnv (brave only).
	APIKey string `mapstructure:"-" yaml:"-"`
}

// WebSearchTypes are the accepted web.search.type values.
var WebSearchTypes = []string{"", "searxng", "brave"}

// ACPAgent is an agent fawn hosts over the Agent Client Protocol (agents.NAME;
// fawn --agent NAME): the program and its arguments, and the environment
// variables it gets on top of fawn's own minus the model keys. A model key
// reaches it only when env names it (ANTHROPIC_API_KEY: ${ANTHROPIC_API_KEY}).
type ACPAgent struct {
	Command string            `mapstructure:"command" yaml:"command,omitempty"`
	Args    []string          `mapstructure:"args" yaml:"args,omitempty"`
	Env     map[string]string `mapstructure:"env" yaml:"env,omitempty"`
}
