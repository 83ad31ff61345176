package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// rulesToolResults are the tool results the model server received, by
// tool-call ID, from the last request (which carries the whole turn).
func rulesToolResults(t *testing.T, srv *llmtest.Server) map[string]string {
	t.Helper()
	reqs := srv.ChatRequests()
	if len(reqs) == 0 {
		t.Fatal("the model server got no request")
	}
	out := map[string]string{}
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = string(m.Content)
		}
	}
	return out
}

// rulesCall is a tool call with an ID the test can look its result up by.
func rulesCall(id, name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: name, Arguments: args}
}

// Finding 2, headless in ask mode, the project untrusted: with the user's
// rule allow bash(go test:*), the model's go test lines that also run
// something else (a comment swallowing a quote, ANSI-C $'…' quoting, a process
// substitution, redirections into .git/hooks and out of the project) are
// not allowed by the rule: nobody can answer headless, so they are
// refused and no marker appears. A plain allowed command still runs.
func TestHostileRulesShellSyntaxDoesNotWidenAnAllowRule(t *testing.T) {
	home, project, outside := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, "README.md"), "# Widget\n")
	if err := os.MkdirAll(filepath.Join(project, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "config.yaml"), "permissions:\n  allow: [\"bash(go test:*)\", \"bash(echo:*)\"]\n")
	hook := filepath.Join(project, ".git", "hooks", "pre-commit")
	escaped := filepath.Join(outside, "written-outside")
	bypass := map[string]string{
		"newline": "go test ./... #'\ntouch marker-newline",
		"dollar":  `go test $'\'' ; touch marker-dollar #'`,
		"procsub": "go test <(touch marker-procsub)",
		"hook":    "go test ./... > .git/hooks/pre-commit",
		"outside": "go test ./... > " + escaped,
		"subst":   "go test $(touch marker-subst)",
		"assign":  "PATH=. go test",
	}
	markers := []string{"marker-newline", "marker-dollar", "marker-procsub", "marker-subst"}
	var calls []llmtest.ToolCall
	for id, cmd := range bypass {
		calls = append(calls, rulesCall("call-"+id, "bash", fmt.Sprintf(`{"command":%q}`, cmd)))
	}
	calls = append(calls, rulesCall("call-plain", "bash", `{"command":"echo plain-allowed"}`))
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: calls},
		{Text: "Done."},
	}})

	out, errs, code := fawnIn(t, home, srv, "-p", "run the tests", "--output-format", "stream-json", project)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, m := range markers {
		if _, err := os.Stat(filepath.Join(project, m)); err == nil {
			t.Errorf("%s exists: a command behind go test ran without asking", m)
		}
	}
	if _, err := os.Stat(hook); err == nil {
		t.Error("a redirection wrote .git/hooks/pre-commit without asking")
	}
	if _, err := os.Stat(escaped); err == nil {
		t.Error("a redirection wrote outside the project without asking")
	}
	results := rulesToolResults(t, srv)
	for id := range bypass {
		if r := results["call-"+id]; !strings.Contains(r, "error: denied: commands need the user's permission") {
			t.Errorf("%q: the model got %q, want the headless refusal", bypass[id], r)
		}
	}
	if r := results["call-plain"]; !strings.Contains(r, "plain-allowed") {
		t.Errorf("the allowed echo did not run: %q\n%s", r, out)
	}
}

// Finding 3, headless, the project untrusted: with the user's rules deny
// Read(.env) and Read(secrets/**), no grep (content, count, a glob naming
// the file), glob, ls, tree or directory view sends the model a secret or
// a denied file's name, and each says it hid entries; viewing or grepping
// a denied path directly is refused with the rule.
func TestHostileRulesReadDenyHoldsForSearchAndListings(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	const token, key = "hunter2-token-value", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"
	writeFile(t, filepath.Join(project, ".env"), "API_TOKEN="+token+"\n")
	writeFile(t, filepath.Join(project, "app", ".env"), "API_TOKEN="+token+"-nested\n")
	writeFile(t, filepath.Join(project, "secrets", "key.pem"), "-----BEGIN PRIVATE KEY-----\n"+key+"\n")
	writeFile(t, filepath.Join(project, "main.go"), "package main // API_TOKEN is read from the environment\n")
	writeFile(t, filepath.Join(home, "config.yaml"), "permissions:\n  deny: [\"Read(.env)\", \"Read(secrets/**)\"]\n")
	calls := []llmtest.ToolCall{
		rulesCall("grep-content", "grep", `{"pattern":".","output_mode":"content"}`),
		rulesCall("grep-token", "grep", `{"pattern":"API_TOKEN","output_mode":"content"}`),
		rulesCall("grep-glob", "grep", `{"pattern":"TOKEN|KEY","glob":"*env","output_mode":"content"}`),
		rulesCall("grep-count", "grep", `{"pattern":".","output_mode":"count"}`),
		rulesCall("glob", "glob", `{"pattern":"**/*"}`),
		rulesCall("ls", "ls", `{"path":".","all":true}`),
		rulesCall("tree", "tree", `{"path":"."}`),
		rulesCall("view-dir", "text_editor", `{"command":"view","path":"."}`),
	}
	direct := []llmtest.ToolCall{
		rulesCall("view-env", "text_editor", `{"command":"view","path":".env"}`),
		rulesCall("grep-secrets", "grep", `{"pattern":".","path":"secrets","output_mode":"content"}`),
		rulesCall("ls-secrets", "ls", `{"path":"secrets"}`),
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: append(append([]llmtest.ToolCall(nil), calls...), direct...)},
		{Text: "Done."},
	}})

	_, errs, code := fawnIn(t, home, srv, "-p", "find the token", project)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	results := rulesToolResults(t, srv)
	for _, req := range srv.ChatRequests() {
		for _, m := range req.Messages {
			for _, secret := range []string{token, key, "PRIVATE KEY", "key.pem"} {
				if strings.Contains(string(m.Content), secret) {
					t.Errorf("the model server received %q in a %s message:\n%s", secret, m.Role, m.Content)
				}
			}
		}
	}
	for _, c := range calls {
		r := results[c.ID]
		if r == "" {
			t.Errorf("%s: no result", c.ID)
			continue
		}
		if !strings.Contains(r, "hidden by the user's Read deny rules") {
			t.Errorf("%s does not say it hid entries:\n%s", c.ID, r)
		}
		if strings.Contains(r, ".env") {
			t.Errorf("%s names .env:\n%s", c.ID, r)
		}
	}
	if r := results["grep-token"]; !strings.Contains(r, "main.go") {
		t.Errorf("grep lost the file it may read:\n%s", r)
	}
	for _, c := range direct {
		if r := results[c.ID]; !strings.Contains(r, "denied by the user's permission rule") {
			t.Errorf("%s: %q, want the deny rule's refusal", c.ID, r)
		}
	}
}

// Finding 2 in the IDE, where trust changes the outcome: a project whose
// .fawn/config.yaml allows bash(go test:*) and bash(echo:*), trusted at
// the prompt. Its rules are in force (echo runs without a question), but
// a go test line with a process substitution or a redirection into
// .git/hooks shows the permission dialog; denied there, nothing is
// written.
func TestHostileRulesTrustedProjectRuleStillAsksForShellSyntax(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo plain-ok"}`)}},
		{Text: "Plain ran."},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"go test <(touch marker-procsub)"}`)}},
		{Text: "Refused one."},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"go test ./... > .git/hooks/pre-commit"}`)}},
		{Text: "Refused two."},
	}})
	dir := project(t)
	if err := os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".fawn", "config.yaml"), "permissions:\n  allow: [\"bash(go test:*)\", \"bash(echo:*)\"]\n")
	tm := Start(t, 150, 42, dir, []string{"FAWN_HOME=" + t.TempDir()}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Trust this folder?", "bash(go test:*)")
	tm.Keys("y")
	tm.WaitFor("Ask fawn")

	tm.prompt("echo")
	if s := tm.WaitFor("Plain ran.", "plain-ok"); strings.Contains(s, "always (add a rule)") {
		t.Fatalf("the trusted project's rule did not allow echo:\n%s", s)
	}
	tm.prompt("test")
	tm.WaitFor("always (add a rule)", "touch marker-procsub")
	tm.Keys("n")
	tm.WaitFor("Refused one.")
	tm.prompt("again")
	tm.WaitFor("always (add a rule)", ".git/hooks/pre-commit")
	tm.Keys("n")
	tm.WaitFor("Refused two.")
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")
	if _, err := os.Stat(filepath.Join(dir, "marker-procsub")); err == nil {
		t.Error("the process substitution ran")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the redirection wrote .git/hooks/pre-commit")
	}
}
