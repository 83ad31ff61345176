package config

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/trust"
)

// A project's .fawn/config.yaml is untrusted input: the repository may
// have been written by anyone. Its keys that start programs or choose where
// the conversation and keys go (trustKeys) are reported as trust.Items and
// applied only when Options.Trusted; ${VAR} is not expanded from the
// environment in it until then. Even trusted, it can never raise the
// permission mode, opt environment variables back into the shell, or put a
// secret from the environment anywhere but that secret's own provider.

// trustKeys are the project keys that need trust, and the kind of item each is.
var trustKeys = map[string]string{
	"tools.mcp_servers":            trust.KindMCPServer,
	"models.chat_model.type":       trust.KindModelEndpoint,
	"models.chat_model.base_url":   trust.KindModelEndpoint,
	"models.chat_model.api_key":    trust.KindModelEndpoint,
	"models.chat_model.extra_body": trust.KindModelEndpoint,
	// Which model answers, how long and how freely, is the user's to
	// choose (and to pay for): a repository proposes, the user trusts.
	"models.chat_model.model":       trust.KindModel,
	"models.chat_model.max_tokens":  trust.KindModel,
	"models.chat_model.temperature": trust.KindModel,
	"models.named":                  trust.KindModelEndpoint,
	"permissions.allow":             trust.KindPermission,
	"hooks":                         trust.KindHook,
	"lsp":                           trust.KindLSP,
	"agents":                        trust.KindACPAgent,
}

// modeRank orders the permission modes from the most to the least careful.
func modeRank(m string) int {
	switch m {
	case "plan":
		return 0
	case "", "ask":
		return 1
	case "accept-edits":
		return 2
	case "yolo":
		return 3
	}
	return 1
}

// providerHosts says which host each provider key of the environment
// belongs to: the only host a project file may send it to.
var providerHosts = map[string]string{
	"OPENAI_API_KEY":     "api.openai.com",
	"ANTHROPIC_API_KEY":  "api.anthropic.com",
	"DEEPSEEK_API_KEY":   "api.deepseek.com",
	"OPENROUTER_API_KEY": "openrouter.ai",
	"GROQ_API_KEY":       "api.groq.com",
	"MISTRAL_API_KEY":    "api.mistral.ai",
	"XAI_API_KEY":        "api.x.ai",
	"TOGETHER_API_KEY":   "api.together.xyz",
	"FIREWORKS_API_KEY":  "api.fireworks.ai",
	"GEMINI_API_KEY":     "generativelanguage.googleapis.com",
}

// secretVar reports whether an environment variable's name says it holds
// a secret.
func secretVar(name string) bool {
	if _, ok := providerHosts[name]; ok {
		return true
	}
	n := strings.ToUpper(name)
	for _, s := range []string{"_KEY", "_TOKEN", "_SECRET", "_PASSWORD", "_PASSWD", "_CREDENTIALS"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return strings.Contains(n, "API_KEY") || strings.Contains(n, "SECRET")
}

// secretPlace reports whether a project key may receive a secret from the
// environment: an api_key (checked against its server once every layer is
// read), or what a trusted MCP server's program is started with (the user
// allowed that program to run, with the keys it is given).
func secretPlace(key string) bool {
	if isAPIKeyKey(key) {
		return true
	}
	for _, prefix := range []string{"tools.mcp_servers.", "agents."} {
		if rest, ok := strings.CutPrefix(key, prefix); ok {
			parts := strings.SplitN(rest, ".", 3)
			return len(parts) >= 2 && (parts[1] == "command" || parts[1] == "args" || parts[1] == "env")
		}
	}
	return false
}

func isAPIKeyKey(key string) bool {
	if key == "models.chat_model.api_key" {
		return true
	}
	rest, ok := strings.CutPrefix(key, "models.named.")
	return ok && strings.Count(rest, ".") == 1 && strings.HasSuffix(rest, ".api_key")
}

// projectValue filters a value read from the project's file before it is
// set. It reports the value to set (perhaps changed) and whether to set it.
func (l *loader) projectValue(key string, v any, vn *yaml.Node, src Source) (any, bool) {
	switch key {
	case "models.chat_model.base_url", "models.chat_model.type":
		// Where the user's own layers sent their key, for checkKeyDestinations.
		if _, ok := l.preProject[key]; !ok {
			l.preProject[key] = l.rep.Values[key]
		}
	}
	if kind, ok := trustKeys[key]; ok {
		l.rep.Trust = append(l.rep.Trust, projectItems(kind, key, v, vn, src)...)
		if !l.opts.Trusted {
			return nil, false
		}
	}
	switch key {
	case "permissions.mode":
		mode, _ := v.(string)
		cur, _ := l.rep.Values[key].(string)
		if modeRank(mode) > modeRank(cur) {
			l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: fmt.Sprintf(
				"%s is ignored: a project file cannot raise the permission mode above %s; set it in your own config or with --permission-mode", show(v), cur)})
			return nil, false
		}
	case "shell.keep_env":
		l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: "ignored in a project file: only your own config can give the shell back a variable fawn removes"})
		return nil, false
	case "ui.keys":
		// A repository that binds permission.allow to the key the user
		// presses to say no answers the permission dialog for them.
		l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: "ignored in a project file: key bindings are yours to choose, in your own config"})
		return nil, false
	case "worktrees.dir":
		// A repository that chose it would have fawn check out into a
		// directory of its choosing.
		l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: "ignored in a project file: where fawn makes its worktrees is yours to choose, in your own config"})
		return nil, false
	case "shell.unset_env":
		return l.projectUnsetEnv(v, src)
	}
	if strings.HasPrefix(key, "web.") {
		// A repository that names the search backend reads every query,
		// with the user's key; one that lists private hosts points
		// web_fetch at the user's own network.
		l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: "ignored in a project file: where fawn searches and which private hosts it may fetch from are yours to choose, in your own config"})
		return nil, false
	}
	if strings.HasPrefix(key, "sandbox.") {
		// A repository that opens the network or its own .git to the
		// commands that then run without asking has widened them.
		l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: "ignored in a project file: the sandbox is yours to set, in your own config"})
		return nil, false
	}
	if !l.opts.Trusted && hasVar(v) {
		l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: "ignored: it names an environment variable, and fawn expands none in the files of a directory you have not trusted"})
		return nil, false
	}
	return v, true
}

// shellEssentials are the variables a project may never remove from the
// shell's environment, trusted or not: without PATH bash searches a
// default path that ends in ".", so an approved `go test` would run the
// repository's ./go; the others decide whose files and which terminal
// and language the shell works with.
var shellEssentials = []string{"PATH", "HOME", "SHELL", "USER", "TERM", "LANG"}

// projectUnsetEnv filters the project's shell.unset_env. Patterns that
// match an essential variable are ignored with a warning; the rest add to
// what the user's layers remove, once the directory is trusted (a project
// cannot give the shell back what they remove: shell.keep_env is refused).
// Removing a variable changes what programs do (a proxy, a search path,
// an agent socket), so it is a trust item.
func (l *loader) projectUnsetEnv(v any, src Source) (any, bool) {
	list, ok := coerce(kStringList, v)
	if !ok {
		if !l.opts.Trusted {
			return nil, false
		}
		return v, true // set reports the type error
	}
	cur, _ := l.rep.Values["shell.unset_env"].([]string)
	var add []string
	for _, p := range list.([]string) {
		var hit []string
		for _, name := range shellEssentials {
			if ok, _ := path.Match(p, name); ok {
				hit = append(hit, name)
			}
		}
		switch {
		case len(hit) > 0:
			l.warn(Problem{File: src.File, Line: src.Line, Key: "shell.unset_env", Msg: fmt.Sprintf(
				"%q is ignored: a project file may not remove %s from the shell's environment", p, strings.Join(hit, ", "))})
			continue
		case hasVar(p):
			l.warn(Problem{File: src.File, Line: src.Line, Key: "shell.unset_env", Msg: fmt.Sprintf(
				"%q is ignored: a project file names the variables to remove as they are, without $", p)})
			continue
		}
		if !slices.Contains(cur, p) && !slices.Contains(add, p) {
			add = append(add, p)
		}
	}
	if len(add) == 0 {
		return nil, false
	}
	l.rep.Trust = append(l.rep.Trust, trust.Item{Kind: trust.KindShellEnv, Name: "shell.unset_env",
		Source: fmt.Sprintf("%s:%d", src.File, src.Line), Detail: strings.Join(add, " ")})
	if !l.opts.Trusted {
		return nil, false
	}
	out := make([]any, 0, len(cur)+len(add))
	for _, s := range append(append([]string(nil), cur...), add...) {
		out = append(out, s)
	}
	return out, true
}

// hasVar reports whether a string inside v refers to a variable.
func hasVar(v any) bool {
	switch x := v.(type) {
	case string:
		_, unset := expandVars(x, func(string) (string, bool) { return "", false })
		return len(unset) > 0
	case map[string]any:
		for _, e := range x {
			if hasVar(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasVar(e) {
				return true
			}
		}
	}
	return false
}

// projectLookup is the lookup for expanding a trusted project file's value
// at key: a secret may only land where secretPlace allows, and which ones
// went into an api_key is remembered for checkKeyDestinations.
func (l *loader) projectLookup(key string, src Source) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if secretVar(name) {
			if !secretPlace(key) {
				l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: fmt.Sprintf(
					"${%s} is not expanded: a project file may put a secret from the environment only in an api_key for that secret's own provider", name)})
				return "", true
			}
			if isAPIKeyKey(key) {
				l.keyVars[key] = append(l.keyVars[key], name)
			}
		}
		return l.lookup(name)
	}
}

// checkKeyDestinations drops an api_key that a project file filled from a
// secret of the environment when the key would go to a host that is not
// that secret's provider and that the user did not choose.
func (l *loader) checkKeyDestinations() {
	l.checkUserKeyDestination()
	keys := make([]string, 0, len(l.keyVars))
	for k := range l.keyVars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		vars := l.keyVars[key]
		if key == "models.chat_model.api_key" {
			if l.rep.Sources[key].File != l.projectFile {
				continue // a later layer replaced it
			}
			typ, _ := l.rep.Values["models.chat_model.type"].(string)
			base, _ := l.rep.Values["models.chat_model.base_url"].(string)
			bsrc := l.rep.Sources["models.chat_model.base_url"]
			userBase := bsrc.Layer == "flag" || bsrc.Layer == "env" || (bsrc.Layer == "file" && bsrc.File != l.projectFile)
			if userBase {
				continue
			}
			if bad := foreignSecret(vars, typ, base); bad != "" {
				l.rep.Values[key] = ""
				src := l.rep.Sources[key]
				l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: fmt.Sprintf(
					"${%s} is not sent to %s: a project file may send it only to its own provider; set base_url in your own config to use it there", bad, hostOr(base, typ))})
				l.rep.Sources[key] = Source{Layer: "default", Note: "dropped: a project file sent a key elsewhere"}
			}
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(key, "models.named."), ".api_key")
		named, _ := l.rep.Values["models.named"].(map[string]any)
		entry, _ := named[name].(map[string]any)
		if entry == nil || l.rep.Sources["models.named"].File != l.projectFile {
			continue
		}
		typ, _ := entry["type"].(string)
		base, _ := entry["base_url"].(string)
		if bad := foreignSecret(vars, typ, base); bad != "" {
			e := make(map[string]any, len(entry))
			for k, x := range entry {
				e[k] = x
			}
			e["api_key"] = ""
			m := make(map[string]any, len(named))
			for k, x := range named {
				m[k] = x
			}
			m[name] = e
			l.rep.Values["models.named"] = m
			src := l.rep.Sources["models.named"]
			l.warn(Problem{File: src.File, Key: key, Msg: fmt.Sprintf(
				"${%s} is not sent to %s: a project file may send it only to its own provider; set base_url in your own config to use it there", bad, hostOr(base, typ))})
		}
	}
}

// checkUserKeyDestination drops the chat model's key when it is the
// user's (from their config, the environment or a flag) and a project file
// moved the model to another host, by its base_url or its type: a key
// goes only to the host it was configured with. The project must name its
// own key (api_key: ${ITS_OWN_VAR}, itself a trust item) or do without.
func (l *loader) checkUserKeyDestination() {
	const keyK, baseK, typeK = "models.chat_model.api_key", "models.chat_model.base_url", "models.chat_model.type"
	key, _ := l.rep.Values[keyK].(string)
	ksrc := l.rep.Sources[keyK]
	fromProject := func(k string) bool {
		s := l.rep.Sources[k]
		return s.Layer == "file" && s.File == l.projectFile && l.projectFile != ""
	}
	if key == "" || fromProject(keyK) || (!fromProject(baseK) && !fromProject(typeK)) {
		return
	}
	base, _ := l.rep.Values[baseK].(string)
	typ, _ := l.rep.Values[typeK].(string)
	userBase, userType := base, typ
	if fromProject(baseK) {
		userBase, _ = l.preProject[baseK].(string)
	}
	if fromProject(typeK) {
		userType, _ = l.preProject[typeK].(string)
	}
	if o := origin(base, typ); o != "" && o == origin(userBase, userType) {
		return
	}
	l.rep.Values[keyK] = ""
	l.rep.Sources[keyK] = Source{Layer: "default", Note: "dropped: a project file moved the model to another host"}
	bsrc := l.rep.Sources[baseK]
	if !fromProject(baseK) {
		bsrc = l.rep.Sources[typeK]
	}
	l.warn(Problem{File: bsrc.File, Line: bsrc.Line, Key: keyK, Msg: fmt.Sprintf(
		"your key (from %s) is not sent to %s: a key goes only to the server it was configured with (%s); the project file must give its server its own api_key",
		ksrc, origin(base, typ), origin(userBase, userType))})
}

// origin is where a model of type typ at base is reached, as a key's
// destination: scheme, host and port ("https://api.openai.com:443"). Another
// port is another server, and http instead of https sends the key in clear.
func origin(base, typ string) string {
	if base == "" {
		base = "https://api.openai.com/v1"
		if typ == "anthropic" {
			base = "https://api.anthropic.com"
		}
	}
	u, err := url.Parse(base)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), port)
}

// foreignSecret returns the first of vars whose provider is not the host a
// model of type typ at base reaches, or "".
func foreignSecret(vars []string, typ, base string) string {
	host := hostOf(base, typ)
	for _, v := range vars {
		if h, ok := providerHosts[v]; !ok || !sameHost(host, h) {
			return v
		}
	}
	return ""
}

// hostOf is the host a model of type typ at base reaches.
func hostOf(base, typ string) string {
	if base == "" {
		if typ == "anthropic" {
			return "api.anthropic.com"
		}
		return "api.openai.com"
	}
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

func hostOr(base, typ string) string {
	if h := hostOf(base, typ); h != "" {
		return h
	}
	return RedactURL(base)
}

// sameHost reports whether host is want (exactly: api.openai.com.evil.com is not api.openai.com).
func sameHost(host, want string) bool {
	return host != "" && strings.EqualFold(strings.TrimSuffix(host, "."), want)
}

// projectItems turns a trust key of the project file into Items.
func projectItems(kind, key string, v any, vn *yaml.Node, src Source) []trust.Item {
	at := func(line int) string { return fmt.Sprintf("%s:%d", src.File, line) }
	switch key {
	case "tools.mcp_servers", "models.named", "lsp", "agents":
		var out []trust.Item
		if vn.Kind != yaml.MappingNode {
			return []trust.Item{{Kind: kind, Name: key, Source: at(src.Line), Detail: detailValue(v)}}
		}
		for i := 0; i+1 < len(vn.Content); i += 2 {
			name := vn.Content[i].Value
			var entry any
			_ = vn.Content[i+1].Decode(&entry)
			switch key {
			case "tools.mcp_servers":
				out = append(out, trust.Item{Kind: kind, Name: name, Source: at(vn.Content[i].Line), Detail: mcpDetail(entry)})
			case "lsp":
				out = append(out, trust.Item{Kind: kind, Name: "lsp." + name, Source: at(vn.Content[i].Line), Detail: detailValue(entry)})
			case "agents":
				out = append(out, trust.Item{Kind: kind, Name: "agents." + name, Source: at(vn.Content[i].Line), Detail: mcpDetail(entry)})
			default:
				out = append(out, trust.Item{Kind: kind, Name: key + "." + name, Source: at(vn.Content[i].Line), Detail: modelDetail(entry)})
			}
		}
		return out
	case "hooks":
		return hookItems(kind, v, vn, at, src)
	case "models.chat_model.api_key":
		return []trust.Item{{Kind: kind, Name: key, Source: at(src.Line), Detail: keyDetail(v)}}
	case "models.chat_model.base_url":
		s, _ := v.(string)
		return []trust.Item{{Kind: kind, Name: key, Source: at(src.Line), Detail: RedactURL(s)}}
	}
	return []trust.Item{{Kind: kind, Name: key, Source: at(src.Line), Detail: detailValue(v)}}
}

// hookItems makes one item per hook command, from what package hooks
// parses out of the decoded value: exactly the commands that would run,
// each shown as the shell gets it. vn (resolved) only gives the lines.
func hookItems(kind string, v any, vn *yaml.Node, at func(int) string, src Source) []trust.Item {
	lines := map[string]int{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k, val := n.Content[i], n.Content[i+1]; n.Kind == yaml.MappingNode && k.Value == "command" && val.Kind == yaml.ScalarNode {
				if _, ok := lines[val.Value]; !ok {
					lines[val.Value] = val.Line
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(vn)
	m, _ := v.(map[string]any)
	parsed, err := hooks.Parse(m)
	var out []trust.Item
	for _, ev := range hooks.Events {
		for _, g := range parsed[ev] {
			for _, h := range g.Hooks {
				line := src.Line
				if n, ok := lines[h.Command]; ok {
					line = n
				}
				out = append(out, trust.Item{Kind: kind, Name: "hooks." + ev, Source: at(line), Detail: h.Command})
			}
		}
	}
	if err != nil || len(out) == 0 {
		// What hooks cannot parse is refused when trusted; shown whole so
		// that nothing in it can be trusted unseen.
		out = append(out, trust.Item{Kind: kind, Name: "hooks", Source: at(src.Line), Detail: detailValue(v)})
	}
	return out
}

// mcpDetail is what an MCP server entry would run or reach, as a shell
// command line: "GITHUB_TOKEN=${GITHUB_TOKEN} github-mcp-server stdio".
func mcpDetail(entry any) string {
	m, ok := entry.(map[string]any)
	if !ok {
		return detailValue(entry)
	}
	if u, ok := m["url"].(string); ok && u != "" {
		return "connect to " + RedactURL(u)
	}
	var parts []string
	if env, ok := m["env"].(map[string]any); ok {
		names := make([]string, 0, len(env))
		for k := range env {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			parts = append(parts, shellQuote(k+"="+fmt.Sprint(env[k])))
		}
	}
	cmd, _ := m["command"].(string)
	parts = append(parts, shellQuote(cmd))
	switch args := m["args"].(type) {
	case []any:
		for _, a := range args {
			parts = append(parts, shellQuote(fmt.Sprint(a)))
		}
	case string:
		parts = append(parts, shellQuote(args))
	}
	return strings.Join(parts, " ")
}

// modelDetail describes a models.named entry: every key, a literal key redacted.
func modelDetail(entry any) string {
	m, ok := entry.(map[string]any)
	if !ok {
		return detailValue(entry)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		switch k {
		case "api_key":
			parts = append(parts, "api_key "+keyDetail(m[k]))
		case "base_url":
			s, _ := m[k].(string)
			parts = append(parts, "base_url "+RedactURL(s))
		default:
			parts = append(parts, k+" "+detailValue(m[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// keyDetail shows an api_key from a project file: a reference to a
// variable as written, a literal key redacted.
func keyDetail(v any) string {
	s, _ := v.(string)
	if hasVar(s) {
		return s
	}
	return "a key written in the file (" + Redact(s) + ")"
}

func detailValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ':' || r == ',' || r == '@' || r == '+' || r == '%' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ProjectFile is the project configuration file of dir.
func ProjectFile(dir string) string { return filepath.Join(dir, ".fawn", "config.yaml") }
