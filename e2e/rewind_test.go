package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// Two prompts, one creating a file with the editor tool, one changing a
// committed file with sed -i in the shell: /diff lists both with counts and
// shows a diff; /rewind, Enter, Enter puts the files back as they were
// before the second prompt, drops its answer and puts the prompt back in
// the input; /rewind again undoes the rewind.
func TestRewindInTheIDE(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "b.txt"), "bee\nline two\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "b.txt"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "b"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = project
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"create","path":"a.txt","file_text":"made by the agent\n"}`)}},
		{Text: "Created a.txt."},
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"sed -i s/bee/BEE/ b.txt"}`)}},
		{Text: "Shouted in b.txt."},
	}})
	tm := startIDE(t, srv, project, "--permission-mode", "yolo")
	tm.prompt("create a")
	tm.WaitFor("Created a.txt.", "idle")
	tm.prompt("shout in b")
	tm.WaitFor("Shouted in b.txt.", "idle")
	if got := readFile(t, filepath.Join(project, "b.txt")); got != "BEE\nline two\n" {
		t.Fatalf("b.txt after the command: %q", got)
	}

	// The Changes tab, marked while the terminal showed, lists both.
	tm.WaitFor("Changes 2 •")
	tm.Keys("M-g")
	tm.WaitFor("+1 −1 · agent command", "new +1 −0 · agent tool", "Enter diff")
	tm.Keys("Enter") // the newest: b.txt
	tm.WaitFor("@@ -1,2 +1,2 @@", "BEE")
	tm.Keys("Escape")
	tm.Keys("M-c")

	tm.prompt("/diff")
	tm.WaitFor("Changed in this session", "b.txt", "agent command", "a.txt", "new · +1", "agent tool")
	tm.Keys("Enter") // the newest: b.txt
	tm.WaitFor("@@ -1,2 +1,2 @@")
	tm.Keys("Escape")

	tm.Keys("M-c") // back to the chat
	tm.prompt("/rewind")
	tm.WaitFor("Rewind to before a prompt", "› shout in b", "1 file: b.txt", "› create a", "1 file: a.txt")
	tm.Keys("Enter")
	tm.WaitFor("code and conversation", "conversation only", "files only")
	tm.Keys("Enter")
	tm.WaitFor("rewind: restored b.txt", "the conversation is back to before")
	tm.WaitGone("Shouted in b.txt.")
	if got := readFile(t, filepath.Join(project, "b.txt")); got != "bee\nline two\n" {
		t.Errorf("b.txt after the rewind: %q", got)
	}
	if got := readFile(t, filepath.Join(project, "a.txt")); got != "made by the agent\n" {
		t.Errorf("a.txt was not to be touched: %q", got)
	}
	s := tm.Screen()
	if !strings.Contains(s, "Created a.txt.") || !strings.Contains(s, "› shout in b") {
		t.Errorf("the first turn or the prompt in the input is missing:\n%s", s)
	}

	// The rewind is a checkpoint: undo it.
	tm.Keys("C-c") // clear the input
	tm.prompt("/rewind")
	tm.WaitFor("↶ rewind to before “shout in b” (undo it)")
	tm.Keys("Enter")
	tm.WaitFor("Undo", "undo it")
	tm.Keys("Enter")
	tm.WaitFor("undo: restored b.txt")
	if got := readFile(t, filepath.Join(project, "b.txt")); got != "BEE\nline two\n" {
		t.Errorf("b.txt after undoing the rewind: %q", got)
	}
}

// What the user saves in the editor is a change "by you": /diff lists it,
// and a rewind to before the prompt takes it back with the agent's.
func TestUserSavesAreChangesToo(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "notes.txt"), "alpha\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"create","path":"a.txt","file_text":"agent\n"}`)}},
		{Text: "Created a.txt."},
	}})
	tm := startIDE(t, srv, project, "--permission-mode", "yolo")
	tm.prompt("create a")
	tm.WaitFor("Created a.txt.", "idle")
	tm.Keys("C-p")
	tm.WaitFor("notes.txt")
	tm.Type("notes")
	tm.Keys("Enter")
	tm.WaitFor("alpha")
	tm.Type("USER ")
	tm.Keys("C-s")
	tm.WaitFor("saved notes.txt")
	tm.Keys("M-c")
	tm.prompt("/diff")
	tm.WaitFor("Changed in this session", "notes.txt", "+1 −1 · you", "a.txt")
	tm.Keys("Escape")
	tm.WaitGone("Changed in this session")
	tm.prompt("/rewind")
	tm.WaitFor("› create a", "2 files")
	tm.Keys("Enter")
	tm.WaitFor("code and conversation")
	tm.Keys("Enter")
	tm.WaitFor("rewind: restored")
	if got := readFile(t, filepath.Join(project, "notes.txt")); got != "alpha\n" {
		t.Errorf("notes.txt after the rewind: %q", got)
	}
	if got := readFile(t, filepath.Join(project, "a.txt")); !strings.HasPrefix(got, "<") {
		t.Errorf("a.txt after the rewind: %q", got)
	}
}

// In a diff of /diff, r reverts the hunk at the cursor (the first, where
// the diff opens) and leaves the others; the file is byte-exact (CRLF, no
// final newline); o opens the file at the hunk; R reverts the rest.
func TestRevertAHunk(t *testing.T) {
	project := t.TempDir()
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	orig := strings.Join(lines, "\r\n") // CRLF, no final newline
	writeFile(t, filepath.Join(project, "f.txt"), orig)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"f.txt"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"f.txt","old_str":"line 3\r\n","new_str":"LINE THREE\r\n"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"f.txt","old_str":"line 25\r\n","new_str":"LINE TWENTY-FIVE\r\n"}`)}},
		{Text: "Shouted twice."},
	}})
	tm := startIDE(t, srv, project, "--permission-mode", "yolo")
	tm.prompt("shout")
	tm.WaitFor("Shouted twice.", "idle")
	read := func() string {
		b, _ := os.ReadFile(filepath.Join(project, "f.txt"))
		return string(b)
	}
	if got := read(); !strings.Contains(got, "LINE THREE\r\n") || !strings.Contains(got, "LINE TWENTY-FIVE\r\n") {
		t.Fatalf("after the agent: %q", got)
	}
	tm.prompt("/diff")
	tm.WaitFor("Changed in this session", "f.txt")
	tm.Keys("Enter")
	// (The hint in the tab's status line may give way to "reloaded f.txt"
	// as the editor notices the agent's last write: the diff is what counts.)
	tm.WaitFor("@@ -1,6 +1,6 @@", "@@ -22,7 +22,7 @@")
	tm.Type("r")
	tm.WaitFor("revert a hunk of f.txt: restored f.txt")
	want := strings.Replace(orig, "line 25", "LINE TWENTY-FIVE", 1)
	if got := read(); got != want {
		t.Errorf("after reverting the first hunk:\n got %q\nwant %q", got, want)
	}
	s := tm.WaitFor("@@ -22,7 +22,7 @@")
	if strings.Contains(s, "@@ -1,6 +1,6 @@") {
		t.Errorf("the reverted hunk is still in the diff:\n%s", s)
	}
	tm.Type("o")
	tm.WaitFor("LINE TWENTY-FIVE", "Ln 25")
	tm.Keys("M-c") // back to the chat
	tm.prompt("/diff")
	tm.WaitFor("Changed in this session", "f.txt")
	tm.Keys("Enter")
	tm.WaitFor("@@ -22,7 +22,7 @@")
	tm.Type("R")
	tm.WaitFor("revert f.txt: restored f.txt")
	if got := read(); got != orig {
		t.Errorf("after reverting the file: %q", got)
	}
}

// A revert over a hand edit asks; v shows the three versions side by side
// in the editor (the earlier one, the agent's, the hand edit), and o there
// puts the earlier one back.
func TestConflictShowsThreeVersions(t *testing.T) {
	project := t.TempDir()
	path := filepath.Join(project, "c.txt")
	writeFile(t, path, "alpha\nbeta\ngamma\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"c.txt"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"c.txt","old_str":"beta","new_str":"beta by the agent"}`)}},
		{Text: "Edited c."},
	}})
	tm := startIDE(t, srv, project, "--permission-mode", "yolo")
	tm.prompt("edit c")
	tm.WaitFor("Edited c.", "idle")
	writeFile(t, path, "alpha\nbeta by hand\ngamma\n") // by hand, outside fawn
	tm.prompt("/revert c.txt")
	tm.WaitFor("Changed by hand", "view the three versions")
	tm.Type("v")
	tm.Keys("M-m") // the editor, zoomed: room for three columns
	tm.WaitFor("the earlier version (revert c.txt)", "fawn's last record", "on disk now", "beta by the agent", "beta by hand", "o: overwrite it")
	tm.Type("o")
	tm.Keys("M-m")
	tm.WaitFor("revert c.txt: restored c.txt")
	if got := readFile(t, path); got != "alpha\nbeta\ngamma\n" {
		t.Errorf("after o: %q", got)
	}
}

// R in the diff of a file the session changed puts the file back and
// leaves the diff, which has nothing left to show: no "was not changed in
// this session" error after it, no stale diff, and the status line names
// the diff it shows.
func TestRevertTheFileFromItsDiff(t *testing.T) {
	project := t.TempDir()
	path := filepath.Join(project, "f.txt")
	writeFile(t, path, "alpha\nbeta\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"f.txt"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"str_replace","path":"f.txt","old_str":"beta","new_str":"BETA BY THE AGENT"}`)}},
		{Text: "Edited f."},
	}})
	tm := startIDE(t, srv, project, "--permission-mode", "yolo")
	tm.prompt("edit f")
	tm.WaitFor("Edited f.", "idle")
	tm.prompt("/diff")
	tm.WaitFor("Changed in this session", "f.txt")
	tm.Keys("Enter")
	s := tm.WaitFor("@@ -1,2 +1,2 @@", "diff of this session's changes +1 −1")
	if strings.Contains(s, "diff of since") {
		t.Errorf("the status line does not name the diff:\n%s", s)
	}
	tm.Type("R")
	tm.WaitFor("revert f.txt: restored f.txt")
	s = tm.WaitGone("@@ -1,2 +1,2 @@")
	if strings.Contains(s, "was not changed in this session") {
		t.Errorf("the revert is followed by an error:\n%s", s)
	}
	if got := readFile(t, path); got != "alpha\nbeta\n" {
		t.Errorf("f.txt after R: %q", got)
	}
}
