package config

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// DefaultUnsetEnv is shell.unset_env's default: the keys of model
// providers. The agent's shell prints whatever it finds into tool results
// that go to the model, so those keys never reach it.
func DefaultUnsetEnv() []string {
	return []string{
		"*_API_KEY",   // OPENAI_API_KEY, ANTHROPIC_API_KEY, DEEPSEEK_API_KEY, GEMINI_API_KEY, FAWN_MODELS_CHAT_MODEL_API_KEY…
		"*_API_TOKEN", // REPLICATE_API_TOKEN…
		"ANTHROPIC_AUTH_TOKEN",
		"AZURE_OPENAI_AD_TOKEN",
		"HF_TOKEN",
		"HUGGING_FACE_HUB_TOKEN",
	}
}

func envPatterns(v any) string {
	list, _ := v.([]string)
	for _, p := range list {
		if strings.TrimSpace(p) == "" || strings.ContainsAny(p, "= ") {
			return "variable names or patterns such as *_API_KEY"
		}
		if _, err := path.Match(p, ""); err != nil {
			return "variable names or patterns such as *_API_KEY (" + p + " is not a valid pattern)"
		}
	}
	return ""
}

func matchesAny(name string, patterns []string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// CleanEnv is environ (KEY=VALUE entries) without the variables sh
// removes: those matching shell.unset_env and those fawn read a model key
// from, unless shell.keep_env names them. It returns the names removed,
// sorted. The agent's shell, the terminal pane and the MCP servers start
// from it.
func CleanEnv(environ []string, sh Shell) (env, removed []string) {
	env = make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		drop := matchesAny(name, sh.UnsetEnv) || slices.Contains(sh.KeyVars, name)
		if drop && !matchesAny(name, sh.KeepEnv) {
			removed = append(removed, name)
			continue
		}
		env = append(env, kv)
	}
	sort.Strings(removed)
	return env, slices.Compact(removed)
}

// KeyEnv names the variables of environ that hold model keys: those named
// like a provider's key (DefaultUnsetEnv's patterns, whatever
// shell.unset_env says) and those the configuration read a key from
// (sh.KeyVars), except those shell.keep_env keeps for the shell. fawn takes
// them out of its own environment once the configuration has read them
// (secret.Unsetenv), so that no child inherits them or reads them in
// /proc/PID/environ. Only key-shaped names: fawn itself needs PATH, HOME
// and the rest of what shell.unset_env may name.
func KeyEnv(environ []string, sh Shell) []string {
	keys := DefaultUnsetEnv()
	var names []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if (matchesAny(name, keys) || slices.Contains(sh.KeyVars, name)) && !matchesAny(name, sh.KeepEnv) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return slices.Compact(names)
}
