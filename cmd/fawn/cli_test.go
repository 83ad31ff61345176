package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs fawn's command line in-process with a private FAWN_HOME.
func runCLI(t *testing.T, home string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("FAWN_HOME", home)
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "FAWN_MODEL"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodes(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"help", []string{"--help"}, 0, "Usage:", ""},
		{"short help", []string{"-h"}, 0, "--permission-mode", ""},
		{"version", []string{"--version"}, 0, "fawn ", ""},
		{"unknown flag", []string{"--frobnicate"}, 2, "", "unknown flag: --frobnicate"},
		{"missing dir", []string{"/no/such/dir"}, 2, "", "fawn: /no/such/dir: no such directory"},
		{"file as dir", []string{file}, 2, "", "not a directory"},
		{"two dirs", []string{".", "."}, 2, "", "at most one directory"},
		{"bad output format", []string{"--output-format", "xml", "-p", "hi"}, 2, "", `--output-format "xml": expected one of text, json, stream-json`},
		{"empty prompt", []string{"-p", " "}, 2, "", "needs a prompt"},
		{"check without config", []string{"--check"}, 2, "", "--check goes with `fawn config`"},
		{"agent with resume", []string{"--agent", "claude", "--resume", "abc"}, 2, "", "--agent claude: no such agent"},
		{"unknown agent", []string{"--agent", "nobody", "-p", "hi", t.TempDir()}, 2, "", "--agent nobody: no such agent (none is configured)"},
		{"bad permission mode", []string{"--permission-mode", "maybe", "config", "--check"}, 2, "", "permissions.mode"},
		{"config check ok", []string{"config", "--check", t.TempDir()}, 0, "configuration ok", ""},
		{"config prints", []string{"config", t.TempDir()}, 0, "type: demo # fallback", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, home, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errs)
			}
			if !strings.Contains(out, c.stdout) {
				t.Errorf("stdout lacks %q:\n%s", c.stdout, out)
			}
			if !strings.Contains(errs, c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, errs)
			}
			if c.code == 2 && strings.Count(strings.TrimSpace(errs), "\n") > 2 {
				t.Errorf("a usage error should be short:\n%s", errs)
			}
		})
	}
}

func TestConfigCheckListsEveryProblem(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte(`models:
  chat_model:
    temperature: hot
    base_ulr: http://localhost/v1
    api_key: ${FAWN_TEST_UNSET_VAR}
ui:
  theme: pink
`), 0o644)
	code, _, errs := runCLI(t, home, "config", "--check", t.TempDir())
	if code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, errs)
	}
	for _, want := range []string{
		"error: " + filepath.Join(home, "config.yaml") + `:3: models.chat_model.temperature: "hot" is not a number`,
		"error: " + filepath.Join(home, "config.yaml") + `:7: ui.theme: "pink" is not valid: expected one of dark, light`,
		"warning: " + filepath.Join(home, "config.yaml") + ":4: models.chat_model.base_ulr: unknown key (ignored); did you mean models.chat_model.base_url?",
		"${FAWN_TEST_UNSET_VAR} is not set, so it expands to empty",
		"2 problems in the configuration",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

func TestConfigYAMLSyntaxError(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("models:\n  chat_model:\n   model: x\n  - broken\n"), 0o644)
	code, _, errs := runCLI(t, home, "config", "--check")
	if code != 2 || !strings.Contains(errs, filepath.Join(home, "config.yaml")+": not valid YAML") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestConfigPrintNeverShowsKeys(t *testing.T) {
	home := t.TempDir()
	t.Setenv("FAWN_HOME", home)
	code, out, errs := func() (int, string, string) {
		var o, e bytes.Buffer
		os.Unsetenv("OPENAI_BASE_URL")
		t.Setenv("OPENAI_API_KEY", "sk-secretsecretsecret4242")
		c := run(context.Background(), []string{"config", t.TempDir()}, strings.NewReader(""), &o, &e)
		return c, o.String(), e.String()
	}()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out+errs, "secretsecret") {
		t.Fatalf("key leaked:\n%s", out)
	}
	if !strings.Contains(out, "api_key: sk-…4242 # env OPENAI_API_KEY") {
		t.Errorf("redacted key with source missing:\n%s", out)
	}
}
