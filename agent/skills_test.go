package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/skills"
	"github.com/fawn-ide/fawn/tools"
)

// The system prompt names a project's skills; the model loads one with the
// skill tool, without asking (it reads), and gets its instructions.
func TestSkillLoadedByTheModel(t *testing.T) {
	project := t.TempDir()
	dir := filepath.Join(project, ".fawn", "skills", "release")
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: release\ndescription: Cut a release of this project\n---\nRun scripts/bump.sh, then RELEASE-STEPS-MARKER.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scripts", "bump.sh"), []byte("echo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(project, ".fawn", "skills", "bad"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".fawn", "skills", "bad", "SKILL.md"), []byte("no front matter"), 0o644); err != nil {
		t.Fatal(err)
	}
	ss := skills.Load("", project)
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_skill", Name: "skill", Arguments: `{"name":"release"}`}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_nope", Name: "skill", Arguments: `{"name":"deploy"}`}}},
		{Text: "Following the release skill."},
	}}, ModeAsk, func(o *Options) {
		o.Skills = ss
		o.Tools = append(o.Tools, tools.NewSkill(ss))
	})
	evs := h.run(context.Background(), "cut a release", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			t.Errorf("loading a skill asked for permission: %+v", ev)
		}
	})
	if end := last(evs); end.Err != nil {
		t.Fatal(end.Err)
	}
	reqs := h.srv.ChatRequests()
	sys := string(reqs[0].Messages[0].Content)
	if !strings.Contains(sys, "# Skills") || !strings.Contains(sys, "- release: Cut a release of this project") || strings.Contains(sys, "- bad") {
		t.Errorf("the system prompt's skills:\n%s", sys)
	}
	if strings.Contains(sys, "RELEASE-STEPS-MARKER") {
		t.Errorf("the skill's body is in the system prompt before it was loaded")
	}
	toolResult := func(r *llmtest.ChatRequest, id string) string {
		for _, m := range r.Messages {
			if m.Role == "tool" && m.ToolCallID == id {
				return string(m.Content)
			}
		}
		return ""
	}
	if got := toolResult(reqs[1], "call_skill"); !strings.Contains(got, "RELEASE-STEPS-MARKER") || !strings.Contains(got, "- scripts/bump.sh") {
		t.Errorf("the skill tool returned %q", got)
	}
	if got := toolResult(reqs[2], "call_nope"); !strings.Contains(got, `no skill is named "deploy"`) || !strings.Contains(got, "release") {
		t.Errorf("an unknown skill returned %q", got)
	}
}
