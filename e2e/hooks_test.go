package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// Headless against the real bash: a PreToolUse hook that exits 2 for
// git push blocks it and its stderr reaches the model; a PostToolUse hook
// sees the result; every run is reported.
func TestHeadlessHooks(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			call("bash", `{"command":"git push origin main"}`),
			call("bash", `{"command":"echo posted-result"}`),
		}},
		{Text: "Done."},
	}})
	home, project := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "config.yaml"), `hooks:
  PreToolUse:
    - matcher: bash
      hooks:
        - type: command
          command: 'input=$(cat); case "$input" in *"git push"*) echo "no pushing from the agent" >&2; exit 2;; esac'
  PostToolUse:
    - matcher: "*"
      hooks:
        - {type: command, command: "cat >> post.jsonl; echo >> post.jsonl"}
`)
	out, errs, code := fawnIn(t, home, srv, "-p", "push it", "--permission-mode", "yolo", "--output-format", "stream-json", project)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	if !strings.Contains(out, `"output":"error: blocked by a PreToolUse hook, so it was not run: no pushing from the agent"`) {
		t.Errorf("git push was not blocked:\n%s", out)
	}
	if !strings.Contains(out, `{"type":"hook","event":"PreToolUse"`) || !strings.Contains(out, `"verdict":"blocked: no pushing from the agent"`) {
		t.Errorf("the hook's run is not reported:\n%s", out)
	}
	reqs := srv.ChatRequests()
	got := strings.Join(contents(reqs[1]), "\n")
	if !strings.Contains(got, "no pushing from the agent") {
		t.Errorf("the reason did not reach the model:\n%s", got)
	}
	post := readFile(t, filepath.Join(project, "post.jsonl"))
	if !strings.Contains(post, `"hook_event_name":"PostToolUse"`) || !strings.Contains(post, `posted-result`) || strings.Contains(post, "git push") {
		t.Errorf("the PostToolUse hook saw:\n%s", post)
	}
}
