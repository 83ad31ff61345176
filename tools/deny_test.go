package tools

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/rules"
)

// denyEnv is a project with secrets beside ordinary files, and the user's
// Read deny rules in force as the agent puts them.
func denyEnv(t *testing.T) *Env {
	t.Helper()
	env := newTestEnv(t, map[string]string{
		".env":                "API_TOKEN=hunter2-needle\n",
		"sub/.env":            "NESTED_TOKEN=hunter3-needle\n",
		"secrets/key.pem":     "-----BEGIN PRIVATE KEY----- needle\n",
		"secrets/deep/x.txt":  "deep secret needle\n",
		"config/prod.secret":  "prod secret needle\n",
		"main.go":             "package main // needle\n",
		"docs/readme.md":      "needle docs\n",
		"secretsaside/ok.txt": "needle not under secrets/\n",
	})
	set := &rules.Set{}
	for _, err := range set.Add([]string{"Read(.env)", "Read(secrets/**)", "Read(*.secret)"}, rules.Deny, nil) {
		t.Fatal(err)
	}
	env.ReadDenied = func(rel string) string {
		if r := set.ReadDenied(rel); r != nil {
			return r.Raw
		}
		return ""
	}
	return env
}

// secretIn says which secret a result shows, by content or by name.
func secretIn(out string) string {
	for _, s := range []string{"hunter2", "hunter3", "PRIVATE KEY", "deep secret", "prod secret", ".env", "key.pem", "x.txt", "prod.secret"} {
		if strings.Contains(out, s) {
			return s
		}
	}
	return ""
}

// TestReadDenyRulesHoldForEveryReadingTool: grep (every output mode, a glob
// asking for the file by name), glob, ls, tree and text_editor view never
// show a denied file's content nor its name, and say that they hid some.
func TestReadDenyRulesHoldForEveryReadingTool(t *testing.T) {
	env := denyEnv(t)
	grep, glob, ls, tree, ed := NewGrep(env), NewGlob(env), NewLs(env), NewTree(env), NewTextEditor(env)
	for _, c := range []struct {
		name string
		tool Tool
		args map[string]any
		want string // a kept file the result must still show
	}{
		{"grep content", grep, map[string]any{"pattern": "needle|TOKEN|KEY", "output_mode": "content"}, "main.go"},
		{"grep files", grep, map[string]any{"pattern": "needle"}, "main.go"},
		{"grep count", grep, map[string]any{"pattern": "needle", "output_mode": "count"}, "main.go"},
		{"grep hidden files", grep, map[string]any{"pattern": "TOKEN", "glob": ".e*", "output_mode": "content"}, ""},
		{"grep glob pem", grep, map[string]any{"pattern": ".", "glob": "**/*.pem", "output_mode": "content"}, ""},
		{"glob all", glob, map[string]any{"pattern": "**/*"}, "main.go"},
		{"glob dotfiles", glob, map[string]any{"pattern": "**/.e*"}, ""},
		{"ls root", ls, map[string]any{"path": ".", "all": true}, "main.go"},
		{"ls sub", ls, map[string]any{"path": "sub", "all": true}, ""},
		{"tree", tree, map[string]any{"path": ".", "max_depth": 5}, "main.go"},
		{"view root", ed, map[string]any{"command": "view", "path": "."}, "main.go"},
	} {
		out, err := runTool(t, c.tool, c.args)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s := secretIn(out); s != "" {
			t.Errorf("%s shows %q:\n%s", c.name, s, out)
		}
		if !strings.Contains(out, "hidden by the user's Read deny rules") {
			t.Errorf("%s does not say what it hid:\n%s", c.name, out)
		}
		if c.want != "" && !strings.Contains(out, c.want) {
			t.Errorf("%s lost %s:\n%s", c.name, c.want, out)
		}
		if c.name == "glob all" && !strings.Contains(out, "secretsaside/ok.txt") {
			t.Errorf("glob hid a directory the rule does not name:\n%s", out)
		}
	}
	// Naming a denied file or directory is refused, in Plan too, with the rule.
	for _, c := range []struct {
		tool Tool
		args map[string]any
	}{
		{ed, map[string]any{"command": "view", "path": ".env"}},
		{ed, map[string]any{"command": "view", "path": "secrets/key.pem"}},
		{grep, map[string]any{"pattern": ".", "path": "secrets", "output_mode": "content"}},
		{grep, map[string]any{"pattern": ".", "path": "sub/.env", "output_mode": "content"}},
		{glob, map[string]any{"pattern": "*", "path": "secrets"}},
		{ls, map[string]any{"path": "secrets/deep"}},
		{tree, map[string]any{"path": "secrets"}},
	} {
		out, err := runTool(t, c.tool, c.args)
		if err == nil || !strings.Contains(err.Error(), "denied by the user's permission rule Read(") {
			t.Errorf("%s %v: %q, %v; want the deny rule's refusal", c.tool.Name(), c.args, out, err)
		}
		if err != nil && strings.Contains(err.Error(), "hunter") {
			t.Errorf("the refusal shows the secret: %v", err)
		}
	}
	// Without rules nothing is hidden (the check is the rules', not the tools').
	env.ReadDenied = nil
	if out := mustTool(t, grep, map[string]any{"pattern": "TOKEN", "output_mode": "content"}); !strings.Contains(out, "hunter2") {
		t.Errorf("with no rule, grep hid .env:\n%s", out)
	}
}

// TestCodeToolsRefuseDeniedFiles: planning a definition lookup reads the
// line to find the symbol, and its error quotes the line; for a denied
// file it is refused before anything is read.
func TestCodeToolsRefuseDeniedFiles(t *testing.T) {
	env := denyEnv(t)
	def := &CodeTool{env: env, toolInfo: toolInfo{name: "definition"}}
	_, err := def.Plan(t.Context(), argsJSON(t, map[string]any{"path": ".env", "line": 1, "symbol": "NOT_THERE"}))
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "denied by the user's permission rule Read(.env)") {
		t.Errorf("definition on .env: %v", err)
	}
	// An allowed file still gets the helpful error.
	_, err = def.Plan(t.Context(), argsJSON(t, map[string]any{"path": "main.go", "line": 1, "symbol": "NOT_THERE"}))
	if err == nil || !strings.Contains(err.Error(), "which reads: package main") {
		t.Errorf("definition on main.go: %v", err)
	}
}
