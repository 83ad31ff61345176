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
