package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/fawn-ide/fawn/trust"
)

// Options says where to look and what the command line gave.
type Options struct {
	// ProjectDir is the directory fawn opens; DIR/.fawn/config.yaml is read from it.
	ProjectDir string
	// File is --config FILE; it must exist.
	File string
	// Flags are values from the command line, by key ("models.chat_model.model"),
	// and the flag that set each (for `fawn config`): key → {value, "--model"}.
	Flags map[string]FlagValue
	// Env is the environment as KEY=VALUE; nil means os.Environ(). Tests inject one.
	Env []string
	// Trusted says the user trusts the project directory: the keys of its
	// .fawn/config.yaml that start programs or choose where the
	// conversation and keys are sent apply, and ${VAR} expands in it.
	// Otherwise they are only reported (Report.Trust). See package trust.
	Trusted bool
}

// FlagValue is a value given on the command line.
type FlagValue struct {
	Value string
	Flag  string
}

// Source says where an effective value came from.
type Source struct {
	Layer string // default | file | env | flag | fallback
	File  string
	Line  int
	Name  string // the environment variable or flag
	Note  string
}

func (s Source) String() string {
	switch s.Layer {
	case "file":
		if s.Line > 0 {
			return fmt.Sprintf("%s:%d", s.File, s.Line)
		}
		return s.File
	case "env":
		return "env " + s.Name
	case "flag":
		return "flag " + s.Name
	case "fallback":
		return "fallback: " + s.Note
	}
	if s.Note != "" {
		return "default: " + s.Note
	}
	return "default"
}

// Problem is one thing wrong (an error) or suspicious (a warning) in the configuration.
type Problem struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString("config: ")
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
	}
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Report is what Load found: every value's source, and the problems.
type Report struct {
	Files    []string // configuration files read, lowest layer first
	Values   map[string]any
	Sources  map[string]Source
	Warnings []Problem
	Errors   []Problem
	// Trust lists what the project's .fawn/config.yaml would make fawn do
	// (start MCP servers, choose the model endpoint), applied only when
	// Options.Trusted.
	Trust []trust.Item
}

// Error is returned by Load when the configuration has errors; it lists all of them.
type Error struct{ Problems []Problem }

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Dirs returns fawn's configuration and data directories: $FAWN_HOME (data in
// $FAWN_HOME/data) or $XDG_CONFIG_HOME/fawn and $XDG_DATA_HOME/fawn.
func Dirs(lookup func(string) (string, bool)) (configDir, dataDir string) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if h, ok := lookup("FAWN_HOME"); ok && h != "" {
		return h, filepath.Join(h, "data")
	}
	home, _ := os.UserHomeDir()
	configDir = filepath.Join(home, ".config", "fawn")
	if x, ok := lookup("XDG_CONFIG_HOME"); ok && x != "" {
		configDir = filepath.Join(x, "fawn")
	}
	dataDir = filepath.Join(home, ".local", "share", "fawn")
	if x, ok := lookup("XDG_DATA_HOME"); ok && x != "" {
		dataDir = filepath.Join(x, "fawn")
	}
	return configDir, dataDir
}

// Load reads every layer, validates the result and returns the effective
// configuration. With errors it returns the report and an *Error listing them.
func Load(opts Options) (*Config, *Report, error) {
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	l := &loader{opts: opts, env: env, lookup: Lookup(env), fields: schema(), keyVars: map[string][]string{}, preProject: map[string]any{}}
	l.rep = &Report{Values: map[string]any{}, Sources: map[string]Source{}}
	configDir, dataDir := Dirs(l.lookup)

	for _, f := range l.fields {
		l.rep.Values[f.key] = f.def
		l.rep.Sources[f.key] = Source{Layer: "default"}
	}
	l.readKeysFile(KeysFile(configDir))
	l.readFile(filepath.Join(configDir, "config.yaml"), false)
	if f := LocalRulesFile(dataDir, opts.ProjectDir); f != "" {
		l.readFile(f, false) // the user's own answers: trusted like their config
	}
	if opts.ProjectDir != "" {
		l.projectFile = ProjectFile(opts.ProjectDir)
		l.readFile(l.projectFile, false)
	}
	if opts.File != "" {
		l.readFile(opts.File, true)
	}
	l.applyEnv()
	l.applyFlags()
	l.fallback()
	l.checkKeyDestinations()
	l.validate()

	cfg := &Config{ProjectDir: opts.ProjectDir, ConfigDir: configDir, DataDir: dataDir}
	if len(l.rep.Errors) == 0 {
		if err := decode(l.rep.Values, cfg); err != nil {
			l.rep.Errors = append(l.rep.Errors, Problem{Msg: err.Error()})
		}
	}
	cfg.UI.KeySources = map[string]string{}
	for name, src := range l.keySources {
		cfg.UI.KeySources[name] = src.String()
	}
	cfg.Shell.KeyVars = l.keyRead
	cfg.Permissions.RuleSources = map[string]string{}
	for k, src := range l.ruleSources {
		cfg.Permissions.RuleSources[strings.Replace(strings.TrimPrefix(k, "permissions."), "\x00", " ", 1)] = src
	}
	if src := l.rep.Sources["models.chat_model.api_key"]; src.Layer == "env" && src.Name != "" {
		cfg.Shell.KeyVars = append(cfg.Shell.KeyVars, src.Name)
	}
	l.readSearchKey(cfg)
	cfg.Models.Chat.Demo = l.demo
	cfg.Models.Chat.DemoReason = l.demoReason
	if len(l.rep.Errors) > 0 {
		return cfg, l.rep, &Error{Problems: l.rep.Errors}
	}
	return cfg, l.rep, nil
}

// Lookup returns a lookup function over an environment given as KEY=VALUE.
func Lookup(env []string) func(string) (string, bool) {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

type loader struct {
	opts       Options
	env        []string
	lookup     func(string) (string, bool)
	fields     []field
	rep        *Report
	demo       bool
	demoReason string
	// projectFile is the project's config file, whose values are filtered
	// by projectValue; keyVars the secrets expanded into its api_keys.
	projectFile string
	keyVars     map[string][]string
	// preProject are the values the project's file replaced, by key (only
	// where a user's key may be sent).
	preProject map[string]any
	// keyRead are the variables a model key was read from, for Shell.KeyVars.
	keyRead []string
	// ruleSources: "permissions.allow\x00rule" → where it was set.
	ruleSources map[string]string
	// keySources: where each action of ui.keys was bound (keysfile.go).
	keySources map[string]Source
}

func (l *loader) field(key string) *field {
	for i := range l.fields {
		if l.fields[i].key == key {
			return &l.fields[i]
		}
	}
	return nil
}

func (l *loader) warn(p Problem)   { l.rep.Warnings = append(l.rep.Warnings, p) }
func (l *loader) errorf(p Problem) { l.rep.Errors = append(l.rep.Errors, p) }

// DefaultAnthropicModel is the model used when Anthropic is chosen and no model is named.
const DefaultAnthropicModel = "claude-sonnet-4-5"

// aliases maps keys of DeerCode's files (and common misnamings) to fawn's.
var aliases = map[string]string{
	"models.chat_model.api_base": "models.chat_model.base_url",
	"keys":                       "ui.keys", // the keymap section, as keys.yaml names it
}

// MaxFileSize bounds a configuration file; a larger one is refused.
const MaxFileSize = 1 << 20

func (l *loader) readFile(path string, required bool) {
	var data []byte
	var err error
	if path == l.projectFile {
		// The repository's: only a regular file inside it.
		data, err = trust.ReadProjectFile(l.opts.ProjectDir, path, MaxFileSize)
	} else {
		data, err = trust.ReadFile(path, MaxFileSize)
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && !required {
			return
		}
		msg := err.Error()
		var fe *trust.FileError
		switch {
		case errors.Is(err, os.ErrNotExist):
			msg = "no such file (given with --config)"
		case errors.As(err, &fe):
			msg = "this file " + fe.Reason
		}
		l.errorf(Problem{File: path, Msg: msg})
		return
	}
	l.rep.Files = append(l.rep.Files, path)
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		l.errorf(Problem{File: path, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")})
		return
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return // empty file
	}
	// Aliases, merge keys and !!binary resolved: what is shown for trust
	// is what is decoded and applied.
	root, err := resolve(doc.Content[0])
	if err != nil {
		l.errorf(Problem{File: path, Msg: err.Error()})
		return
	}
	if root.Kind != yaml.MappingNode {
		l.errorf(Problem{File: path, Line: root.Line, Msg: "the top level must be a mapping (models:, tools:, permissions:, ui:, agent:)"})
		return
	}
	l.walk(path, "", root)
}

// walk descends a file's mapping, setting every known leaf key it finds.
func (l *loader) walk(path, prefix string, m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn, vn := m.Content[i], m.Content[i+1]
		key := kn.Value
		if prefix != "" {
			key = prefix + "." + kn.Value
		}
		if to, ok := aliases[key]; ok {
			key = to
		}
		if f := l.field(key); f != nil {
			var v any
			if err := vn.Decode(&v); err != nil {
				l.errorf(Problem{File: path, Line: vn.Line, Key: key, Msg: err.Error()})
				continue
			}
			src := Source{Layer: "file", File: path, Line: vn.Line}
			if path == l.projectFile {
				var ok bool
				if v, ok = l.projectValue(key, v, vn, src); !ok {
					continue
				}
			} else if key == "ui.keys" {
				l.keyLines(path, vn)
			}
			l.set(key, v, src)
			continue
		}
		if vn.Kind == yaml.MappingNode && l.isPrefix(key) {
			l.walk(path, key, vn)
			continue
		}
		msg := "unknown key (ignored)"
		if s := l.suggestSection(key, vn); s != "" {
			msg += "; did you mean " + s + "?"
		} else if s := l.suggest(key); s != "" {
			msg += "; did you mean " + s + "?"
		}
		l.warn(Problem{File: path, Line: kn.Line, Key: key, Msg: msg})
	}
}

func (l *loader) isPrefix(key string) bool {
	for _, f := range l.fields {
		if strings.HasPrefix(f.key, key+".") {
			return true
		}
	}
	return false
}

// suggest finds the known key closest to a mistyped one.
func (l *loader) suggest(key string) string {
	best, bestD := "", 4
	for _, f := range l.fields {
		if d := editDistance(key, f.key); d < bestD {
			best, bestD = f.key, d
		}
	}
	return best
}

// suggestSection names the section a mapping under an unknown key was
// likely meant for: the one its name begins ("models.chat" for
// models.chat_model), whose keys are too far from its own for suggest.
func (l *loader) suggestSection(key string, vn *yaml.Node) string {
	if vn.Kind != yaml.MappingNode {
		return ""
	}
	parent, name := "", key
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		parent, name = key[:i+1], key[i+1:]
	}
	if len(name) < 3 {
		return ""
	}
	for _, f := range l.fields {
		rest, ok := strings.CutPrefix(f.key, parent+name+"_")
		if !ok {
			continue
		}
		if i := strings.IndexByte(rest, '.'); i > 0 {
			return parent + name + "_" + rest[:i]
		}
	}
	return ""
}

// set expands variables in v, coerces it to the key's type and records it.
func (l *loader) set(key string, v any, src Source) {
	f := l.field(key)
	v = l.expand(key, v, src)
	cv, ok := coerce(f.kind, v)
	if !ok {
		l.errorf(Problem{File: src.File, Line: src.Line, Key: key, Msg: fmt.Sprintf("%s is not %s%s", show(v), f.kind, where(src))})
		return
	}
	if f.kind == kMap {
		// Maps merge entry by entry across layers (user servers + project servers).
		merged := map[string]any{}
		if old, ok := l.rep.Values[key].(map[string]any); ok {
			for k, x := range old {
				merged[k] = x
			}
		}
		for k, x := range cv.(map[string]any) {
			// Hooks of one event add up across layers (the user's and the
			// team's), like rules.
			if a, ok := merged[k].([]any); ok && key == "hooks" {
				if b, ok := x.([]any); ok {
					x = append(append([]any(nil), a...), b...)
				}
			}
			merged[k] = x
		}
		cv = merged
	}
	if strings.HasPrefix(key, "permissions.") && f.kind == kStringList {
		// Rules add up across layers (the user's, the team's), each
		// remembering where it came from.
		old, _ := l.rep.Values[key].([]string)
		merged := append([]string(nil), old...)
		for _, r := range cv.([]string) {
			if !slices.Contains(merged, r) {
				merged = append(merged, r)
			}
			if l.ruleSources == nil {
				l.ruleSources = map[string]string{}
			}
			if _, ok := l.ruleSources[key+"\x00"+r]; !ok {
				l.ruleSources[key+"\x00"+r] = src.String()
			}
		}
		cv = merged
	}
	l.rep.Values[key] = cv
	l.rep.Sources[key] = src
}

func where(src Source) string {
	switch src.Layer {
	case "env", "flag":
		return " (from " + src.String() + ")"
	}
	return ""
}

func show(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case nil:
		return "an empty value"
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return fmt.Sprint(v)
}

// expand replaces ${VAR} and $VAR in every string inside v; $$ is a literal $.
func (l *loader) expand(key string, v any, src Source) any {
	if key == "hooks" || strings.HasPrefix(key, "hooks.") {
		// Hook commands are bash's to expand, in the hooks' environment
		// (which has no API keys).
		return v
	}
	switch x := v.(type) {
	case string:
		lookup := l.lookup
		if src.File != "" && src.File == l.projectFile {
			lookup = l.projectLookup(key, src)
		}
		if isAPIKeyKey(key) {
			inner := lookup
			lookup = func(name string) (string, bool) {
				v, ok := inner(name)
				if ok && v != "" {
					l.keyRead = append(l.keyRead, name)
				}
				return v, ok
			}
		}
		out, unset := expandVars(x, lookup)
		for _, name := range unset {
			l.warn(Problem{File: src.File, Line: src.Line, Key: key, Msg: fmt.Sprintf("${%s} is not set, so it expands to empty", name)})
		}
		return out
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = l.expand(key+"."+k, e, src)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = l.expand(key, e, src)
		}
		return s
	}
	return v
}

func expandVars(s string, lookup func(string) (string, bool)) (string, []string) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	var unset []string
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == '$' {
			b.WriteByte('$')
			i++
			continue
		}
		var name string
		end := i
		if s[i+1] == '{' {
			j := strings.IndexByte(s[i+2:], '}')
			if j < 0 {
				b.WriteByte(s[i])
				continue
			}
			name, end = s[i+2:i+2+j], i+2+j
		} else {
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || j > i+1 && s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if j == i+1 {
				b.WriteByte(s[i])
				continue
			}
			name, end = s[i+1:j], j-1
		}
		val, ok := lookup(name)
		if !ok {
			unset = append(unset, name)
		}
		b.WriteString(val)
		i = end
	}
	return b.String(), unset
}

// coerce converts a decoded YAML value or an environment string to the kind's Go type.
func coerce(k kind, v any) (any, bool) {
	s, isStr := v.(string)
	switch k {
	case kString:
		switch x := v.(type) {
		case string:
			return x, true
		case nil:
			return "", true
		case int, float64, bool:
			return fmt.Sprint(x), true // model: 4 or a numeric key stays usable
		}
	case kFloat:
		switch x := v.(type) {
		case int:
			return float64(x), true
		case float64:
			return x, true
		}
		if isStr {
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			return f, err == nil
		}
	case kInt:
		switch x := v.(type) {
		case int:
			return x, true
		case float64:
			if x == float64(int(x)) {
				return int(x), true
			}
		}
		if isStr {
			n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(s), "_", ""))
			return n, err == nil
		}
	case kDuration:
		switch x := v.(type) {
		case int:
			return time.Duration(x) * time.Second, true // bare numbers are seconds
		case float64:
			return time.Duration(x * float64(time.Second)), true
		}
		if isStr {
			s = strings.TrimSpace(s)
			if n, err := strconv.ParseFloat(s, 64); err == nil {
				return time.Duration(n * float64(time.Second)), true
			}
			d, err := time.ParseDuration(s)
			return d, err == nil
		}
	case kStringList:
		switch x := v.(type) {
		case []any:
			out := make([]string, 0, len(x))
			for _, e := range x {
				es, ok := e.(string)
				if !ok {
					return nil, false
				}
				out = append(out, es)
			}
			return out, true
		case string:
			return []string{x}, true
		}
	case kSwitchOrList:
		switch x := v.(type) {
		case bool:
			return x, true
		case string:
			return x, true // sandbox.ParseNetwork reads "true", "false" or "host:port,…"
		case []any:
			return coerce(kStringList, x)
		}
	case kMap:
		switch x := v.(type) {
		case map[string]any:
			return x, true
		case nil:
			return map[string]any{}, true
		}
	}
	return nil, false
}

// applyEnv reads the environment layer. FAWN_* variables override the files.
// The provider variables (OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY)
// only fill in what no file set, and a key only goes to its own provider: an
// OPENAI_API_KEY must never be sent to a base_url some file pointed elsewhere.
func (l *loader) applyEnv() {
	for _, f := range l.fields {
		if f.kind == kMap {
			continue
		}
		name := "FAWN_" + strings.ToUpper(strings.ReplaceAll(f.key, ".", "_"))
		if v, ok := l.lookup(name); ok && v != "" {
			l.set(f.key, v, Source{Layer: "env", Name: name})
		}
	}
	if v, ok := l.lookup("FAWN_MODEL"); ok && v != "" {
		l.set("models.chat_model.model", v, Source{Layer: "env", Name: "FAWN_MODEL"})
	}
	fromFile := func(key string) bool { return l.rep.Sources[key].Layer == "file" || l.rep.Sources[key].Layer == "env" }
	typ, _ := l.rep.Values["models.chat_model.type"].(string)
	// Only ANTHROPIC_API_KEY in the environment and no provider chosen anywhere:
	// the user clearly means Anthropic.
	_, openaiKey := l.lookup("OPENAI_API_KEY")
	_, openaiBase := l.lookup("OPENAI_BASE_URL")
	if akey, ok := l.lookup("ANTHROPIC_API_KEY"); ok && akey != "" && typ == "openai" && !openaiKey && !openaiBase &&
		l.rep.Sources["models.chat_model.type"].Layer == "default" && !fromFile("models.chat_model.base_url") && !fromFile("models.chat_model.api_key") {
		typ = "anthropic"
		l.set("models.chat_model.type", typ, Source{Layer: "env", Name: "ANTHROPIC_API_KEY", Note: "only Anthropic is configured"})
		if l.rep.Sources["models.chat_model.model"].Layer == "default" {
			l.set("models.chat_model.model", DefaultAnthropicModel, Source{Layer: "default", Note: "Anthropic"})
		}
	}
	switch typ {
	case "openai":
		if v, ok := l.lookup("OPENAI_BASE_URL"); ok && v != "" && !fromFile("models.chat_model.base_url") {
			l.set("models.chat_model.base_url", v, Source{Layer: "env", Name: "OPENAI_BASE_URL"})
		}
		base, _ := l.rep.Values["models.chat_model.base_url"].(string)
		ownBase := base == "" || sameHost(hostOf(base, "openai"), "api.openai.com") || l.rep.Sources["models.chat_model.base_url"].Name == "OPENAI_BASE_URL"
		if v, ok := l.lookup("OPENAI_API_KEY"); ok && v != "" && !fromFile("models.chat_model.api_key") && ownBase {
			l.set("models.chat_model.api_key", v, Source{Layer: "env", Name: "OPENAI_API_KEY"})
		}
	case "anthropic":
		if v, ok := l.lookup("ANTHROPIC_API_KEY"); ok && v != "" && !fromFile("models.chat_model.api_key") {
			l.set("models.chat_model.api_key", v, Source{Layer: "env", Name: "ANTHROPIC_API_KEY"})
		}
	}
	l.warnUnknownEnv()
}

// processEnv names the FAWN_ variables read outside the config: they
// are not keys, and not typos of one.
func processEnv() []string { return []string{"FAWN_CPUPROFILE", "FAWN_MEMPROFILE", "FAWN_FRAMELOG"} }

// warnUnknownEnv catches typos such as FAWN_PERMISSION_MODE.
func (l *loader) warnUnknownEnv() {
	known := map[string]bool{"FAWN_HOME": true, "FAWN_MODEL": true}
	for _, n := range processEnv() {
		known[n] = true
	}
	for _, f := range l.fields {
		known["FAWN_"+strings.ToUpper(strings.ReplaceAll(f.key, ".", "_"))] = true
	}
	var names []string
	for _, kv := range l.env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "FAWN_") && !known[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		l.warn(Problem{Key: n, Msg: "unknown environment variable (ignored); FAWN_<SECTION>_<KEY> names a key, e.g. FAWN_PERMISSIONS_MODE"})
	}
}

func (l *loader) applyFlags() {
	keys := make([]string, 0, len(l.opts.Flags))
	for k := range l.opts.Flags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fv := l.opts.Flags[k]
		if l.field(k) == nil {
			l.errorf(Problem{Key: k, Msg: "unknown key given by " + fv.Flag})
			continue
		}
		l.set(k, fv.Value, Source{Layer: "flag", Name: fv.Flag})
	}
}

// fallback picks the demo model when no provider is configured, and fills the
// OpenAI base URL when only a key is given.
func (l *loader) fallback() {
	typ, _ := l.rep.Values["models.chat_model.type"].(string)
	key, _ := l.rep.Values["models.chat_model.api_key"].(string)
	base, _ := l.rep.Values["models.chat_model.base_url"].(string)
	switch {
	case typ == "demo":
		l.demo = true
	case typ == "openai" && key == "" && base == "":
		l.demo = true
		l.demoReason = "no api_key and no base_url configured for the openai model"
		l.rep.Values["models.chat_model.type"] = "demo"
		l.rep.Sources["models.chat_model.type"] = Source{Layer: "fallback", Note: l.demoReason}
	case typ == "openai" && base == "":
		l.rep.Values["models.chat_model.base_url"] = "https://api.openai.com/v1"
		l.rep.Sources["models.chat_model.base_url"] = Source{Layer: "default", Note: "OpenAI"}
	}
}

func (l *loader) validate() {
	for _, f := range l.fields {
		v := l.rep.Values[f.key]
		if f.check == nil {
			continue
		}
		if want := f.check(v); want != "" {
			src := l.rep.Sources[f.key]
			l.errorf(Problem{File: src.File, Line: src.Line, Key: f.key, Msg: fmt.Sprintf("%s is not valid: expected %s%s", show(v), want, where(src))})
		}
	}
	typ, _ := l.rep.Values["models.chat_model.type"].(string)
	model, _ := l.rep.Values["models.chat_model.model"].(string)
	key, _ := l.rep.Values["models.chat_model.api_key"].(string)
	if (typ == "openai" || typ == "anthropic") && strings.TrimSpace(model) == "" {
		src := l.rep.Sources["models.chat_model.model"]
		l.errorf(Problem{File: src.File, Line: src.Line, Key: "models.chat_model.model", Msg: "empty: name the model to use, e.g. gpt-4o or claude-sonnet-4-5"})
	}
	if typ == "anthropic" && key == "" {
		src := l.rep.Sources["models.chat_model.api_key"]
		if src.File == "" {
			src = l.rep.Sources["models.chat_model.type"] // point at what asked for anthropic
		}
		l.errorf(Problem{File: src.File, Line: src.Line, Key: "models.chat_model.api_key", Msg: "empty for an anthropic model: set ANTHROPIC_API_KEY or api_key"})
	}
}

// Keys returns every key fawn knows, in display order.
func Keys() []string {
	var ks []string
	for _, f := range schema() {
		ks = append(ks, f.key)
	}
	return ks
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// readSearchKey reads the Brave Search API key from the variable
// web.search.api_key_env names, as a model key is read: the variable then
// leaves fawn's environment and the shell's (Shell.KeyVars), and its value
// is redacted wherever it would show.
func (l *loader) readSearchKey(cfg *Config) {
	ws := &cfg.Web.Search
	if ws.Type != "brave" || ws.APIKeyEnv == "" {
		return
	}
	if v, ok := l.lookup(ws.APIKeyEnv); ok && v != "" {
		ws.APIKey = v
		cfg.Shell.KeyVars = append(cfg.Shell.KeyVars, ws.APIKeyEnv)
		return
	}
	l.warn(Problem{Key: "web.search.api_key_env", Msg: fmt.Sprintf("web.search.type is brave but %s is not set: web_search will say so until you export your Brave Search API key there", ws.APIKeyEnv)})
}
