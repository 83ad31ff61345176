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

// In the IDE a hook's run shows in the card of the call it gated — a line
// with its verdict, what it said when the card is expanded — not as a
// chat line of its own.
func TestHooksShowInTheirCards(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"git push origin main"}`)}},
		{Text: "Not pushed."},
	}})
	home, project := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "config.yaml"), `hooks:
  PreToolUse:
    - matcher: bash
      hooks:
        - type: command
          command: 'cat >/dev/null; printf "no pushing from the agent\nask the user to push\n" >&2; exit 2'
`)
	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home, "HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo")
	tm.WaitFor("Ask fawn")
	tm.prompt("push it")
	s := tm.WaitFor("Not pushed.", "idle", "$ git push origin main", "⚙ PreToolUse hook: blocked: no pushing from the agent")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, "⚙ PreToolUse hook") && (i == 0 || !strings.Contains(lines[i-1], "$ git push origin main")) {
			t.Errorf("the hook's line is not under its card's header:\n%s", s)
		}
	}
	if strings.Contains(s, "hook on bash") {
		t.Errorf("the hook's run is a chat line of its own:\n%s", s)
	}
}
