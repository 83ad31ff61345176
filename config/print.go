package config

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/fawn-ide/fawn/secret"
)

// Redact hides a secret, keeping what helps recognise it: "sk-…wxyz".
func Redact(s string) string {
	if s == "" {
		return ""
	}
	if len(s) < 12 {
		return "…(redacted)"
	}
	prefix := ""
	if i := strings.IndexByte(s, '-'); i > 0 && i <= 4 {
		prefix = s[:i+1]
	}
	return prefix + "…" + s[len(s)-4:]
}

// secretName says whether a key holds a secret, wherever it sits.
func secretName(key string) bool {
	return secret.LooksSecret(key[strings.LastIndexByte(key, '.')+1:])
}

// RedactURL hides the credentials a URL carries; it is secret.URL, the one
// function fawn shows or stores a URL through.
func RedactURL(s string) string { return secret.URL(s) }

// RedactURLs redacts every URL in a text (an error message, a log line)
// with secret.URL.
func RedactURLs(text string) string { return secret.URLs(text) }

// redactValue redacts the secrets inside v (strings under secret-looking
// names, and the credentials of any URL).
func redactValue(key string, v any) any {
	switch x := v.(type) {
	case string:
		if secretName(key) {
			return Redact(x)
		}
		return RedactURLs(x)
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = redactValue(key+"."+k, e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = redactValue(key, e)
		}
		return s
	}
	return v
}

// Print writes the effective configuration as YAML with every secret redacted
// and, beside each value, where it came from.
func (r *Report) Print() string {
	root := &yaml.Node{Kind: yaml.MappingNode}
	for _, key := range Keys() {
		v := redactValue(key, r.Values[key])
		if d, ok := v.(time.Duration); ok {
			v = d.String()
		}
		var val yaml.Node
		if err := val.Encode(v); err != nil {
			val = yaml.Node{Kind: yaml.ScalarNode, Value: fmt.Sprint(v)}
		}
		if val.Kind == yaml.MappingNode || val.Kind == yaml.SequenceNode {
			sortMapping(&val)
			if len(val.Content) == 0 {
				val.Style = yaml.FlowStyle
			}
		}
		name := &yaml.Node{Kind: yaml.ScalarNode, Value: key[strings.LastIndexByte(key, '.')+1:]}
		// A scalar or flow value ends on its key's line and takes the
		// comment there; the encoder writes the line comment of a block
		// list or mapping after the line of the key that follows it, so
		// theirs goes on the key.
		if val.Style&yaml.FlowStyle != 0 || (val.Kind != yaml.MappingNode && val.Kind != yaml.SequenceNode) {
			val.LineComment = r.Sources[key].String()
		} else {
			name.LineComment = r.Sources[key].String()
		}
		parent := root
		parts := strings.Split(key, ".")
		for _, p := range parts[:len(parts)-1] {
			parent = child(parent, p)
		}
		parent.Content = append(parent.Content, name, &val)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	_ = enc.Encode(root)
	return b.String()
}

func child(m *yaml.Node, name string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			return m.Content[i+1]
		}
	}
	c := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: name}, c)
	return c
}

// sortMapping orders a mapping's keys so the output is stable.
func sortMapping(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		for _, c := range n.Content {
			sortMapping(c)
		}
		return
	}
	type pair struct{ k, v *yaml.Node }
	ps := make([]pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		sortMapping(n.Content[i+1])
		ps = append(ps, pair{n.Content[i], n.Content[i+1]})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].k.Value < ps[j].k.Value })
	n.Content = n.Content[:0]
	for _, p := range ps {
		n.Content = append(n.Content, p.k, p.v)
	}
}

// DemoNotice is the short line the chat shows at start on the demo model;
// the demo's tour ends with the full DemoHelp.
func DemoNotice(configDir string) string {
	return fmt.Sprintf("No model provider is configured, so fawn runs on its offline demo model: send any message for a read-only tour of this project. "+
		"To use a real model, export OPENAI_API_KEY or ANTHROPIC_API_KEY, or set a base_url in %s/config.yaml (see config.example.yaml); `fawn config` shows what fawn found.", configDir)
}

// DemoHelp explains how to configure a real provider; the chat and `fawn config` show it.
func DemoHelp(configDir string) string {
	return fmt.Sprintf(`fawn is running on its offline demo model. To use a real model, either
  export OPENAI_API_KEY=sk-...            (OpenAI), or
  export ANTHROPIC_API_KEY=... FAWN_MODELS_CHAT_MODEL_TYPE=anthropic FAWN_MODEL=claude-sonnet-4-5
or write %s/config.yaml, e.g. for a local Ollama:
  models:
    chat_model:
      type: openai
      model: qwen2.5-coder
      base_url: http://localhost:11434/v1
See config.example.yaml for OpenAI, Anthropic, DeepSeek, OpenRouter, Ollama, llama.cpp and vLLM.`, configDir)
}
