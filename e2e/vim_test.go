package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// editor.keys: vim in the real binary: the mode shows in the editor's
// status line, a vim change edits the file and :w saves it; the agent then
// edits the same file (its change marked in the gutter as with the
// standard keys), a vim mark set before moves with its line, and :w saves
// both.
func TestVimKeysInTheEditor(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, "notes.txt"), "alpha beta\ngamma\ndelta\n")
	writeFile(t, filepath.Join(home, "config.yaml"), "editor:\n  keys: vim\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Reading it.", ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":"notes.txt"}`)}},
		{Text: "Adding a line.", ToolCalls: []llmtest.ToolCall{call("text_editor",
			`{"command":"str_replace","path":"notes.txt","old_str":"gamma\n","new_str":"gamma\nepsilon\n"}`)}},
		{Text: "Added."},
	}})
	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted",
		"--permission-mode", "accept-edits")
	tm.WaitFor("Chat", "Editor", "Ask fawn")
	tm.Keys("C-p")
	tm.WaitFor("notes.txt")
	tm.Type("notes")
	tm.Keys("Enter")
	tm.WaitFor("alpha beta", "-- NORMAL --")
	tm.Type("dwi")
	tm.WaitFor("-- INSERT --")
	tm.Type("X")
	tm.Keys("Escape")
	tm.WaitFor("Xbeta", "-- NORMAL --")
	tm.Type(":w")
	tm.WaitFor(":w")
	tm.Keys("Enter")
	tm.WaitFor("saved notes.txt")
	if got := readFile(t, filepath.Join(project, "notes.txt")); got != "Xbeta\ngamma\ndelta\n" {
		t.Fatalf("notes.txt after dwiX<Esc>:w is %q", got)
	}
	// Mark delta's line, and let the agent add a line above it.
	tm.Type("jjma")
	tm.WaitFor("Ln 3, Col 1")
	tm.Keys("M-c")
	tm.prompt("add epsilon")
	s := tm.WaitFor("Added.", "epsilon")
	if !strings.Contains(s, "+  3 ") && !strings.Contains(s, "~  3 ") {
		t.Errorf("the agent's line is not marked in the gutter:\n%s", s)
	}
	tm.Keys("M-e")
	tm.WaitFor("-- NORMAL --")
	tm.Type("gg'a")
	tm.WaitFor("Ln 4, Col 1")
	tm.Type("x:w")
	tm.Keys("Enter")
	tm.WaitFor("saved notes.txt")
	if got := readFile(t, filepath.Join(project, "notes.txt")); got != "Xbeta\ngamma\nepsilon\nelta\n" {
		t.Errorf("notes.txt after the agent's edit, 'a x :w is %q", got)
	}
	tm.Type("qq")
	tm.WaitFor("recording @q")
}

// A binding in keys.yaml takes effect in the real binary (F2 opens the
// help, which lists it), and chat.keys: vim edits the chat input: Esc goes
// to normal mode, 0dw deletes a word, Enter sends.
func TestKeysFileAndChatVim(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "keys.yaml"), "app.help: [f2]\n")
	writeFile(t, filepath.Join(home, "config.yaml"), "chat:\n  keys: vim\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "Heard you."}}})
	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Chat", "Editor", "Ask fawn")
	tm.Keys("F2")
	s := tm.WaitFor("Show the keys and commands")
	if line := s[strings.Index(s, "Show the keys and commands")-40:]; !strings.Contains(line[:60], "F2") {
		t.Errorf("the help does not show F2 for app.help:\n%s", s)
	}
	tm.Keys("Escape")
	tm.WaitGone("Show the keys and commands")
	tm.Type("please hello world")
	tm.Keys("Escape")
	tm.WaitFor("NORMAL")
	tm.Type("0dw")
	tm.WaitGone("please hello")
	tm.Keys("Enter")
	tm.WaitFor("Heard you.")
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "hello world") || strings.Contains(body, "please hello") {
		t.Errorf("the model was not sent \"hello world\": %s", body)
	}
}
