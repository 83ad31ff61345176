package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// TestHookContextStaysOutOfTitlesExportsAndTheResumedChat: a
// UserPromptSubmit hook's context reaches the model, and nowhere the user
// reads their own message: not the session list, not the export, not the
// chat a --continue opens.
func TestHookContextStaysOutOfTitlesExportsAndTheResumedChat(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "Hello to you."}}})
	home, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "config.yaml"),
		"hooks:\n  UserPromptSubmit:\n    - hooks:\n        - type: command\n          command: echo HOOK-CONTEXT-LINE\n")
	env := append(os.Environ(), "FAWN_HOME="+home, "OPENAI_API_KEY=")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fawn %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("--base-url", srv.URL(), "--model", "scripted", "-p", "hello there", dir)
	if c := string(srv.ChatRequests()[0].Messages[len(srv.ChatRequests()[0].Messages)-1].Content); !strings.Contains(c, "HOOK-CONTEXT-LINE") {
		t.Fatalf("the model did not get the hook's context: %q", c)
	}
	for _, args := range [][]string{{"sessions", dir}, {"export", dir}} {
		out := run(args...)
		if !strings.Contains(out, "hello there") || strings.Contains(out, "HOOK-CONTEXT") || strings.Contains(out, "[fawn:") {
			t.Errorf("fawn %s:\n%s", args[0], out)
		}
	}
	tm := Start(t, 150, 42, dir, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted", "--continue")
	s := tm.WaitFor("hello there", "Hello to you.")
	if strings.Contains(s, "HOOK-CONTEXT") || strings.Contains(s, "[fawn: the user's hooks") {
		t.Errorf("the resumed chat shows the hook's context:\n%s", s)
	}
}
