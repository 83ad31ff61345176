package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixture is a fresh FAWN_HOME and project directory with optional files.
type fixture struct {
	home, project string
	env           []string
}

func newFixture(t *testing.T, user, project string) *fixture {
	t.Helper()
	f := &fixture{home: t.TempDir(), project: t.TempDir()}
	f.env = []string{"FAWN_HOME=" + f.home}
	if user != "" {
		write(t, filepath.Join(f.home, "config.yaml"), user)
	}
	if project != "" {
		write(t, filepath.Join(f.project, ".fawn", "config.yaml"), project)
	}
	return f
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) load(t *testing.T, opts Options) (*Config, *Report, error) {
	t.Helper()
	opts.ProjectDir = f.project
	opts.Env = append(opts.Env, f.env...)
	return Load(opts)
}

func TestDefaultsFallBackToDemo(t *testing.T) {
	f := newFixture(t, "", "")
	cfg, rep, err := f.load(t, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := cfg.Models.Chat
	if !m.Demo || m.Type != "demo" || m.DemoReason == "" {
		t.Fatalf("want the demo fallback, got %+v", m)
	}
	if got := rep.Sources["models.chat_model.type"].Layer; got != "fallback" {
		t.Errorf("type source = %q, want fallback", got)
	}
	if cfg.Tools.Bash.Timeout != 120*time.Second || cfg.Permissions.Mode != "ask" || cfg.UI.Theme != "dark" || cfg.Agent.MaxSteps != 100 || cfg.Editor.Keys != "standard" || cfg.Chat.Keys != "standard" {
		t.Errorf("defaults not applied: %+v", cfg)
	}
	if m.Temperature == nil || *m.Temperature != 0 || m.MaxTokens != 8192 || m.ContextWindow != 0 {
		t.Errorf("model defaults not applied: %+v", m)
	}
	if cfg.ConfigDir != f.home || cfg.DataDir != filepath.Join(f.home, "data") {
		t.Errorf("FAWN_HOME not honoured: %q %q", cfg.ConfigDir, cfg.DataDir)
	}
}

func TestLayersInOrder(t *testing.T) {
	f := newFixture(t,
		"models:\n  chat_model:\n    model: user-model\n    base_url: http://user/v1\n    max_tokens: 100\n    context_window: 1000\nui:\n  theme: light\n",
		"models:\n  chat_model:\n    model: project-model\n    max_tokens: 200\n",
	)
	extra := filepath.Join(t.TempDir(), "extra.yaml")
	write(t, extra, "models:\n  chat_model:\n    model: file-model\n")

	cases := []struct {
		name  string
		opts  Options
		model string
		layer string
	}{
		{"project over user", Options{}, "project-model", "file"},
		{"--config over project", Options{File: extra}, "file-model", "file"},
		{"env over --config", Options{File: extra, Env: []string{"FAWN_MODEL=env-model"}}, "env-model", "env"},
		{"flag over env", Options{File: extra, Env: []string{"FAWN_MODEL=env-model"},
			Flags: map[string]FlagValue{"models.chat_model.model": {"flag-model", "--model"}}}, "flag-model", "flag"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Trusted = true // the project's model and max_tokens need trust
			cfg, rep, err := f.load(t, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Models.Chat.Model != c.model {
				t.Errorf("model = %q, want %q", cfg.Models.Chat.Model, c.model)
			}
			if got := rep.Sources["models.chat_model.model"].Layer; got != c.layer {
				t.Errorf("source = %q, want %q", got, c.layer)
			}
			// Keys a higher layer leaves alone keep the lower layer's value.
			if cfg.Models.Chat.MaxTokens != 200 || cfg.Models.Chat.ContextWindow != 1000 || cfg.UI.Theme != "light" {
				t.Errorf("lower layers lost: %+v %+v", cfg.Models.Chat, cfg.UI)
			}
			if src := rep.Sources["models.chat_model.context_window"]; src.File != filepath.Join(f.home, "config.yaml") || src.Line != 6 {
				t.Errorf("context_window source = %+v", src)
			}
		})
	}
}

func TestSectionEnvironmentVariables(t *testing.T) {
	f := newFixture(t, "permissions:\n  mode: ask\n", "")
	cfg, rep, err := f.load(t, Options{Env: []string{
		"FAWN_PERMISSIONS_MODE=yolo", "FAWN_TOOLS_BASH_TIMEOUT=30s", "FAWN_MODELS_CHAT_MODEL_TEMPERATURE=0.5",
		"FAWN_MODELS_CHAT_MODEL_BASE_URL=http://localhost:8080/v1",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Permissions.Mode != "yolo" || cfg.Tools.Bash.Timeout != 30*time.Second || *cfg.Models.Chat.Temperature != 0.5 {
		t.Errorf("env not applied: %+v %+v", cfg.Permissions, cfg.Tools.Bash)
	}
	if cfg.Models.Chat.Demo {
		t.Error("a base_url alone (local server, no key) must not fall back to the demo")
	}
	if s := rep.Sources["permissions.mode"]; s.Layer != "env" || s.Name != "FAWN_PERMISSIONS_MODE" {
		t.Errorf("source = %+v", s)
	}
}

func TestProviderKeysGoOnlyToTheirProvider(t *testing.T) {
	cases := []struct {
		name, user string
		env        []string
		wantKey    string
		wantBase   string
	}{
		{"OPENAI_API_KEY alone uses OpenAI", "", []string{"OPENAI_API_KEY=sk-openai-123456789"}, "sk-openai-123456789", "https://api.openai.com/v1"},
		{"OPENAI_BASE_URL and key", "", []string{"OPENAI_API_KEY=sk-x", "OPENAI_BASE_URL=http://proxy/v1"}, "sk-x", "http://proxy/v1"},
		{"a file's base_url elsewhere never gets the OpenAI key",
			"models:\n  chat_model:\n    base_url: https://api.deepseek.com/v1\n", []string{"OPENAI_API_KEY=sk-openai"}, "", "https://api.deepseek.com/v1"},
		{"a file's own key wins over the environment's",
			"models:\n  chat_model:\n    api_key: sk-file\n", []string{"OPENAI_API_KEY=sk-env"}, "sk-file", "https://api.openai.com/v1"},
		{"ANTHROPIC_API_KEY for anthropic", "models:\n  chat_model:\n    type: anthropic\n    model: claude-sonnet-4-5\n",
			[]string{"ANTHROPIC_API_KEY=sk-ant-abc", "OPENAI_API_KEY=sk-openai"}, "sk-ant-abc", ""},
		{"only ANTHROPIC_API_KEY picks anthropic", "", []string{"ANTHROPIC_API_KEY=sk-ant-only"}, "sk-ant-only", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, c.user, "")
			cfg, _, err := f.load(t, Options{Env: c.env})
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Models.Chat.APIKey != c.wantKey || cfg.Models.Chat.BaseURL != c.wantBase {
				t.Errorf("key %q base %q, want %q %q", cfg.Models.Chat.APIKey, cfg.Models.Chat.BaseURL, c.wantKey, c.wantBase)
			}
			if strings.HasPrefix(c.wantKey, "sk-ant") && (cfg.Models.Chat.Type != "anthropic" || cfg.Models.Chat.Model == "gpt-4o") {
				t.Errorf("anthropic key but type %q model %q", cfg.Models.Chat.Type, cfg.Models.Chat.Model)
			}
		})
	}
}

func TestExpansionInEveryString(t *testing.T) {
	f := newFixture(t, `models:
  chat_model:
    model: ${MODEL_NAME}
    base_url: http://$HOSTNAME_X:8000/v1
    api_key: ${MY_KEY}
    extra_body:
      user: $USER_ID
      price: $$5
tools:
  mcp_servers:
    gh:
      command: ${MISSING_CMD}gh-mcp
`, "")
	cfg, rep, err := f.load(t, Options{Env: []string{"MODEL_NAME=qwen", "HOSTNAME_X=gpu1", "MY_KEY=k-1", "USER_ID=u7"}})
	if err != nil {
		t.Fatal(err)
	}
	m := cfg.Models.Chat
	if m.Model != "qwen" || m.BaseURL != "http://gpu1:8000/v1" || m.APIKey != "k-1" {
		t.Errorf("not expanded: %+v", m)
	}
	if m.ExtraBody["user"] != "u7" || m.ExtraBody["price"] != "$5" {
		t.Errorf("extra_body not expanded: %v", m.ExtraBody)
	}
	if cfg.Tools.MCPServers["gh"].Command != "gh-mcp" {
		t.Errorf("mcp command = %q", cfg.Tools.MCPServers["gh"].Command)
	}
	if !hasProblem(rep.Warnings, "tools.mcp_servers.gh.command", "${MISSING_CMD} is not set") {
		t.Errorf("unset variable not reported: %v", rep.Warnings)
	}
}

func TestAliasAPIBase(t *testing.T) {
	f := newFixture(t, "models:\n  chat_model:\n    api_base: http://localhost:11434/v1\n", "")
	cfg, rep, err := f.load(t, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Models.Chat.BaseURL != "http://localhost:11434/v1" || cfg.Models.Chat.Demo {
		t.Errorf("api_base alias: %+v", cfg.Models.Chat)
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("alias warned: %v", rep.Warnings)
	}
}

func TestUnknownKeysWarn(t *testing.T) {
	f := newFixture(t, "models:\n  chat_model:\n    base_ulr: http://x/v1\ncolour: blue\n", "")
	_, rep, err := f.load(t, Options{Env: []string{"FAWN_PERMISSION_MODE=yolo", "FAWN_CPUPROFILE=/tmp/cpu", "FAWN_MEMPROFILE=/tmp/mem", "FAWN_FRAMELOG=/tmp/frames"}})
	if err != nil {
		t.Fatal(err)
	}
	if !hasProblem(rep.Warnings, "models.chat_model.base_ulr", "did you mean models.chat_model.base_url?") {
		t.Errorf("typo not caught: %v", rep.Warnings)
	}
	if !hasProblem(rep.Warnings, "colour", "unknown key") {
		t.Errorf("unknown top-level key not caught: %v", rep.Warnings)
	}
	if !hasProblem(rep.Warnings, "FAWN_PERMISSION_MODE", "unknown environment variable") {
		t.Errorf("unknown FAWN_ variable not caught: %v", rep.Warnings)
	}
	for _, n := range []string{"FAWN_CPUPROFILE", "FAWN_MEMPROFILE", "FAWN_FRAMELOG"} {
		if hasProblem(rep.Warnings, n, "unknown environment variable") {
			t.Errorf("%s, which fawn reads, is called unknown: %v", n, rep.Warnings)
		}
	}
	for _, w := range rep.Warnings {
		if w.Key == "models.chat_model.base_ulr" && (w.Line != 3 || w.File == "") {
			t.Errorf("warning lacks file:line: %+v", w)
		}
	}
}

// A section named by the start of its name (models.chat for
// models.chat_model) is ignored, and the warning names the section meant.
func TestUnknownSectionSuggestsTheOneMeant(t *testing.T) {
	f := newFixture(t, "models:\n  chat:\n    context_window: 100000000\n", "")
	cfg, rep, err := f.load(t, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Models.Chat.ContextWindow != 0 {
		t.Errorf("context_window under an unknown key was applied: %d", cfg.Models.Chat.ContextWindow)
	}
	if !hasProblem(rep.Warnings, "models.chat", "unknown key (ignored); did you mean models.chat_model?") {
		t.Errorf("no section suggested: %v", rep.Warnings)
	}
}

// agent.auto_compact: 0 is kept from every layer (0 is off; the default
// is 85), from a project not trusted too (it widens nothing).
func TestAutoCompactZeroFromEveryLayer(t *testing.T) {
	off := "agent:\n  auto_compact: 0\n"
	extra := filepath.Join(t.TempDir(), "extra.yaml")
	write(t, extra, off)
	for _, c := range []struct {
		name          string
		user, project string
		opts          Options
	}{
		{"user", off, "", Options{}},
		{"project, not trusted", "", off, Options{}},
		{"--config", "", "", Options{File: extra}},
		{"--config over a user's 90", "agent:\n  auto_compact: 90\n", "", Options{File: extra}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, _, err := newFixture(t, c.user, c.project).load(t, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Agent.AutoCompact != 0 {
				t.Errorf("agent.auto_compact = %d, want 0", cfg.Agent.AutoCompact)
			}
		})
	}
	cfg, _, err := newFixture(t, "", "").load(t, Options{})
	if err != nil || cfg.Agent.AutoCompact != 85 {
		t.Errorf("the default: %d (%v)", cfg.Agent.AutoCompact, err)
	}
}

func TestValidationErrors(t *testing.T) {
	cases := []struct {
		name, yaml, key, msg string
	}{
		{"yaml syntax", "models:\n  chat_model:\n    model: [unclosed\n", "", "not valid YAML"},
		{"top level not a mapping", "- a\n- b\n", "", "top level must be a mapping"},
		{"type", "models:\n  chat_model:\n    type: gemini\n", "models.chat_model.type", `"gemini" is not valid: expected one of openai, anthropic, demo`},
		{"temperature hot", "models:\n  chat_model:\n    temperature: hot\n", "models.chat_model.temperature", `"hot" is not a number`},
		{"temperature range", "models:\n  chat_model:\n    temperature: 7\n", "models.chat_model.temperature", "from 0 to 2"},
		{"max_tokens fraction", "models:\n  chat_model:\n    max_tokens: 1.5\n", "models.chat_model.max_tokens", "is not a whole number"},
		{"context_window negative", "models:\n  chat_model:\n    context_window: -1\n", "models.chat_model.context_window", "a number from 0 to 1e+09"},
		{"base_url", "models:\n  chat_model:\n    base_url: htp:/x\n", "models.chat_model.base_url", `"htp:/x" is not valid: expected an http:// or https:// URL`},
		{"extra_body", "models:\n  chat_model:\n    extra_body: [1]\n", "models.chat_model.extra_body", "is not a mapping"},
		{"empty model", "models:\n  chat_model:\n    model: \"\"\n    api_key: k\n", "models.chat_model.model", "empty"},
		{"anthropic without key", "models:\n  chat_model:\n    type: anthropic\n", "models.chat_model.api_key", "ANTHROPIC_API_KEY"},
		{"bash timeout", "tools:\n  bash:\n    timeout: forever\n", "tools.bash.timeout", "is not a duration"},
		{"bash timeout range", "tools:\n  bash:\n    timeout: 2h\n", "tools.bash.timeout", "from 1s to 10m0s"},
		{"scrollback", "tools:\n  bash:\n    scrollback: 0\n", "tools.bash.scrollback", "greater than 0"},
		{"mcp both", "tools:\n  mcp_servers:\n    x:\n      command: a\n      url: http://b\n", "tools.mcp_servers", "either command or url"},
		{"mcp unknown key", "tools:\n  mcp_servers:\n    x:\n      cmd: a\n", "tools.mcp_servers", "either command or url"},
		{"permission mode", "permissions:\n  mode: sometimes\n", "permissions.mode", "one of ask, accept-edits, plan, yolo"},
		{"theme", "ui:\n  theme: pink\n", "ui.theme", "one of dark, light"},
		{"keys", "ui:\n  keys:\n    editor.save: 5\n", "ui.keys", "a key or a list of keys"},
		{"editor keys", "editor:\n  keys: emacs\n", "editor.keys", "one of standard, vim"},
		{"chat keys", "chat:\n  keys: emacs\n", "chat.keys", "one of standard, vim"},
		{"max_steps", "agent:\n  max_steps: 0\n", "agent.max_steps", "greater than 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, c.yaml, "")
			_, rep, err := f.load(t, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			if !hasProblem(rep.Errors, c.key, c.msg) {
				t.Fatalf("want %s: …%s…, got:\n%v", c.key, c.msg, err)
			}
			for _, p := range rep.Errors {
				if p.File != filepath.Join(f.home, "config.yaml") {
					t.Errorf("error does not name the file: %s", p)
				}
			}
			if !strings.Contains(err.Error(), "config.yaml") {
				t.Errorf("error text lacks the file: %v", err)
			}
		})
	}
}

func TestEveryProblemListed(t *testing.T) {
	f := newFixture(t, "models:\n  chat_model:\n    temperature: hot\npermissions:\n  mode: sometimes\nui:\n  theme: pink\n", "")
	_, rep, err := f.load(t, Options{})
	if err == nil || len(rep.Errors) != 3 {
		t.Fatalf("want 3 errors, got %v", rep.Errors)
	}
	if want := "config.yaml:3: models.chat_model.temperature"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
}

func TestBadFlagAndEnvValues(t *testing.T) {
	f := newFixture(t, "", "")
	_, rep, err := f.load(t, Options{
		Env:   []string{"FAWN_MODELS_CHAT_MODEL_MAX_TOKENS=lots"},
		Flags: map[string]FlagValue{"permissions.mode": {"nope", "--permission-mode"}, "models.chat_model.base_url": {"ftp://x", "--base-url"}},
	})
	if err == nil {
		t.Fatal("no error")
	}
	if !hasProblem(rep.Errors, "models.chat_model.max_tokens", "(from env FAWN_MODELS_CHAT_MODEL_MAX_TOKENS)") {
		t.Errorf("env source not named: %v", rep.Errors)
	}
	if !hasProblem(rep.Errors, "permissions.mode", "(from flag --permission-mode)") {
		t.Errorf("flag source not named: %v", rep.Errors)
	}
	if !hasProblem(rep.Errors, "models.chat_model.base_url", "(from flag --base-url)") {
		t.Errorf("flag source not named: %v", rep.Errors)
	}
}

func TestMissingConfigFile(t *testing.T) {
	f := newFixture(t, "", "")
	_, rep, err := f.load(t, Options{File: filepath.Join(f.home, "nope.yaml")})
	if err == nil || !hasProblem(rep.Errors, "", "no such file (given with --config)") {
		t.Fatalf("got %v", err)
	}
}

func TestMapsMergeAcrossLayers(t *testing.T) {
	f := newFixture(t, "tools:\n  mcp_servers:\n    a:\n      command: one\n",
		"tools:\n  mcp_servers:\n    b:\n      url: http://localhost:9/mcp\n")
	cfg, _, err := f.load(t, Options{Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Tools.MCPServers["a"].Command != "one" || cfg.Tools.MCPServers["b"].URL != "http://localhost:9/mcp" {
		t.Errorf("servers = %+v", cfg.Tools.MCPServers)
	}
}

func TestPrintRedactsAndShowsSources(t *testing.T) {
	f := newFixture(t, "models:\n  chat_model:\n    api_key: sk-proj-abcdefghijklmnop1234\n    extra_body:\n      auth_token: tok-zzzzzzzzzzzz9876\n", "")
	_, rep, err := f.load(t, Options{Flags: map[string]FlagValue{"permissions.mode": {"plan", "--permission-mode"}}})
	if err != nil {
		t.Fatal(err)
	}
	out := rep.Print()
	if strings.Contains(out, "abcdefghijklmnop") || strings.Contains(out, "zzzzzzzzzzzz") {
		t.Fatalf("secret leaked:\n%s", out)
	}
	for _, want := range []string{
		"api_key: sk-…1234 # " + filepath.Join(f.home, "config.yaml") + ":3",
		"auth_token: tok-…9876",
		"mode: plan # flag --permission-mode",
		"theme: dark # default",
		"timeout: 2m0s # default",
		"base_url: https://api.openai.com/v1 # default: OpenAI",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "",
		"short":                    "…(redacted)",
		"sk-abcdefghijklmnopWXYZ":  "sk-…WXYZ",
		"abcdefghijklmnopqrstWXYZ": "…WXYZ",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExpandVars(t *testing.T) {
	look := Lookup([]string{"A=1", "B_2=two", "EMPTY="})
	cases := []struct{ in, out, unset string }{
		{"x${A}y", "x1y", ""},
		{"$A$B_2", "1two", ""},
		{"$$A", "$A", ""},
		{"cost $ 5", "cost $ 5", ""},
		{"${EMPTY}|", "|", ""},
		{"${NOPE}", "", "NOPE"},
		{"${unterminated", "${unterminated", ""},
		{"trailing$", "trailing$", ""},
	}
	for _, c := range cases {
		got, unset := expandVars(c.in, look)
		if got != c.out || strings.Join(unset, ",") != c.unset {
			t.Errorf("expand(%q) = %q %v, want %q %q", c.in, got, unset, c.out, c.unset)
		}
	}
}

func hasProblem(ps []Problem, key, msg string) bool {
	for _, p := range ps {
		if (key == "" || p.Key == key) && strings.Contains(p.String(), msg) {
			return true
		}
	}
	return false
}

// The example file must stay complete and valid: every key shown, no warnings.
func TestExampleFileIsCompleteAndValid(t *testing.T) {
	data, err := os.ReadFile("../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, "", "")
	_, rep, err := f.load(t, Options{File: "../config.example.yaml", Env: []string{"OPENAI_API_KEY=sk-example-000000"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("warnings: %v", rep.Warnings)
	}
	for _, key := range Keys() {
		leaf := key[strings.LastIndexByte(key, '.')+1:]
		if !strings.Contains(string(data), "\n"+strings.Repeat(" ", 2*strings.Count(key, "."))+leaf+":") {
			t.Errorf("config.example.yaml does not show %s", key)
		}
	}
	for _, provider := range []string{"OpenAI", "Anthropic", "DeepSeek", "Ollama", "llama.cpp", "vLLM"} {
		if !strings.Contains(string(data), "# "+provider) {
			t.Errorf("config.example.yaml lacks a %s example", provider)
		}
	}
}

// models.named lists more models for /model, each with its own provider;
// their secrets are redacted like chat_model's, their timeouts read the
// same way, and a broken entry is an error naming it.
func TestNamedModels(t *testing.T) {
	f := newFixture(t, `models:
  chat_model:
    api_key: sk-main-000000000000
  named:
    mini:
      model: gpt-4o-mini
      api_key: ${MINI_KEY}
      timeout: 30
    sonnet:
      type: anthropic
      model: claude-sonnet-4-5
      api_key: sk-ant-secretsecret4321
      stall_timeout: 2m
`, "")
	cfg, rep, err := f.load(t, Options{Env: []string{"MINI_KEY=sk-mini-111111111111"}})
	if err != nil {
		t.Fatal(err)
	}
	mini, sonnet := cfg.Models.Named["mini"], cfg.Models.Named["sonnet"]
	if mini.Model != "gpt-4o-mini" || mini.APIKey != "sk-mini-111111111111" || mini.Timeout != 30*time.Second {
		t.Errorf("mini = %+v", mini)
	}
	if sonnet.Type != "anthropic" || sonnet.StallTimeout != 2*time.Minute {
		t.Errorf("sonnet = %+v", sonnet)
	}
	if out := rep.Print(); strings.Contains(out, "secretsecret") || strings.Contains(out, "111111111111") {
		t.Errorf("a named model's key is printed:\n%s", out)
	}
	for body, want := range map[string]string{
		"    x: {type: gpt}\n":                  `model "x" type to be one of`,
		"    x: {type: openai}\n":               `model "x" to name its model`,
		"    x: {model: m, colour: red}\n":      `model "x" keys to be`,
		"    x: {model: m, base_url: nope}\n":   `model "x" base_url to be an http(s) URL`,
		"    x: {model: m, timeout: soonish}\n": `model "x" timeout to be a duration`,
		"    x: just-a-name\n":                  `model "x" to be a mapping`,
	} {
		f := newFixture(t, "models:\n  named:\n"+body, "")
		_, _, err := f.load(t, Options{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "models.named") {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
	}
}

// ui.keys names actions with dots (editor.save): they reach the UI as
// written.
func TestKeyBindingsWithDots(t *testing.T) {
	f := newFixture(t, "ui:\n  keys:\n    editor.save: [ctrl+w]\n    app.quit: ctrl+q\n", "")
	cfg, _, err := f.load(t, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(cfg.UI.Keys); got != "map[app.quit:[ctrl+q] editor.save:[ctrl+w]]" {
		t.Errorf("ui.keys = %s", got)
	}
}

// Every source comment in `fawn config` sits on the line of the key it is
// about: a list or a mapping written in block style has its source on its
// key's line, not on the line of whatever key follows it.
func TestPrintSourceOnItsOwnKey(t *testing.T) {
	user := "models:\n  chat_model:\n    model: gpt-4o-mini\n    extra_body:\n      top_k: 5\n\npermissions:\n  mode: plan\n  allow:\n    - bash(ls)\nui:\n  theme: light\n"
	f := newFixture(t, user, "")
	_, rep, err := f.load(t, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := rep.Print()
	file := filepath.Join(f.home, "config.yaml")
	for _, want := range []string{
		"model: gpt-4o-mini # " + file + ":3",
		"extra_body: # " + file + ":5",
		"mode: plan # " + file + ":8",
		"allow: # " + file + ":10",
		"theme: light # " + file + ":12",
		"unset_env: # default",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A section heading carries no source of its own.
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, " ") && strings.Contains(line, ": #") {
			t.Errorf("a top-level section line has a source comment: %q", line)
		}
	}
}

// worktrees.dir is the user's to set, to an absolute directory; unset, the
// worktrees go beside the session data.
func TestWorktreesDir(t *testing.T) {
	f := newFixture(t, "", "")
	cfg, _, err := f.load(t, Options{})
	if err != nil || cfg.WorktreesDir() != filepath.Join(f.home, "data", "worktrees") {
		t.Errorf("default: %q, %v", cfg.WorktreesDir(), err)
	}
	f = newFixture(t, "worktrees:\n  dir: /srv/trees\n", "")
	if cfg, _, err = f.load(t, Options{}); err != nil || cfg.WorktreesDir() != "/srv/trees" {
		t.Errorf("set: %q, %v", cfg.WorktreesDir(), err)
	}
	f = newFixture(t, "worktrees:\n  dir: trees\n", "")
	if _, _, err = f.load(t, Options{}); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("a relative directory: %v", err)
	}
}

// Pools and failover: every entry takes parallel and fallbacks, models
// takes background, failover_cooldown and retry_delay; a bad parallel is an error
// naming the entry.
func TestPoolsAndFallbacks(t *testing.T) {
	f := newFixture(t, `models:
  chat_model:
    parallel: 2
    fallbacks: [spare]
  named:
    spare:
      model: m
      parallel: 3
      fallbacks: [other]
  background: [spare]
  failover_cooldown: 5s
  retry_delay: 250ms
`, "")
	cfg, _, err := f.load(t, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := cfg.Models
	if m.Chat.Parallel != 2 || fmt.Sprint(m.Chat.Fallbacks) != "[spare]" || m.Named["spare"].Parallel != 3 ||
		fmt.Sprint(m.Named["spare"].Fallbacks) != "[other]" || fmt.Sprint(m.Background) != "[spare]" || m.FailoverCooldown != 5*time.Second || m.RetryDelay != 250*time.Millisecond {
		t.Errorf("models = %+v", m)
	}
	f = newFixture(t, "models:\n  named:\n    x: {model: m, parallel: 0}\n", "")
	if _, _, err := f.load(t, Options{}); err == nil || !strings.Contains(err.Error(), `model "x" parallel`) {
		t.Errorf("parallel 0: error %v", err)
	}
	f = newFixture(t, "", "")
	if cfg, _, err := f.load(t, Options{}); err != nil || cfg.Models.Chat.Parallel != 1 || cfg.Models.FailoverCooldown != time.Minute || cfg.Models.RetryDelay != time.Second {
		t.Errorf("defaults: %v, parallel %d, cooldown %s, retry delay %s", err, cfg.Models.Chat.Parallel, cfg.Models.FailoverCooldown, cfg.Models.RetryDelay)
	}
}
