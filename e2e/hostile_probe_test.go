package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// probeResults are the tool results the model server received, by call ID.
func probeResults(t *testing.T, srv *llmtest.Server) map[string]string {
	t.Helper()
	return rulesToolResults(t, srv)
}

// probeSent reports whether any request the model server received holds s.
func probeSent(srv *llmtest.Server, s string) bool {
	for _, req := range srv.ChatRequests() {
		for _, m := range req.Messages {
			if strings.Contains(string(m.Content), s) {
				return true
			}
		}
	}
	return false
}

// Headless, the project untrusted, the user's rules allow bash(find:*)
// and deny bash(rm:*): a find line whose -exec runs another program is
// not allowed by the find rule (nobody can answer headless, so it is
// refused and no marker appears), and one whose -exec runs rm is denied
// by the rm rule. A plain find still runs.
func TestHostileProbeFindExecIsNotAllowedByAFindRule(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, "README.md"), "# Widget\n")
	writeFile(t, filepath.Join(project, "victim.txt"), "keep me\n")
	writeFile(t, filepath.Join(home, "config.yaml"), "permissions:\n  allow: [\"bash(find:*)\"]\n  deny: [\"bash(rm:*)\"]\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			rulesCall("exec-touch", "bash", `{"command":"find . -maxdepth 0 -exec touch marker-find-exec \\;"}`),
			rulesCall("execdir-touch", "bash", `{"command":"find . -maxdepth 0 -execdir sh -c 'touch marker-find-sh' \\;"}`),
			rulesCall("exec-rm", "bash", `{"command":"find . -name victim.txt -exec rm -f '{}' +"}`),
			rulesCall("plain", "bash", `{"command":"find . -name README.md"}`),
		}},
		{Text: "Done."},
	}})
	out, errs, code := fawnIn(t, home, srv, "-p", "tidy up", "--output-format", "stream-json", project)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, m := range []string{"marker-find-exec", "marker-find-sh"} {
		if _, err := os.Stat(filepath.Join(project, m)); err == nil {
			t.Errorf("%s exists: find -exec ran a program under the find rule", m)
		}
	}
	if _, err := os.Stat(filepath.Join(project, "victim.txt")); err != nil {
		t.Errorf("find -exec rm ran despite the deny rule: %v", err)
	}
	r := probeResults(t, srv)
	for _, id := range []string{"exec-touch", "execdir-touch"} {
		if !strings.Contains(r[id], "error: denied: commands need the user's permission") {
			t.Errorf("%s: the model got %q, want the headless refusal", id, r[id])
		}
	}
	if !strings.Contains(r["exec-rm"], "bash(rm:*)") {
		t.Errorf("exec-rm: the model got %q, want the deny rule bash(rm:*)", r["exec-rm"])
	}
	if !strings.Contains(r["plain"], "README.md") {
		t.Errorf("the plain find did not run: %q", r["plain"])
	}
}

// In the IDE, the project trusted (gopls loads the project's code),
// with the user's rule deny Read(secrets/**): the diagnostics of the whole
// project, and those reported after a command changed the denied file,
// never name it nor pass on what the server's messages quote of it.
func TestHostileProbeDiagnosticsHideDeniedFiles(t *testing.T) {
	path := goplsPath(t)
	home, project := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, "go.mod"), "module widget\n\ngo 1.22\n")
	writeFile(t, filepath.Join(project, "main.go"), "package main\n\nimport \"widget/secrets\"\n\nfunc main() { println(secrets.Key()) }\n")
	writeFile(t, filepath.Join(project, "secrets", "creds.go"), "package secrets\n\nfunc Key() string { return hunter2_token_value }\n")
	writeFile(t, filepath.Join(home, "config.yaml"), "permissions:\n  deny: [\"Read(secrets/**)\"]\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{rulesCall("diag-main", "diagnostics", `{"path":"main.go"}`)}},
		{ToolCalls: []llmtest.ToolCall{rulesCall("diag-all", "diagnostics", `{}`)}},
		{ToolCalls: []llmtest.ToolCall{rulesCall("touch-secret", "bash", `{"command":"echo '// touched' >> secrets/creds.go"}`)}},
		{Text: "Done looking."},
	}})
	tm := Start(t, 150, 42, project, []string{"PATH=" + path, "GOFLAGS=-mod=mod", "GOPROXY=off", "FAWN_HOME=" + home},
		"--base-url", srv.URL(), "--model", "scripted", "--trust", "--permission-mode", "yolo")
	tm.WaitFor("Chat", "Ask fawn")
	tm.prompt("any problems?")
	tm.WaitFor("Done looking.")
	r := probeResults(t, srv)
	if !strings.Contains(r["diag-all"], "hidden by the user's Read deny rules") {
		t.Errorf("the project's diagnostics do not say they hid a file's:\n%s", r["diag-all"])
	}
	if !strings.Contains(r["touch-secret"], "exit code 0") {
		t.Errorf("the command did not run: %s", r["touch-secret"])
	}
	for _, s := range []string{"hunter2_token_value", "creds.go"} {
		if probeSent(srv, s) {
			t.Errorf("the model server received %q", s)
		}
	}
}
