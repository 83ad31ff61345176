package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// taskTurn is one task's turn: it reads README.md, makes its widget
// colour, echoes in its shell, then streams an answer of n words slowly,
// so that both tasks' answers stream at the same time.
func taskTurn(name, colour string, n int) []llmtest.Response {
	var words []string
	for i := 0; i < n; i++ {
		words = append(words, fmt.Sprintf("%s%d", strings.ToLower(name), i))
	}
	upper := strings.ToUpper(name)
	return []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"README.md"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"README.md","old_str":"A widget.","new_str":"A `+colour+` widget."}`)}},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo SHELL-`+upper+`-$((6*7))"}`)}},
		{Text: "STREAM-" + upper + "-START " + strings.Join(words, " ") + " " + upper + "-END", Delay: llmtest.Duration(40 * time.Millisecond)},
	}
}

// lastWord is the highest N of the words prefixN on screen (-1: none).
func lastWord(screen, prefix string) int {
	last := -1
	for _, f := range strings.Fields(screen) {
		if n, err := strconv.Atoi(strings.TrimPrefix(f, prefix)); err == nil && strings.HasPrefix(f, prefix) && n > last {
			last = n
		}
	}
	return last
}

// Two tasks edit the same file differently at the same time: each task's
// tab shows only its own edits and shell, switching shows the other's
// answer streaming on; fawn is killed -9 while both stream; the next
// start offers both back and reopens them with their sessions; after a
// clean quit, --continue reopens both again; `fawn sessions` lists them
// with their branches; merging the first fast-forwards, the second
// conflicts and leaves the project clean, and discarding it removes its
// worktree and branch.
func TestTwoTasksAtOnceSurviveAKill(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t)
	for _, kv := range [][]string{{"user.name", "u"}, {"user.email", "u@example.com"}} {
		if out, err := exec.Command("git", "-C", repo, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config: %v\n%s", err, out)
		}
	}
	home := t.TempDir()
	// Two requests at once, so that the tasks stream side by side; task
	// two's answer is the longer, so that it still streams after task
	// one's ends.
	env := []string{"FAWN_HOME=" + home, "FAWN_MODELS_CHAT_MODEL_PARALLEL=2"}
	srv := llmtest.Start(t, llmtest.Script{Responses: append(taskTurn("one", "blue", 80), taskTurn("two", "red", 300)...)})
	args := []string{"--trust", "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo"}

	tm := Start(t, 200, 50, repo, env, args...)
	tm.WaitFor("Ask fawn")
	tm.Type("/task new one make it blue")
	tm.Keys("Enter")
	tm.WaitFor("STREAM-ONE-START", "SHELL-ONE-42")
	tm.Keys("M-,") // the project's task, to start the other from
	tm.WaitGone("STREAM-ONE-START")
	tm.Type("/task new two make it red")
	tm.Keys("Enter")
	s := tm.WaitFor("STREAM-TWO-START", "SHELL-TWO-42")
	for _, other := range []string{"STREAM-ONE", "SHELL-ONE", "A blue widget"} {
		if strings.Contains(s, other) {
			t.Errorf("task two's tab shows task one's %q:\n%s", other, s)
		}
	}
	tm.Keys("M-,") // task one, still streaming
	s = tm.WaitFor("STREAM-ONE-START", "SHELL-ONE-42")
	if strings.Contains(s, "ONE-END") {
		t.Log("task one's answer had ended before its tab was shown again: its live stream was not seen")
	} else {
		// Shown again, it goes on streaming on screen.
		next := fmt.Sprintf("one%d", lastWord(s, "one")+1)
		tm.WaitUntil(next+" streamed in task one's tab", func(s string) bool {
			return strings.Contains(s, next+" ") || strings.Contains(s, "ONE-END")
		})
	}
	for _, other := range []string{"STREAM-TWO", "SHELL-TWO", "A red widget"} {
		if strings.Contains(s, other) {
			t.Errorf("task one's tab shows task two's %q:\n%s", other, s)
		}
	}
	tm.WaitFor("ONE-END")
	tm.Keys("M-.") // task two
	s = tm.WaitFor("STREAM-TWO-START")
	if strings.Contains(s, "TWO-END") {
		t.Log("task two's answer had ended before its tab was shown again")
	}
	// Killed while task two streams (at worst, just after).
	pid := tm.fawnPID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("fawn outlived kill -9")
		}
	}

	// The next start offers both back; reopened, each carries on its
	// session in its own worktree.
	tm2 := Start(t, 200, 50, repo, env, args...)
	tm2.WaitFor("Tasks left open", "one (branch fawn/one, 1 file not", "(branch fawn/two, 1 file not")
	tm2.Keys("r")
	tm2.WaitFor("1 project  2 one  3 two", "make it red", "task two works on branch fawn/two")
	tm2.Keys("M-,")
	s = tm2.WaitFor("make it blue", "task one works on branch fawn/one")
	if strings.Contains(s, "make it red") {
		t.Errorf("task one's reopened chat shows task two's prompt:\n%s", s)
	}
	tm2.Keys("C-q")
	tm2.WaitFor("fawn-exited-0")

	out, err := exec.Command("git", "-C", repo, "worktree", "list").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "[fawn/one]") || !strings.Contains(string(out), "[fawn/two]") {
		t.Fatalf("the tasks' worktrees after a clean quit: %v\n%s", err, out)
	}
	cmd := exec.Command(binary, "sessions", repo)
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "fawn/one") || !strings.Contains(string(out), "fawn/two") {
		t.Errorf("fawn sessions: %v\n%s", err, out)
	}

	// A clean quit closed them: --continue reopens both, nothing asked.
	tm3 := Start(t, 200, 50, repo, env, append([]string{"--continue"}, args...)...)
	tm3.WaitFor("1 project  2 one  3 two", "task two works on branch fawn/two")
	if s := tm3.Screen(); strings.Contains(s, "Tasks left open") {
		t.Errorf("tasks closed cleanly are offered as left open:\n%s", s)
	}
	tm3.Keys("M-,") // task one
	tm3.WaitFor("make it blue", "task one works on branch fawn/one")
	tm3.Type("/task merge")
	tm3.Keys("Enter")
	tm3.WaitFor("Commit, then merge", "README.md")
	tm3.Keys("c")
	tm3.WaitFor("fawn/one merged into main: a fast-forward")
	if b, _ := os.ReadFile(filepath.Join(repo, "README.md")); !strings.Contains(string(b), "A blue widget.") {
		t.Fatalf("after the merge the project's README.md is %q", b)
	}
	tm3.Keys("M-.") // task two
	tm3.WaitFor("make it red")
	tm3.Type("/task merge")
	tm3.Keys("Enter")
	tm3.WaitFor("Commit, then merge")
	tm3.Keys("c")
	tm3.WaitFor("not merged", "conflicts in README.md")
	if out, _ := exec.Command("git", "-C", repo, "status", "--porcelain").CombinedOutput(); strings.TrimSpace(string(out)) != "" {
		t.Errorf("the conflict left the project changed:\n%s", out)
	}
	tm3.Type("/task discard")
	tm3.Keys("Enter")
	tm3.WaitFor("Discard task two")
	tm3.Keys("d")
	tm3.WaitFor("task two discarded")
	if out, _ := exec.Command("git", "-C", repo, "branch", "--list", "fawn/two").CombinedOutput(); strings.TrimSpace(string(out)) != "" {
		t.Errorf("the discarded task's branch is still there: %s", out)
	}
}

// /task review shows the task's branch against its base, its commits
// included: the file the task changed and committed is listed, Enter
// shows its diff, r puts the hunk back as the base has it in the task's
// worktree (not in the project), and the review is then empty.
func TestTaskReview(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"README.md"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"README.md","old_str":"A widget.","new_str":"A blue widget."}`)}},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"git -c user.name=u -c user.email=u@example.com commit -qam blue && echo COMMITTED"}`)}},
		{Text: "Committed the blue widget."},
	}})
	tm := Start(t, 200, 50, repo, nil, "--trust", "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo")
	tm.WaitFor("Ask fawn")
	tm.Type("/task new blue make it blue")
	tm.Keys("Enter")
	tm.WaitFor("Committed the blue widget.")
	tm.Type("/task review")
	tm.Keys("Enter")
	tm.WaitFor("reviewing fawn/blue against its base", "Review 1", "README.md", "+1 −1")
	tm.Keys("Enter")
	tm.WaitFor("fawn/blue against its base", "@@", "A blue widget.")
	tm.Type("r")
	tm.WaitFor("revert a hunk of README.md to the base: restored README.md")
	tm.WaitFor("The branch changes nothing against its base yet.")
	out, err := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	var wt string
	for _, l := range strings.Split(string(out), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok && p != repo {
			wt = p
		}
	}
	if b, err := os.ReadFile(filepath.Join(wt, "README.md")); err != nil || !strings.Contains(string(b), "A widget.") {
		t.Errorf("the task's README.md after the revert: %q, %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "README.md")); !strings.Contains(string(b), "A widget.") {
		t.Errorf("the project's README.md: %q", b)
	}
}

// A task a killed fawn left with uncommitted work is cleaned up only
// after two yeses: the first start's "clean" asks again and Esc keeps it;
// the next start's clean, confirmed, removes its worktree and branch.
func TestTaskLeftByAKillIsCleanedAfterAYes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t)
	home := t.TempDir()
	env := []string{"FAWN_HOME=" + home}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"README.md"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"README.md","old_str":"A widget.","new_str":"A green widget."}`)}},
		{Text: "Green now."},
	}})
	args := []string{"--trust", "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo"}
	tm := Start(t, 200, 50, repo, env, args...)
	tm.WaitFor("Ask fawn")
	tm.Type("/task new green make it green")
	tm.Keys("Enter")
	tm.WaitFor("Green now.")
	pid := tm.fawnPID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("fawn outlived kill -9")
		}
	}
	branch := func() string {
		out, _ := exec.Command("git", "-C", repo, "branch", "--list", "fawn/green").CombinedOutput()
		return strings.TrimSpace(string(out))
	}

	tm2 := Start(t, 200, 50, repo, env, args...)
	tm2.WaitFor("Tasks left open", "green (branch fawn/green, 1 file not")
	tm2.Keys("c")
	tm2.WaitFor("Delete uncommitted work?", "deletes 1 file that no commit holds")
	tm2.Keys("Escape")
	tm2.WaitGone("Delete uncommitted work?")
	if branch() == "" {
		t.Fatal("the task was removed though the user kept it")
	}
	tm2.Keys("C-q")
	tm2.WaitFor("fawn-exited-0")

	tm3 := Start(t, 200, 50, repo, env, args...)
	tm3.WaitFor("Tasks left open", "green (branch fawn/green")
	tm3.Keys("c")
	tm3.WaitFor("Delete uncommitted work?")
	tm3.Keys("d")
	tm3.WaitFor("cleaned up: green")
	if b := branch(); b != "" {
		t.Errorf("the cleaned task's branch is still there: %s", b)
	}
	if out, _ := exec.Command("git", "-C", repo, "worktree", "list").CombinedOutput(); strings.Contains(string(out), "fawn/green") {
		t.Errorf("the cleaned task's worktree is still there:\n%s", out)
	}
}
