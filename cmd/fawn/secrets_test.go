package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/fawn-ide/fawn/config"
)

// dropKeys leaves no model key in fawn's environment and hides every
// secret it knows: the variables', the configuration's keys and URL
// passwords.
func TestDropKeys(t *testing.T) {
	t.Setenv("FAWN_TEST_API_KEY", "sk-fawn-test-0123456789")
	t.Setenv("FAWN_TEST_CORP", "corp-secret-0123456789")
	t.Setenv("FAWN_TEST_PLAIN", "stays")
	cfg := &config.Config{}
	cfg.Shell.KeyVars = []string{"FAWN_TEST_CORP"}
	cfg.Models.Chat.APIKey = "literal-key-in-config"
	cfg.Models.Chat.BaseURL = "https://u:url-password-1@host/v1"
	var stderr bytes.Buffer
	red := dropKeys(os.Environ(), cfg, &stderr)
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
	for _, name := range []string{"FAWN_TEST_API_KEY", "FAWN_TEST_CORP"} {
		if v, ok := os.LookupEnv(name); ok {
			t.Errorf("%s is still set (%q)", name, v)
		}
	}
	if os.Getenv("FAWN_TEST_PLAIN") != "stays" {
		t.Error("a variable that is no key was removed")
	}
	in := "sk-fawn-test-0123456789 corp-secret-0123456789 literal-key-in-config url-password-1"
	if got := red.String(in); got != "[redacted] [redacted] [redacted] [redacted]" {
		t.Errorf("redacted: %q", got)
	}
}

// A hosted agent's keys are secrets; the rest of its environment (its
// HOME, its directories) is not, or its messages would come out garbled.
func TestAgentSecrets(t *testing.T) {
	cfg := &config.Config{Agents: map[string]config.ACPAgent{"claude": {Command: "claude-agent-acp",
		Env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant-agent-0123456789", "HOME": "/tmp/agent-home"}}}}
	red := dropKeys(nil, cfg, &bytes.Buffer{})
	if got := red.String("sk-ant-agent-0123456789 in /tmp/agent-home/config.toml"); got != "[redacted] in /tmp/agent-home/config.toml" {
		t.Errorf("redacted: %q", got)
	}
}
