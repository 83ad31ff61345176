package config

import (
	"fmt"
	"net/netip"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/rules"
	"github.com/fawn-ide/fawn/sandbox"
)

// kind is the type a key's value must have.
type kind int

const (
	kString kind = iota
	kFloat
	kInt
	kDuration
	kStringList
	kMap          // free-form: its contents are not checked key by key
	kSwitchOrList // false, true or a list of strings (sandbox.network)
)

func (k kind) String() string {
	return [...]string{"a string", "a number", "a whole number", "a duration such as 90s or 2m", "a list of strings", "a mapping", "false, true or a list of strings"}[k]
}

// field is one known key: its type, its default and what values it accepts.
type field struct {
	key   string
	kind  kind
	def   any
	check func(v any) string // "" when fine, else what is expected
}

func oneOf(vals ...string) func(any) string {
	return func(v any) string {
		if s, _ := v.(string); slices.Contains(vals, s) {
			return ""
		}
		return "one of " + strings.Join(vals, ", ")
	}
}

func between(lo, hi float64) func(any) string {
	return func(v any) string {
		f := toFloat(v)
		if f < lo || f > hi {
			return fmt.Sprintf("a number from %g to %g", lo, hi)
		}
		return ""
	}
}

func positive(v any) string {
	if toFloat(v) <= 0 {
		return "a number greater than 0"
	}
	return ""
}

func durationIn(lo, hi time.Duration) func(any) string {
	return func(v any) string {
		d, _ := v.(time.Duration)
		if d < lo || d > hi {
			return fmt.Sprintf("a duration from %s to %s", lo, hi)
		}
		return ""
	}
}

// absDir is empty or an absolute path.
func absDir(v any) string {
	if s, _ := v.(string); s != "" && !filepath.IsAbs(s) {
		return "an absolute directory, e.g. /home/you/fawn-worktrees (empty: beside fawn's session data)"
	}
	return ""
}

func httpURL(v any) string {
	s, _ := v.(string)
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "an http:// or https:// URL, e.g. https://api.openai.com/v1"
	}
	return ""
}

// ProviderTypes are the accepted models.*.type values.
var ProviderTypes = []string{"openai", "anthropic", "demo"}

// PermissionModes are the accepted permissions.mode values.
var PermissionModes = []string{"ask", "accept-edits", "plan", "yolo"}

// NotifyMethods are the accepted ui.notify values.
var NotifyMethods = []string{"bell", "osc9", "osc777", "off"}

// Themes are the accepted ui.theme values.
var Themes = []string{"dark", "light"}

// EditorKeySets are the accepted editor.keys and chat.keys values.
var EditorKeySets = []string{"standard", "vim"}

// OutputFormats are the accepted --output-format values.
var OutputFormats = []string{"text", "json", "stream-json"}

// schema lists every key fawn knows, in the order `fawn config` prints them.
func schema() []field {
	return []field{
		{key: "models.chat_model.type", kind: kString, def: "openai", check: oneOf(ProviderTypes...)},
		{key: "models.chat_model.model", kind: kString, def: "gpt-4o"},
		{key: "models.chat_model.base_url", kind: kString, def: "", check: httpURL},
		{key: "models.chat_model.api_key", kind: kString, def: ""},
		{key: "models.chat_model.temperature", kind: kFloat, def: 0.0, check: between(0, 2)},
		{key: "models.chat_model.max_tokens", kind: kInt, def: 8192, check: positive},
		{key: "models.chat_model.context_window", kind: kInt, def: 0, check: between(0, 1e9)},
		{key: "models.chat_model.extra_body", kind: kMap, def: map[string]any{}},
		{key: "models.chat_model.vision", kind: kString, def: "auto", check: oneOf("auto", "yes", "no")},
		{key: "models.chat_model.timeout", kind: kDuration, def: 10 * time.Minute, check: durationIn(time.Second, 24*time.Hour)},
		{key: "models.chat_model.stall_timeout", kind: kDuration, def: 90 * time.Second, check: durationIn(time.Second, time.Hour)},
		{key: "models.chat_model.price_per_mtok", kind: kMap, def: map[string]any{}, check: checkPrice},
		{key: "models.chat_model.parallel", kind: kInt, def: 1, check: between(1, 1024)},
		{key: "models.chat_model.fallbacks", kind: kStringList, def: []string{}},
		{key: "models.named", kind: kMap, def: map[string]any{}, check: checkNamedModels},
		{key: "models.background", kind: kStringList, def: []string{}},
		{key: "models.failover_cooldown", kind: kDuration, def: 60 * time.Second, check: durationIn(time.Second, 24*time.Hour)},
		{key: "models.retry_delay", kind: kDuration, def: time.Second, check: durationIn(10*time.Millisecond, time.Minute)},
		{key: "tools.bash.timeout", kind: kDuration, def: 120 * time.Second, check: durationIn(time.Second, 10*time.Minute)},
		{key: "tools.bash.scrollback", kind: kInt, def: 10000, check: positive},
		{key: "tools.mcp_servers", kind: kMap, def: map[string]any{}, check: checkMCP},
		{key: "permissions.mode", kind: kString, def: "ask", check: oneOf(PermissionModes...)},
		{key: "permissions.allow", kind: kStringList, def: []string{}, check: checkRules},
		{key: "permissions.ask", kind: kStringList, def: []string{}, check: checkRules},
		{key: "permissions.deny", kind: kStringList, def: []string{}, check: checkRules},
		{key: "shell.unset_env", kind: kStringList, def: DefaultUnsetEnv(), check: envPatterns},
		{key: "shell.keep_env", kind: kStringList, def: []string{}, check: envPatterns},
		{key: "ui.theme", kind: kString, def: "dark", check: oneOf(Themes...)},
		{key: "ui.notify", kind: kString, def: "bell", check: oneOf(NotifyMethods...)},
		{key: "ui.keys", kind: kMap, def: map[string]any{}, check: checkKeys},
		{key: "editor.keys", kind: kString, def: "standard", check: oneOf(EditorKeySets...)},
		{key: "chat.keys", kind: kString, def: "standard", check: oneOf(EditorKeySets...)},
		{key: "agent.max_steps", kind: kInt, def: 100, check: positive},
		{key: "hooks", kind: kMap, def: map[string]any{}, check: checkHooks},
		{key: "lsp", kind: kMap, def: map[string]any{}, check: checkLSP},
		{key: "agents", kind: kMap, def: map[string]any{}, check: checkAgents},
		{key: "agent.auto_compact", kind: kInt, def: 85, check: between(0, 99)},
		{key: "agent.repeat_warn", kind: kInt, def: 3, check: between(0, 1000)},
		{key: "agent.repeat_stop", kind: kInt, def: 5, check: between(0, 1000)},
		{key: "agent.subagent_max_steps", kind: kInt, def: 50, check: between(1, 10000)},
		{key: "goal.max_turns", kind: kInt, def: 10, check: between(1, 1000)},
		{key: "web.fetch.timeout", kind: kDuration, def: 30 * time.Second, check: durationIn(time.Second, 10*time.Minute)},
		{key: "web.fetch.allow_private", kind: kStringList, def: []string{}, check: hostList},
		{key: "web.search.type", kind: kString, def: "", check: oneOf(WebSearchTypes...)},
		{key: "web.search.url", kind: kString, def: "", check: httpURL},
		{key: "web.search.api_key_env", kind: kString, def: "BRAVE_SEARCH_API_KEY", check: envName},
		{key: "worktrees.dir", kind: kString, def: "", check: absDir},
		{key: "sandbox.mode", kind: kString, def: string(sandbox.WorkspaceWrite), check: oneOf(sandbox.Modes()...)},
		{key: "sandbox.network", kind: kSwitchOrList, def: false, check: checkNetwork},
		{key: "sandbox.writable", kind: kStringList, def: sandbox.DefaultWritable(), check: checkPaths("sandbox.writable")},
		{key: "sandbox.deny_read", kind: kStringList, def: sandbox.DefaultDenyRead(), check: checkPaths("sandbox.deny_read")},
	}
}

// checkNetwork checks sandbox.network.
func checkNetwork(v any) string {
	if _, err := sandbox.ParseNetwork(v); err != nil {
		return "false, true or a list of host:port such as [proxy.golang.org:443] (" + err.Error() + ")"
	}
	return ""
}

// checkPaths checks a list of sandbox paths.
func checkPaths(key string) func(any) string {
	return func(v any) string {
		list, _ := v.([]string)
		if err := sandbox.CheckPaths(key, list); err != nil {
			return "absolute paths or paths under ~/ (" + err.Error() + ")"
		}
		return ""
	}
}

// checkHooks checks the hooks' shape.
func checkHooks(v any) string {
	m, _ := v.(map[string]any)
	if _, err := hooks.Parse(m); err != nil {
		return "hooks in Claude Code's shape (Event: [{matcher, hooks: [{type: command, command, timeout}]}]): " + err.Error()
	}
	return ""
}

// checkRules checks a list of permission rules.
func checkRules(v any) string {
	list, _ := v.([]string)
	for _, raw := range list {
		if _, err := rules.Parse(raw, rules.Allow, ""); err != nil {
			return "permission rules such as bash(go test:*), text_editor(docs/**) or mcp__server: " + err.Error()
		}
	}
	return ""
}

func checkMCP(v any) string {
	m, _ := v.(map[string]any)
	for name, raw := range m {
		srv, ok := raw.(map[string]any)
		if !ok {
			return fmt.Sprintf("server %q to be a mapping with command (and args, env) or url", name)
		}
		cmd, _ := srv["command"].(string)
		u, _ := srv["url"].(string)
		if (cmd == "") == (u == "") {
			return fmt.Sprintf("server %q to have either command or url", name)
		}
		if u != "" && httpURL(u) != "" {
			return fmt.Sprintf("server %q url to be an http(s) URL", name)
		}
		for k := range srv {
			if !slices.Contains([]string{"command", "args", "env", "url"}, k) {
				return fmt.Sprintf("server %q keys to be command, args, env or url (not %q)", name, k)
			}
		}
	}
	return ""
}

// namedModelKeys are the keys a models.named entry may have.
var namedModelKeys = []string{"type", "model", "base_url", "api_key", "temperature", "max_tokens", "context_window", "extra_body", "vision", "timeout", "stall_timeout", "price_per_mtok", "parallel", "fallbacks"}

// checkPrice checks a price_per_mtok mapping: input and output, cached
// optional, each a number of dollars per million tokens.
func checkPrice(v any) string {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return ""
	}
	const want = "input and output (and cached) prices in US dollars per million tokens, e.g. {input: 3, output: 15, cached: 0.3}"
	for k, x := range m {
		if !slices.Contains([]string{"input", "output", "cached"}, k) {
			return want + fmt.Sprintf(" (not %q)", k)
		}
		switch x.(type) {
		case int, int64, float64:
			if toFloat(x) < 0 {
				return want + " (not negative)"
			}
		default:
			return want
		}
	}
	if _, ok := m["input"]; !ok {
		return want + " (input is missing)"
	}
	if _, ok := m["output"]; !ok {
		return want + " (output is missing)"
	}
	return ""
}

func checkNamedModels(v any) string {
	m, _ := v.(map[string]any)
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		mc, ok := m[name].(map[string]any)
		if !ok {
			return fmt.Sprintf("model %q to be a mapping with type, model, base_url, api_key…", name)
		}
		for k := range mc {
			if !slices.Contains(namedModelKeys, k) {
				return fmt.Sprintf("model %q keys to be %s (not %q)", name, strings.Join(namedModelKeys, ", "), k)
			}
		}
		typ, _ := mc["type"].(string)
		if typ == "" {
			typ = "openai"
		}
		if !slices.Contains(ProviderTypes, typ) {
			return fmt.Sprintf("model %q type to be one of %s", name, strings.Join(ProviderTypes, ", "))
		}
		if model, _ := mc["model"].(string); typ != "demo" && strings.TrimSpace(model) == "" {
			return fmt.Sprintf("model %q to name its model (model: gpt-4o-mini, claude-sonnet-4-5…)", name)
		}
		if v, ok := mc["vision"].(string); ok && !slices.Contains([]string{"auto", "yes", "no"}, v) {
			return fmt.Sprintf("model %q vision to be auto, yes or no", name)
		}
		if u, _ := mc["base_url"].(string); httpURL(u) != "" {
			return fmt.Sprintf("model %q base_url to be an http(s) URL", name)
		}
		if p, ok := mc["price_per_mtok"]; ok {
			if _, isMap := p.(map[string]any); !isMap {
				return fmt.Sprintf("model %q price_per_mtok to be a mapping: input and output (and cached) prices per million tokens", name)
			}
			if why := checkPrice(p); why != "" {
				return fmt.Sprintf("model %q price_per_mtok to have %s", name, why)
			}
		}
		if p, ok := mc["parallel"]; ok {
			if n, isInt := p.(int); !isInt || n < 1 {
				return fmt.Sprintf("model %q parallel to be a whole number of at least 1", name)
			}
		}
		if f, ok := mc["fallbacks"]; ok {
			if _, isList := f.([]any); !isList {
				return fmt.Sprintf("model %q fallbacks to be a list of names of models.named", name)
			}
		}
		for _, k := range []string{"timeout", "stall_timeout"} {
			if s, ok := mc[k].(string); ok {
				if _, err := time.ParseDuration(s); err != nil {
					return fmt.Sprintf("model %q %s to be a duration such as 90s", name, k)
				}
			}
		}
	}
	return ""
}

func checkKeys(v any) string {
	m, _ := v.(map[string]any)
	for name, raw := range m {
		switch raw.(type) {
		case string:
		case []any:
		default:
			return fmt.Sprintf("%q to be a key or a list of keys, e.g. [ctrl+s]", name)
		}
	}
	return ""
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case float64:
		return n
	}
	return 0
}

// lspKeys are the keys an lsp entry may have.
var lspKeys = []string{"command", "args", "extensions", "root_markers", "env", "init_options", "disabled"}

func checkLSP(v any) string {
	m, _ := v.(map[string]any)
	for name, raw := range m {
		srv, ok := raw.(map[string]any)
		if !ok {
			return fmt.Sprintf("server %q to be a mapping with command, args, extensions, root_markers, env, init_options or disabled", name)
		}
		for k, val := range srv {
			if !slices.Contains(lspKeys, k) {
				return fmt.Sprintf("server %q keys to be %s (not %q)", name, strings.Join(lspKeys, ", "), k)
			}
			if k == "extensions" {
				list, _ := val.([]any)
				for _, e := range list {
					if s, _ := e.(string); !strings.HasPrefix(s, ".") {
						return fmt.Sprintf("server %q extensions to start with a dot (\".go\", not %v)", name, e)
					}
				}
			}
		}
	}
	return ""
}

// hostList checks web.fetch.allow_private: host names or addresses, no
// scheme, port or path.
func hostList(v any) string {
	list, _ := v.([]string)
	for _, h := range list {
		_, ipErr := netip.ParseAddr(h)
		if h == "" || strings.ContainsAny(h, "/@ \t[]") || strings.Contains(h, ":") && ipErr != nil {
			return fmt.Sprintf("host names or addresses such as localhost or 192.168.1.10 (no scheme, port or path; not %q)", h)
		}
	}
	return ""
}

// envName checks the name of an environment variable.
func envName(v any) string {
	s, _ := v.(string)
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return "the name of an environment variable, such as BRAVE_SEARCH_API_KEY (not its value)"
		}
	}
	return ""
}

// agentKeys are the keys an agents entry may have.
var agentKeys = []string{"command", "args", "env"}

func checkAgents(v any) string {
	m, _ := v.(map[string]any)
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		a, ok := m[name].(map[string]any)
		if !ok {
			return fmt.Sprintf("agent %q to be a mapping with command (and args, env)", name)
		}
		for k := range a {
			if !slices.Contains(agentKeys, k) {
				return fmt.Sprintf("agent %q keys to be command, args or env (not %q)", name, k)
			}
		}
		if cmd, _ := a["command"].(string); strings.TrimSpace(cmd) == "" {
			return fmt.Sprintf("agent %q to name its command (command: npx, args: [-y, @zed-industries/claude-agent-acp])", name)
		}
		if args, ok := a["args"]; ok {
			if _, ok := args.([]any); !ok {
				return fmt.Sprintf("agent %q args to be a list of strings", name)
			}
		}
		if env, ok := a["env"]; ok {
			if _, ok := env.(map[string]any); !ok {
				return fmt.Sprintf("agent %q env to be a mapping of variables to values", name)
			}
		}
	}
	return ""
}
