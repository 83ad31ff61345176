package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// A project's skill is named in the system prompt, loaded by the model with
// the skill tool (headless and in the IDE, where its card shows), and listed
// by /skills with any that cannot be used.
func TestSkills(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, ".fawn", "skills", "release", "SKILL.md"), "---\nname: release\ndescription: Cut a release of this project\n---\nBump the version, then SKILL-BODY-MARKER.\n")
	writeFile(t, filepath.Join(project, ".claude", "skills", "broken", "SKILL.md"), "no front matter\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{Name: "skill", Arguments: `{"name":"release"}`}}},
		{Text: "Released."},
		{ToolCalls: []llmtest.ToolCall{{Name: "skill", Arguments: `{"name":"release"}`}}},
		{Text: "Released again."},
	}})
	out, errs, code := fawnIn(t, home, srv, "-p", "cut a release", project)
	if code != 0 || strings.TrimSpace(out) != "Released." {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	reqs := srv.ChatRequests()
	if sys := string(reqs[0].Messages[0].Content); !strings.Contains(sys, "- release: Cut a release of this project") {
		t.Errorf("the system prompt does not name the skill:\n%s", sys)
	}
	if got := contents(reqs[1]); !strings.Contains(strings.Join(got, "\n"), "SKILL-BODY-MARKER") {
		t.Errorf("the skill's body did not reach the model: %q", got)
	}

	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Ask fawn")
	tm.prompt("/skills")
	tm.WaitFor("release — Cut a release of this project", "broken — cannot be used")
	tm.prompt("cut another release")
	tm.WaitFor("Load the skill release", "Released again.")
}
