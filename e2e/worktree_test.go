package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// gitRepo is a project that is a git repository on main with README.md
// committed.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := project(t)
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "."},
		{"-c", "user.name=u", "-c", "user.email=u@example.com", "commit", "-q", "-m", "init"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// fawn -p --worktree NAME runs the turn in task NAME's worktree (made at
// HEAD, branch fawn/NAME): the agent's edit lands there and not in the
// project; stderr and the JSON result name the branch; a second run with
// the same name works in the same worktree.
func TestHeadlessWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t)
	home := t.TempDir()
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Writing.", ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"create","path":"note.txt","file_text":"from the task\n"}`)}},
		{Text: "Done."},
		{Text: "Reading.", ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"note.txt"}`)}},
		{Text: "It says so."},
		{Text: "Streamed."},
	}})
	run := func(format string) (string, string) {
		t.Helper()
		cmd := exec.Command(binary, "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "accept-edits",
			"-p", "go", "--worktree", "w1", "--output-format", format, repo)
		cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "OPENAI_API_KEY=")
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("fawn: %v\nstdout %s\nstderr %s", err, o.String(), e.String())
		}
		return o.String(), e.String()
	}

	out, errs := run("json")
	if !strings.Contains(errs, "task w1 on branch fawn/w1 (new, in ") {
		t.Errorf("stderr does not name the branch: %q", errs)
	}
	var v struct {
		Result string `json:"result"`
		Branch string `json:"branch"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Branch != "fawn/w1" || v.Result != "Done." {
		t.Fatalf("json result %q: %+v, %v", out, v, err)
	}
	if _, err := os.Stat(filepath.Join(repo, "note.txt")); err == nil {
		t.Error("the task's edit landed in the project")
	}
	list := exec.Command("git", "worktree", "list", "--porcelain")
	list.Dir = repo
	wts, err := list.Output()
	if err != nil {
		t.Fatal(err)
	}
	var tree string
	for _, l := range strings.Split(string(wts), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok && p != repo {
			tree = p
		}
	}
	if !strings.Contains(string(wts), "branch refs/heads/fawn/w1") || !strings.HasPrefix(tree, home) {
		t.Fatalf("no worktree of fawn/w1 under FAWN_HOME:\n%s", wts)
	}
	if b, err := os.ReadFile(filepath.Join(tree, "note.txt")); err != nil || string(b) != "from the task\n" {
		t.Fatalf("the task's worktree lacks the edit: %q, %v", b, err)
	}

	out, errs = run("text")
	if strings.TrimSpace(out) != "It says so." || !strings.Contains(errs, "task w1 on branch fawn/w1 (in ") {
		t.Errorf("second run: stdout %q stderr %q", out, errs)
	}
	reqs := srv.ChatRequests()
	msgs := reqs[len(reqs)-1].Messages
	if last := msgs[len(msgs)-1]; !strings.Contains(string(last.Content), "from the task") {
		t.Errorf("the second run did not read the task's file: %+v", last)
	}

	out, _ = run("stream-json")
	first, _, _ := strings.Cut(out, "\n")
	var init struct {
		Type, Branch, Cwd string
	}
	if err := json.Unmarshal([]byte(first), &init); err != nil || init.Type != "init" || init.Branch != "fawn/w1" || init.Cwd != tree {
		t.Errorf("stream-json's init line %q: %+v, %v", first, init, err)
	}
}

// --worktree goes with -p, and takes a task's name only.
func TestWorktreeFlagUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--worktree", "w"},
		{"-p", "x", "--worktree", "../up"},
	} {
		cmd := exec.Command(binary, append(args, t.TempDir())...)
		cmd.Env = append(os.Environ(), "FAWN_HOME="+t.TempDir())
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 2 {
			t.Errorf("%v: exit %d: %s", args, cmd.ProcessState.ExitCode(), out)
		}
	}
}

// A repository whose config names a file-system monitor, a smudge and
// clean filter and hooks runs none of them when fawn -p --worktree makes
// the task's worktree and runs a turn there, trusted or not; plain git
// making a worktree runs them (the fixture is live).
func TestHostileGitconfigWorktree(t *testing.T) {
	f := gitconfigProject(t)
	writeFile(t, filepath.Join(f.dir, ".gitattributes"), "*.md filter=evil\n")
	f.git(t, "add", ".gitattributes")
	f.git(t, "commit", "-q", "-m", "attributes")
	hooks := t.TempDir()
	for _, h := range []string{"post-checkout", "reference-transaction", "post-index-change"} {
		writeFile(t, filepath.Join(hooks, h), "#!/bin/sh\n"+f.mark("hook-"+h)+"\n")
		if err := os.Chmod(filepath.Join(hooks, h), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.git(t, "config", "core.hooksPath", hooks)
	f.git(t, "config", "core.fsmonitor", f.mark("fsmonitor")+"; false")
	f.git(t, "config", "filter.evil.smudge", f.mark("smudge")+"; cat")
	f.git(t, "config", "filter.evil.clean", f.mark("clean")+"; cat")
	srv := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "Done."}}})
	for i, trust := range []string{"", "--trust"} {
		name := fmt.Sprintf("w%d", i)
		args := []string{"--base-url", srv.URL(), "--model", "scripted", "-p", "look", "--worktree", name, f.dir}
		if trust != "" {
			args = append([]string{trust}, args...)
		}
		out, errs, code := runFawn(t, f.home, gitconfigEnv(f.home), args...)
		if code != 0 || strings.TrimSpace(out) != "Done." || !strings.Contains(errs, "branch fawn/"+name) {
			t.Fatalf("%s: exit %d, stdout %q, stderr:\n%s", trust, code, out, errs)
		}
		if ran := f.ran(t); len(ran) > 0 {
			t.Fatalf("%s: the repository's programs ran: %v", trust, ran)
		}
	}
	f.git(t, "worktree", "add", "-q", "-b", "plain", filepath.Join(t.TempDir(), "plain"))
	if ran := strings.Join(f.ran(t), " "); !strings.Contains(ran, "smudge") || !strings.Contains(ran, "hook-post-checkout") {
		t.Errorf("plain git worktree add did not run the fixture's programs (%s): the test proves nothing", ran)
	}
}

// In the IDE, /task new NAME PROMPT opens a task on branch fawn/NAME in its
// own worktree: its edit lands there, not in the project, its terminal
// starts there, the task bar shows both tasks, and Alt-, goes back to the
// project's task, whose chat never saw the other's work.
func TestTaskNewInTheIDE(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Writing the note.", ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"create","path":"note.txt","file_text":"from the task\n"}`)}},
		{Text: "The note is written."},
	}})
	tm := Start(t, 200, 45, repo, nil, "--trust", "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "accept-edits")
	tm.WaitFor("Ask fawn")
	tm.Type("/task new notes write the note")
	tm.Keys("Enter")
	tm.WaitFor("The note is written.", "task notes works on branch fawn/notes", "1 project", "notes")
	if _, err := os.Stat(filepath.Join(repo, "note.txt")); err == nil {
		t.Error("the task's edit landed in the project")
	}
	out, err := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").CombinedOutput()
	if err != nil {
		t.Fatalf("git worktree list: %v\n%s", err, out)
	}
	var wt string
	for _, l := range strings.Split(string(out), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok && p != repo && !strings.HasPrefix(repo, p) {
			wt = p
		}
	}
	if wt == "" {
		t.Fatalf("no worktree for the task:\n%s", out)
	}
	if b, err := os.ReadFile(filepath.Join(wt, "note.txt")); err != nil || string(b) != "from the task\n" {
		t.Errorf("the task's note in its worktree: %q, %v", b, err)
	}
	tm.Keys("M-,")
	screen := tm.WaitUntil("the project's task shown", func(s string) bool { return !strings.Contains(s, "The note is written.") })
	if !strings.Contains(screen, "notes") {
		t.Errorf("the task bar lost the task:\n%s", screen)
	}
}

// Two tasks edit the same line of the same file differently: merging the
// first (its edit committed after a yes) fast-forwards the project's
// branch; merging the second reports the conflict and leaves the project
// as it was; discarding it removes its worktree and its branch.
func TestTasksMergeAndDiscard(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t)
	for _, kv := range [][]string{{"user.name", "u"}, {"user.email", "u@example.com"}} {
		if out, err := exec.Command("git", "-C", repo, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config: %v\n%s", err, out)
		}
	}
	edit := func(to string) []llmtest.Response {
		return []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"README.md"}`)}},
			{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"README.md","old_str":"A widget.","new_str":"`+to+`"}`)}},
			{Text: "Edited: " + to},
		}
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: append(edit("A blue widget."), edit("A red widget.")...)})
	tm := Start(t, 200, 45, repo, nil, "--trust", "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "accept-edits")
	tm.WaitFor("Ask fawn")
	tm.Type("/task new one make it blue")
	tm.Keys("Enter")
	tm.WaitFor("Edited: A blue widget.")
	tm.Type("/task new two make it red")
	tm.Keys("Enter")
	tm.WaitFor("Edited: A red widget.", "3 ✓ two")

	tm.Keys("M-,") // task one
	tm.WaitFor("Edited: A blue widget.")
	tm.Type("/task merge")
	tm.Keys("Enter")
	tm.WaitFor("Commit, then merge", "README.md")
	tm.Keys("c")
	tm.WaitFor("fawn/one merged into main: a fast-forward")
	if b, _ := os.ReadFile(filepath.Join(repo, "README.md")); !strings.Contains(string(b), "A blue widget.") {
		t.Fatalf("after the merge the project's README.md is %q", b)
	}

	tm.Keys("M-.") // task two
	tm.WaitFor("Edited: A red widget.")
	tm.Type("/task merge")
	tm.Keys("Enter")
	tm.WaitFor("Commit, then merge")
	tm.Keys("c")
	tm.WaitFor("not merged", "conflicts in README.md")
	if out, _ := exec.Command("git", "-C", repo, "status", "--porcelain").CombinedOutput(); strings.TrimSpace(string(out)) != "" {
		t.Errorf("the conflict left the project changed:\n%s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "README.md")); !strings.Contains(string(b), "A blue widget.") {
		t.Errorf("the conflict changed the project's README.md: %q", b)
	}

	tm.Type("/task discard")
	tm.Keys("Enter")
	tm.WaitFor("Discard task two")
	tm.Keys("d")
	tm.WaitFor("task two discarded")
	if out, _ := exec.Command("git", "-C", repo, "branch", "--list", "fawn/two").CombinedOutput(); strings.TrimSpace(string(out)) != "" {
		t.Errorf("the discarded task's branch is still there: %s", out)
	}
	if out, _ := exec.Command("git", "-C", repo, "worktree", "list").CombinedOutput(); strings.Contains(string(out), "fawn/two") {
		t.Errorf("the discarded task's worktree is still there:\n%s", out)
	}
}
