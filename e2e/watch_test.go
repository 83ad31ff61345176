package e2e

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/project/projecttest"
)

// One watcher per project root for the whole app: after the agent ran a
// command (the checkpoint book watched the tree for it and recorded what it
// made), with a file open in the editor (which shows a change made on disk)
// and the @-mention index listing the project, fawn holds one inotify
// instance; a task in a worktree, a root of its own, adds one.
func TestOneWatcherPerRoot(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counting inotify instances needs Linux's /proc")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"mkdir -p gen && echo made > gen/made.txt"}`)}},
		{Text: "Made it."},
	}})
	tm := Start(t, 150, 42, repo, nil, "--trust", "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo")
	tm.WaitFor("Ask fawn")
	tm.prompt("make a file")
	tm.WaitFor("Made it.", "idle")
	tm.WaitFor("Changes 1") // the book found gen/made.txt

	// A file open in the editor, changed on disk: the editor shows it.
	tm.Keys("C-p")
	tm.WaitFor("Open file")
	tm.Type("README")
	tm.WaitFor("README.md") // listed: Enter opens it
	tm.Keys("Enter")
	tm.WaitFor("A widget.")
	writeFile(t, filepath.Join(repo, "README.md"), "# Widget\n\nA changed widget.\n")
	tm.WaitFor("A changed widget.")

	// The @-mention index lists the project, the new file included.
	tm.Keys("M-c")
	tm.Type("@made")
	tm.WaitFor("gen/made.txt")
	tm.Keys("C-c")

	pid := tm.fawnPID()
	if n := projecttest.InotifyInstances(t, strconv.Itoa(pid)); n != 1 {
		t.Fatalf("fawn holds %d inotify instances for one project root, want 1", n)
	}

	tm.prompt("/task new two")
	tm.WaitUntil("task two open", func(s string) bool { return strings.Contains(s, "fawn/two") })
	if n := projecttest.InotifyInstances(t, strconv.Itoa(pid)); n != 2 {
		t.Fatalf("fawn holds %d inotify instances for the project and one task's worktree, want 2", n)
	}
}
