package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// Headless in ask mode against the real bash, with the user's rules allow
// [bash(echo:*)] and deny [bash(rm:*)]: echo runs, rm is refused by the
// rule, and an unlisted command is refused with the rule to add.
func TestHeadlessPermissionRules(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			call("bash", `{"command":"echo rule-allowed"}`),
			call("bash", `{"command":"rm -rf keep"}`),
			call("bash", `{"command":"touch unlisted"}`),
		}},
		{Text: "Done."},
	}})
	home, project := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "config.yaml"), "permissions:\n  allow: [\"bash(echo:*)\"]\n  deny: [\"bash(rm:*)\"]\n")
	writeFile(t, filepath.Join(project, "keep", "file"), "x")
	out, errs, code := fawnIn(t, home, srv, "-p", "go", "--output-format", "stream-json", project)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{`"output":"rule-allowed`, `denied by the user's permission rule \"bash(rm:*)\"`, `"name":"bash","output":"error: denied:`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if !strings.Contains(out, `allow it with the rule \"bash(touch:*)\" in permissions.allow`) {
		t.Errorf("no hint for the unlisted command:\n%s", out)
	}
	if readFile(t, filepath.Join(project, "keep", "file")) != "x" {
		t.Error("rm ran")
	}
	if r := readFile(t, filepath.Join(project, "unlisted")); !strings.HasPrefix(r, "<") {
		t.Error("the unlisted command ran")
	}
}

// "always" in the dialog adds a rule: the next such command runs without
// asking, /permissions shows the rule and where it is kept, a new fawn on
// the project has it, and /permissions remove takes it away.
func TestAlwaysAddsARule(t *testing.T) {
	project := t.TempDir()
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo first-run"}`)}},
		{Text: "Ran it once."},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo second-run"}`)}},
		{Text: "Ran it again."},
	}})
	home := t.TempDir()
	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Ask fawn")
	tm.prompt("run echo")
	tm.WaitFor("always (add a rule)")
	tm.Keys("A")
	tm.WaitFor("Ran it once.", "rule added: allow bash(echo:*)")
	tm.prompt("again")
	tm.WaitFor("Ran it again.", "second-run")
	if s := tm.Screen(); strings.Contains(s, "always (add a rule)") {
		t.Errorf("the second echo asked:\n%s", s)
	}
	tm.prompt("/permissions")
	tm.WaitFor("allow bash(echo:*)", filepath.Join(home, "data", "projects")[:20])
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")

	tm2 := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm2.WaitFor("Ask fawn")
	tm2.prompt("/permissions")
	tm2.WaitFor("allow bash(echo:*)")
	tm2.prompt("/permissions remove bash(echo:*)")
	tm2.WaitFor("removed the rule allow bash(echo:*)")
	tm2.prompt("/permissions")
	tm2.WaitFor("No rules")
}
