package config

import (
	"slices"
	"testing"
)

func TestKeyEnv(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin", "HOME=/h", "OPENAI_API_KEY=sk-1", "ANTHROPIC_API_KEY=sk-2", "REPLICATE_API_TOKEN=r",
		"HF_TOKEN=h", "CORP_LLM_SECRET=c", "GITHUB_TOKEN=g", "KEPT_API_KEY=k", "HARMLESS_KEYBOARD=us", "OPENAI_API_KEY=sk-dup",
	}
	sh := Shell{
		UnsetEnv: []string{"PATH", "GITHUB_TOKEN"}, // the shell's list: fawn itself keeps PATH
		KeepEnv:  []string{"KEPT_*"},
		KeyVars:  []string{"CORP_LLM_SECRET"},
	}
	got := KeyEnv(environ, sh)
	want := []string{"ANTHROPIC_API_KEY", "CORP_LLM_SECRET", "HF_TOKEN", "OPENAI_API_KEY", "REPLICATE_API_TOKEN"}
	if !slices.Equal(got, want) {
		t.Errorf("KeyEnv = %v, want %v", got, want)
	}
}

// What Load reads a key from is among KeyEnv's names: the chat model's
// variable and a ${VAR} of a named model's api_key.
func TestKeyEnvAfterLoad(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/config.yaml", "models:\n  named:\n    corp:\n      type: openai\n      model: m\n      base_url: http://127.0.0.1:9/v1\n      api_key: ${CORP_LLM_SECRET}\n")
	env := []string{"FAWN_HOME=" + dir, "OPENAI_API_KEY=sk-user-0123456789", "CORP_LLM_SECRET=corp-0123456789"}
	cfg, _, err := Load(Options{ProjectDir: t.TempDir(), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if got := KeyEnv(env, cfg.Shell); !slices.Equal(got, []string{"CORP_LLM_SECRET", "OPENAI_API_KEY"}) {
		t.Errorf("KeyEnv = %v", got)
	}
}
