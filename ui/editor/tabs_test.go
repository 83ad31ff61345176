package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/theme"
)

const goSource = `package main

import "fmt"

// greet says hello to name.
func greet(name string) string {
	return fmt.Sprintf("hello, %s", name) // 世界
}

func main() {
	for i := 0; i < 3; i++ {
		fmt.Println(greet("fawn"), i)
	}
}
`

const pySource = `"""A small module."""
import os


class Greeter:
    def __init__(self, name: str) -> None:
        self.name = name  # who to greet

    def greet(self) -> str:
        return f"hello, {self.name}"


if __name__ == "__main__":
    print(Greeter(os.getenv("USER", "you")).greet())
`

const mdSource = "# fawn\n\nA *terminal* IDE with an **agent**.\n\n- watch it work\n- take over\n\n```go\nfunc main() {}\n```\n\nSee [the docs](https://example.com).\n"

func TestHighlightGo(t *testing.T) {
	h := newHarness(t, 64, 18)
	h.write("main.go", goSource)
	h.open("main.go", 1)
	h.highlighted()
	h.golden("highlight_go")
}

func TestHighlightPython(t *testing.T) {
	h := newHarness(t, 64, 18)
	h.write("greet.py", pySource)
	h.open("greet.py", 1)
	h.highlighted()
	h.golden("highlight_python")
}

func TestHighlightMarkdown(t *testing.T) {
	h := newHarness(t, 64, 16)
	h.write("README.md", mdSource)
	h.open("README.md", 1)
	h.highlighted()
	h.golden("highlight_markdown")
}

func TestHighlightByContentWithoutExtension(t *testing.T) {
	h := newHarness(t, 40, 6)
	h.write("run", "#!/bin/bash\necho hi\n")
	h.open("run", 1)
	if h.tabs.current().view.lexer == nil {
		t.Fatal("a script with a shebang and no extension got no highlighting")
	}
}

func TestDuplicateNameTabs(t *testing.T) {
	h := newHarness(t, 80, 6)
	h.write("ui/chat/view.go", "package chat\n")
	h.write("ui/editor/view.go", "package editor\n")
	h.write("main.go", "package main\n")
	h.write("cmd/a/main.go", "package main\n")
	h.write("cmd/b/a/main.go", "package main\n")
	for _, f := range []string{"ui/chat/view.go", "ui/editor/view.go", "main.go", "cmd/a/main.go", "cmd/b/a/main.go"} {
		h.open(f, 0)
	}
	var titles []string
	for _, tb := range h.tabs.tabs {
		titles = append(titles, tb.title)
	}
	want := "chat/view.go editor/view.go main.go cmd/a/main.go b/a/main.go"
	if got := strings.Join(titles, " "); got != want {
		t.Fatalf("titles = %q, want %q", got, want)
	}
	h.draw()
	h.golden("tabs_duplicate_names")
	// Closing one of a pair gives the other its short name back.
	h.tabs.activate(0)
	h.ctrl('w')
	if got := h.tabs.tabs[0].title; got != "view.go" {
		t.Fatalf("after closing its twin, title = %q, want view.go", got)
	}
}

func TestTabSwitchingKeys(t *testing.T) {
	h := newHarness(t, 60, 6)
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		h.write(f, f+"\n")
		h.open(f, 0)
	}
	h.alt('1')
	if h.tabs.current().title != "a.txt" {
		t.Fatalf("Alt-1 went to %q", h.tabs.current().title)
	}
	h.alt('3')
	if h.tabs.current().title != "c.txt" {
		t.Fatalf("Alt-3 went to %q", h.tabs.current().title)
	}
	h.key(tcell.KeyPgDn, 0, tcell.ModCtrl)
	if h.tabs.current().title != "a.txt" {
		t.Fatalf("next tab after the last went to %q, want the first", h.tabs.current().title)
	}
	h.key(tcell.KeyPgUp, 0, tcell.ModCtrl)
	if h.tabs.current().title != "c.txt" {
		t.Fatalf("previous tab went to %q", h.tabs.current().title)
	}
	h.alt('9') // no ninth tab: nothing happens
	if h.tabs.current().title != "c.txt" {
		t.Fatalf("Alt-9 moved to %q", h.tabs.current().title)
	}
}

func TestWelcomeTabComesBackWhenAllClose(t *testing.T) {
	h := newHarness(t, 60, 20)
	h.draw()
	if !h.tabs.current().welcome || !strings.Contains(h.text(), "Ctrl-P      open a project file") {
		t.Fatalf("no Welcome tab at start:\n%s", h.text())
	}
	h.write("a.txt", "a\n")
	h.open("a.txt", 0)
	if len(h.tabs.tabs) != 1 || h.tabs.current().welcome {
		t.Fatal("opening a file did not replace the Welcome tab")
	}
	h.ctrl('w')
	h.draw()
	if !h.tabs.current().welcome {
		t.Fatalf("closing the last tab did not bring back Welcome:\n%s", h.text())
	}
}

// agentEdit writes after to rel as the text_editor tool does and reports it.
func (h *harness) agentEdit(rel, before, after, command string) {
	h.t.Helper()
	p := filepath.Join(h.root, rel)
	if err := h.tabs.CheckEdit(p); err != nil {
		h.t.Fatalf("CheckEdit refused the edit: %v", err)
	}
	h.write(rel, after)
	var b []byte
	if before != "" || command != "create" {
		b = []byte(before)
	}
	h.tabs.AgentChanged(tools.FileChanged{Path: p, Before: b, After: []byte(after), Command: command})
}

func TestAgentStrReplaceMarksChangedLines(t *testing.T) {
	h := newHarness(t, 64, 18)
	p := h.write("main.go", goSource)
	h.tabs.AgentViewed(tools.FileViewed{Path: p, Start: 5, End: 8})
	after := strings.Replace(goSource, "// greet says hello to name.\n", "// greet says hello to name,\n// politely.\n", 1)
	after = strings.Replace(after, "\t\tfmt.Println(greet(\"fawn\"), i)\n", "", 1)
	h.tabs.Blur() // the user watches from the chat
	h.agentEdit("main.go", goSource, after, "str_replace")
	h.highlighted()
	h.golden("agent_str_replace")
	if tb := h.tabs.current(); !tb.agentMark || !strings.Contains(h.row(0), string(markAgent)) {
		t.Fatalf("no changed-by-the-agent mark on the tab: %q", h.row(0))
	}
	// Looking at the tab clears the mark; the next change clears the marks.
	h.tabs.Focus(func(tview.Primitive) {})
	h.draw()
	if strings.Contains(h.row(0), string(markAgent)) {
		t.Fatalf("mark still shown after the user looked: %q", h.row(0))
	}
	h.typeText("x")
	h.draw()
	for _, row := range strings.Split(h.text(), "\n") {
		if strings.HasPrefix(row, "+") || strings.HasPrefix(row, "~") || strings.HasPrefix(row, "-") {
			t.Fatalf("change marks survived the user's next change:\n%s", h.text())
		}
	}
}

func TestAgentCreateOpensTabAndFollows(t *testing.T) {
	h := newHarness(t, 50, 8)
	h.write("a.txt", "a\n")
	h.open("a.txt", 0)
	h.tabs.Blur()
	h.agentEdit("new.txt", "", "one\ntwo\n", "create")
	if h.tabs.current().title != "new.txt" {
		t.Fatalf("active tab %q, want the created file", h.tabs.current().title)
	}
	h.draw()
	if !strings.HasPrefix(h.row(1), "+  1 one") || !strings.HasPrefix(h.row(2), "+  2 two") {
		t.Fatalf("created lines not marked as added:\n%s", h.text())
	}
}

// undo_edit of a file the agent created deletes it: its tab closes, and says
// why, unless the user has unsaved changes in it, which are kept.
func TestAgentUndoOfCreateClosesTheTab(t *testing.T) {
	h := newHarness(t, 70, 8)
	h.agentEdit("made.txt", "", "made\n", "create")
	p := filepath.Join(h.root, "made.txt")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	h.tabs.AgentChanged(tools.FileChanged{Path: p, Before: []byte("made\n"), After: nil, Command: "undo_edit"})
	h.draw()
	if strings.Contains(h.row(0), "made.txt") {
		t.Fatalf("the deleted file's tab is still open:\n%s", h.text())
	}
	if !strings.Contains(h.text(), "made.txt was deleted by the agent") {
		t.Errorf("no word of why the tab closed:\n%s", h.text())
	}

	h.agentEdit("kept.txt", "", "kept\n", "create")
	h.tabs.Focus(func(tview.Primitive) {})
	h.typeText("mine ")
	p = filepath.Join(h.root, "kept.txt")
	os.Remove(p)
	h.tabs.AgentChanged(tools.FileChanged{Path: p, Before: []byte("kept\n"), After: nil, Command: "undo_edit"})
	h.draw()
	if !strings.Contains(h.row(0), "kept.txt") || !strings.Contains(h.text(), "mine kept") {
		t.Fatalf("the user's unsaved text was dropped:\n%s", h.text())
	}
	if !strings.Contains(h.text(), "your unsaved changes are kept") {
		t.Errorf("no word that the file is gone:\n%s", h.text())
	}
}

func TestAgentEditDoesNotPullAwayFromUnsavedWork(t *testing.T) {
	h := newHarness(t, 50, 8)
	h.write("mine.txt", "mine\n")
	h.write("theirs.txt", "theirs\n")
	h.open("mine.txt", 0)
	h.typeText("typing ")
	h.agentEdit("theirs.txt", "theirs\n", "theirs, changed\n", "str_replace")
	if h.tabs.current().title != "mine.txt" {
		t.Fatal("the agent's edit switched away from the tab the user is typing in")
	}
	h.draw()
	if !strings.Contains(h.row(0), "theirs.txt "+string(markAgent)) {
		t.Fatalf("the background tab lacks the agent mark: %q", h.row(0))
	}
}

func TestDiffToggle(t *testing.T) {
	h := newHarness(t, 64, 18)
	h.write("main.go", goSource)
	h.open("main.go", 0)
	after := strings.Replace(goSource, "hello, %s", "hi there, %s", 1)
	after = strings.Replace(after, "i < 3", "i < 5", 1)
	h.agentEdit("main.go", goSource, after, "str_replace")
	h.alt('v')
	h.highlighted()
	h.golden("agent_diff")
	if !h.tabs.current().shown().readOnly {
		t.Fatal("the diff is editable")
	}
	h.typeText("z") // refused, and said so
	h.draw()
	if !strings.Contains(h.row(17), "read-only") {
		t.Fatalf("typing in the diff was not refused with a notice: %q", h.row(17))
	}
	h.alt('v')
	h.draw()
	if h.tabs.current().diff != nil || !strings.Contains(h.row(7), "hi there") {
		t.Fatalf("Alt-V did not go back to the file:\n%s", h.text())
	}
	if got := h.read("main.go"); got != after {
		t.Fatalf("the file changed: %q", got)
	}
}

func TestDiffWithoutAgentEditSaysSo(t *testing.T) {
	h := newHarness(t, 70, 6)
	h.write("a.txt", "a\n")
	h.open("a.txt", 0)
	h.alt('v')
	h.draw()
	if !strings.Contains(h.row(5), "has not edited this file") {
		t.Fatalf("no notice: %q", h.row(5))
	}
}

func TestUnsavedChangesRefuseAgentEdits(t *testing.T) {
	h := newHarness(t, 72, 10)
	p := h.write("notes.md", "# notes\n")
	h.open("notes.md", 0)
	if err := h.tabs.CheckEdit(p); err != nil {
		t.Fatalf("an unmodified file was guarded: %v", err)
	}
	h.key(tcell.KeyEnd, 0, 0)
	h.typeText(" (mine)")
	// The tool calls the guard from its own goroutine, by absolute or
	// relative path.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, path := range []string{p, "notes.md"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = h.tabs.CheckEdit(path)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "the user is editing notes.md; unsaved changes") {
			t.Fatalf("CheckEdit = %v, want the user is editing notes.md; unsaved changes", err)
		}
	}
	// Undoing back to the saved text lifts the guard.
	h.ctrl('z') // "(mine)"
	h.ctrl('z') // " "
	if err := h.tabs.CheckEdit(p); err != nil {
		t.Fatalf("guard still up after undoing every change: %v", err)
	}
	h.ctrl('y')
	h.ctrl('y')
	if h.tabs.CheckEdit(p) == nil {
		t.Fatal("guard down after redo")
	}
	// An edit that got past the guard (the user typed just after the
	// check) is not applied over the user's text: the user is asked.
	h.write("notes.md", "# notes by the agent\n")
	h.tabs.AgentChanged(tools.FileChanged{Path: p, Before: []byte("# notes\n"), After: []byte("# notes by the agent\n"), Command: "str_replace"})
	h.draw()
	h.golden("unsaved_agent_conflict")
	if got := string(h.tabs.current().buf.Bytes()); got != "# notes (mine)\n" {
		t.Fatalf("the user's text was replaced: %q", got)
	}
	h.typeText("k") // keep mine
	h.ctrl('s')
	if got := h.read("notes.md"); got != "# notes (mine)\n" {
		t.Fatalf("after keep mine and save, disk has %q", got)
	}
	if err := h.tabs.CheckEdit(p); err != nil {
		t.Fatalf("guard still up after saving: %v", err)
	}
}

func TestSaveConflict(t *testing.T) {
	h := newHarness(t, 72, 10)
	h.write("cfg.yaml", "a: 1\nb: 2\n")
	h.open("cfg.yaml", 0)
	h.key(tcell.KeyEnd, 0, 0)
	h.typeText("0")
	// Someone else writes the file; the watcher may or may not have told
	// the editor yet — saving must notice either way.
	h.write("cfg.yaml", "a: 1\nb: 3\n")
	h.tabs.box.drain()
	h.tabs.current().prompt = nil // answer no earlier question
	h.ctrl('s')
	h.draw()
	h.golden("save_conflict")
	h.typeText("d")
	h.draw()
	if !strings.Contains(h.text(), "b: 3") || !strings.Contains(h.text(), "a: 10") {
		t.Fatalf("the diff does not show both versions:\n%s", h.text())
	}
	h.typeText("o")
	if got := h.read("cfg.yaml"); got != "a: 10\nb: 2\n" {
		t.Fatalf("overwrite wrote %q", got)
	}
	if h.tabs.current().buf.Modified() {
		t.Fatal("still modified after saving")
	}
}

func TestSaveConflictReloadKeepsDisk(t *testing.T) {
	h := newHarness(t, 72, 10)
	h.write("cfg.yaml", "a: 1\n")
	h.open("cfg.yaml", 0)
	h.typeText("# ")
	h.write("cfg.yaml", "a: 2\n")
	h.tabs.box.drain()
	h.tabs.current().prompt = nil
	h.ctrl('s')
	h.typeText("r")
	if got := string(h.tabs.current().buf.Bytes()); got != "a: 2\n" {
		t.Fatalf("reload gave %q", got)
	}
	if got := h.read("cfg.yaml"); got != "a: 2\n" {
		t.Fatalf("disk changed to %q", got)
	}
	// The dropped text is one undo away.
	h.ctrl('z')
	if got := string(h.tabs.current().buf.Bytes()); got != "# a: 1\n" {
		t.Fatalf("undo after reload gave %q", got)
	}
}

// Given the project's watcher, the editor watches its open files'
// directories through it and reloads the same way.
func TestReloadThroughASharedWatcher(t *testing.T) {
	pw := project.NewWatcher("", project.WatchOptions{})
	t.Cleanup(pw.Close)
	if pw.Err() != nil {
		t.Skip("no file watches here:", pw.Err())
	}
	h := newHarness(t, 60, 8, WithWatcher(pw))
	p := h.write("sub/log.txt", "one\n")
	h.open("sub/log.txt", 0)
	h.draw()
	if got := pw.Dirs(); len(got) != 1 || got[0] != filepath.Dir(h.tabs.current().path) {
		t.Fatalf("the shared watcher watches %q; want the open file's directory", got)
	}
	h.write("sub/log.txt", "one\ntwo\n")
	h.waitFor("the silent reload", func() bool { return strings.Contains(h.text(), "  2 two") })
	h.ctrl('w')
	if got := pw.Dirs(); len(got) != 0 {
		t.Fatalf("closing %s left the watcher watching %q", p, got)
	}
}

// When the watcher's events were lost (the kernel's queue overflowed), the
// editor reads its open files in that directory again.
func TestReloadAfterLostEvents(t *testing.T) {
	pw := project.NewWatcher("", project.WatchOptions{})
	t.Cleanup(pw.Close)
	if pw.Err() != nil {
		t.Skip("no file watches here:", pw.Err())
	}
	h := newHarness(t, 60, 8, WithWatcher(pw))
	h.write("sub/log.txt", "one\n")
	h.open("sub/log.txt", 0)
	h.draw()
	dir := filepath.Dir(h.tabs.current().path)
	// The directory unwatched, a write goes unseen, as in an overflow.
	h.tabs.watch.sub.Remove(dir)
	h.write("sub/log.txt", "one\ntwo\n")
	h.tabs.watch.event(project.Event{Path: dir, Op: project.Lost})
	h.waitFor("the reload after lost events", func() bool { return strings.Contains(h.text(), "  2 two") })
}

func TestReloadWhenChangedOnDisk(t *testing.T) {
	h := newHarness(t, 60, 8)
	h.write("log.txt", "one\n")
	h.open("log.txt", 0)
	h.draw()
	h.write("log.txt", "one\ntwo\n")
	h.waitFor("the silent reload", func() bool { return strings.Contains(h.text(), "  2 two") })
	if h.tabs.current().prompt != nil {
		t.Fatal("an unmodified file asked before reloading")
	}
	// With unsaved changes the user is asked.
	h.typeText("mine ")
	h.write("log.txt", "one\ntwo\nthree\n")
	h.waitFor("the question", func() bool { return h.tabs.current().prompt != nil })
	if !strings.Contains(h.row(6), "changed on disk, and you have unsaved changes") || !strings.Contains(h.row(7), "[k] keep mine") {
		t.Fatalf("prompt: %q / %q", h.row(6), h.row(7))
	}
	h.typeText("d")
	h.draw()
	if !strings.Contains(h.text(), "three") || h.tabs.current().diff == nil {
		t.Fatalf("show diff did not show the disk version:\n%s", h.text())
	}
	h.typeText("r")
	if got := string(h.tabs.current().buf.Bytes()); got != "one\ntwo\nthree\n" {
		t.Fatalf("reload gave %q", got)
	}
}

func TestUndoRedoRoundTripByteExact(t *testing.T) {
	h := newHarness(t, 60, 12)
	orig := bom + "package main\r\n\r\nfunc main() {\r\n\tprintln(\"héllo 世界\")\r\n}" // no final newline
	h.write("main.go", orig)
	h.open("main.go", 4)
	// A mix of edits through the keys: typing, Enter with indent, deleting,
	// a selection replaced, indenting, a paste.
	h.key(tcell.KeyEnd, 0, 0)
	h.typeText("\nprintln(1)")
	h.key(tcell.KeyBackspace2, 0, 0)
	h.typeText("2)")
	h.key(tcell.KeyHome, 0, 0)
	h.key(tcell.KeyRight, 0, tcell.ModShift|tcell.ModCtrl)
	h.typeText("print")
	h.key(tcell.KeyUp, 0, tcell.ModShift)
	h.key(tcell.KeyTab, 0, 0)
	h.key(tcell.KeyDelete, 0, 0)
	h.tabs.Paste("x := 1\r\ny := 2\n")
	h.key(tcell.KeyEnd, 0, tcell.ModCtrl)
	h.typeText("\n// end")
	edited := string(h.tabs.current().buf.Bytes())
	if edited == orig {
		t.Fatal("the edits changed nothing")
	}
	for i := 0; i < 100 && h.tabs.current().buf.Modified(); i++ {
		h.ctrl('z')
	}
	h.ctrl('s')
	if got := h.read("main.go"); got != orig {
		t.Fatalf("after undoing everything and saving:\n%q\nwant\n%q", got, orig)
	}
	for i := 0; i < 100; i++ {
		h.ctrl('y')
	}
	h.ctrl('s')
	if got := h.read("main.go"); got != edited {
		t.Fatalf("after redoing everything and saving:\n%q\nwant\n%q", got, edited)
	}
	if !strings.HasPrefix(edited, bom) || strings.Count(edited, "\n") != strings.Count(edited, "\r\n") ||
		!strings.Contains(edited, "\t\tprint") || !strings.HasSuffix(edited, "// end") {
		t.Fatalf("edits did not keep the BOM, CRLF, indentation or the missing final newline: %q", edited)
	}
}

func TestSaveKeepsModeAndIsAtomic(t *testing.T) {
	h := newHarness(t, 60, 8)
	p := h.write("run.sh", "#!/bin/sh\necho hi\n")
	if err := os.Chmod(p, 0o751); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(h.root, "link.sh")
	if err := os.Symlink("run.sh", link); err != nil {
		t.Fatal(err)
	}
	h.open("link.sh", 2)
	h.key(tcell.KeyEnd, 0, 0)
	h.typeText(" there")
	h.ctrl('s')
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o751 {
		t.Fatalf("mode after save = %v, want 0751", info.Mode().Perm())
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("saving through a symlink replaced the link")
	}
	if got := h.read("run.sh"); got != "#!/bin/sh\necho hi there\n" {
		t.Fatalf("saved %q", got)
	}
	entries, _ := os.ReadDir(h.root)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".fawn-") {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestSaveNeverFollowsALinkOutOfTheProject(t *testing.T) {
	h := newHarness(t, 80, 6)
	p := h.write("a.txt", "text\n")
	h.open("a.txt", 0)
	// The file is swapped for a link to a lookalike outside the project.
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, p); err != nil {
		t.Fatal(err)
	}
	h.typeText("more ")
	h.ctrl('s')
	h.draw()
	if got, _ := os.ReadFile(victim); string(got) != "text\n" {
		t.Fatalf("saving wrote %q to a file outside the project", got)
	}
	if !strings.Contains(h.row(5), "could not save a.txt") || !h.tabs.current().buf.Modified() {
		t.Fatalf("status: %q", h.row(5))
	}
}

func TestSaveErrorLosesNothing(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root can write anywhere; this test needs a directory it cannot write")
	}
	h := newHarness(t, 80, 6)
	p := h.write("ro/file.txt", "text\n")
	os.Chmod(p, 0o444)
	os.Chmod(filepath.Dir(p), 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Dir(p), 0o755) })
	h.open("ro/file.txt", 0)
	h.typeText("more ")
	h.ctrl('s')
	h.draw()
	if !strings.Contains(h.row(5), "could not save ro/file.txt") || !h.tabs.current().buf.Modified() {
		t.Fatalf("status: %q", h.row(5))
	}
}

func TestCloseUnsavedAsks(t *testing.T) {
	h := newHarness(t, 80, 6)
	h.write("a.txt", "a\n")
	h.write("b.txt", "b\n")
	h.open("a.txt", 0)
	h.open("b.txt", 0)
	h.typeText("edit ")
	h.ctrl('w')
	h.draw()
	if len(h.tabs.tabs) != 2 || !strings.Contains(h.row(4), "b.txt has unsaved changes") {
		t.Fatalf("closing an unsaved tab did not ask: %q", h.row(4))
	}
	h.key(tcell.KeyEscape, 0, 0)
	if len(h.tabs.tabs) != 2 {
		t.Fatal("Esc closed the tab")
	}
	h.ctrl('w')
	h.typeText("s")
	if len(h.tabs.tabs) != 1 || h.read("b.txt") != "edit b\n" {
		t.Fatalf("save and close: %d tabs, disk %q", len(h.tabs.tabs), h.read("b.txt"))
	}
	h.typeText("x")
	h.ctrl('w')
	h.typeText("d")
	if h.read("a.txt") != "a\n" || !h.tabs.current().welcome {
		t.Fatal("discard and close did not discard")
	}
}

func TestLargeFileOpensReadOnly(t *testing.T) {
	h := newHarness(t, 72, 6, WithMaxFileSize(1000))
	h.write("big.log", strings.Repeat("a log line that goes on\n", 100))
	h.open("big.log", 0)
	h.draw()
	if !h.tabs.current().readOnly || !strings.Contains(h.row(5), "read-only: a 2.3 KiB file, first 984 bytes shown") {
		t.Fatalf("status: %q", h.row(5))
	}
	h.typeText("x")
	h.draw()
	if strings.Contains(h.text(), "xa log") {
		t.Fatal("a read-only file took a key")
	}
	// It grows on disk: the tab says it is out of date rather than read
	// the whole file again on every change.
	f, err := os.OpenFile(filepath.Join(h.root, "big.log"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("one more line\n")
	f.Close()
	h.waitFor("the out-of-date notice", func() bool { return strings.Contains(h.tabs.current().notice, "changed on disk since") })
	// An agent's edit that makes a file too large opens it read-only too.
	h.agentEdit("gen.txt", "", strings.Repeat("generated\n", 200), "create")
	if tb := h.tabs.current(); tb.title != "gen.txt" || !tb.readOnly {
		t.Fatalf("tab %q read-only=%v, want gen.txt read-only", tb.title, tb.readOnly)
	}
}

func TestBinaryFileShowsNotice(t *testing.T) {
	h := newHarness(t, 60, 8)
	h.write("img.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")
	h.open("img.png", 0)
	h.draw()
	h.golden("binary_notice")
}

func TestOpenMissingFileErrors(t *testing.T) {
	h := newHarness(t, 60, 8)
	err := h.tabs.Open("nope.go", 3)
	if err == nil || err.Error() != "cannot open nope.go: no such file or directory" {
		t.Fatalf("err = %v", err)
	}
	if len(h.tabs.tabs) != 1 {
		t.Fatal("a failed open left a tab")
	}
	os.Mkdir(filepath.Join(h.root, "dir"), 0o755)
	if err := h.tabs.Open("dir", 0); err == nil || err.Error() != "cannot open dir: it is a directory" {
		t.Fatalf("opening a directory: %v", err)
	}
}

func TestFindIncremental(t *testing.T) {
	h := newHarness(t, 60, 10)
	h.write("f.txt", "alpha\nbeta\nAlphabet\ngamma alpha\n")
	h.open("f.txt", 0)
	h.ctrl('f')
	h.typeText("alp")
	v := h.tabs.current().view
	if from, _, _ := v.Selection(); from != (Pos{0, 0}) {
		t.Fatalf("first match at %v", from)
	}
	h.typeText("hab") // narrows to "alphab": only line 3 (smart case)
	if from, _, _ := v.Selection(); from != (Pos{2, 0}) {
		t.Fatalf("incremental match at %v, want line 3", from)
	}
	h.draw()
	if !strings.Contains(h.row(9), "1 match") {
		t.Fatalf("status: %q", h.row(9))
	}
	h.key(tcell.KeyBackspace2, 0, 0)
	h.key(tcell.KeyBackspace2, 0, 0)
	h.key(tcell.KeyBackspace2, 0, 0)
	h.key(tcell.KeyF3, 0, 0) // next after line 1
	if from, _, _ := v.Selection(); from != (Pos{2, 0}) {
		t.Fatalf("F3 went to %v", from)
	}
	h.key(tcell.KeyF3, 0, 0)
	if from, _, _ := v.Selection(); from != (Pos{3, 6}) {
		t.Fatalf("F3 went to %v", from)
	}
	h.key(tcell.KeyF3, 0, 0) // wraps around
	if from, _, _ := v.Selection(); from != (Pos{0, 0}) {
		t.Fatalf("F3 did not wrap: %v", from)
	}
	h.key(tcell.KeyF3, 0, tcell.ModShift)
	if from, _, _ := v.Selection(); from != (Pos{3, 6}) {
		t.Fatalf("Shift-F3 went to %v", from)
	}
	h.typeText("zzz")
	h.draw()
	if !strings.Contains(h.row(9), "no match") {
		t.Fatalf("status: %q", h.row(9))
	}
	h.key(tcell.KeyEscape, 0, 0)
	if h.tabs.current().prompt != nil {
		t.Fatal("Esc left the find open")
	}
}

func TestGotoLine(t *testing.T) {
	h := newHarness(t, 60, 10)
	var sb strings.Builder
	for i := 1; i <= 200; i++ {
		sb.WriteString("line\tnumber\n")
	}
	h.write("f.txt", sb.String())
	h.open("f.txt", 0)
	h.ctrl('g')
	h.typeText("150:9")
	h.key(tcell.KeyEnter, 0, 0)
	h.draw()
	v := h.tabs.current().view
	if v.Cursor() != (Pos{149, 5}) {
		t.Fatalf("cursor %v, want line 150 screen column 9 (after the tab)", v.Cursor())
	}
	if v.Top() > 149 || v.Top()+8 <= 149 {
		t.Fatalf("line 150 not in view (top %d)", v.Top())
	}
}

func TestCopyCutPasteAndOSC52(t *testing.T) {
	h := newHarness(t, 60, 8)
	h.write("f.txt", "one two\nthree\n")
	h.open("f.txt", 0)
	h.draw() // the clipboard needs to know the screen
	h.key(tcell.KeyRight, 0, tcell.ModShift|tcell.ModCtrl)
	h.ctrl('c')
	if got := string(h.screen.GetClipboardData()); got != "one" {
		t.Fatalf("OSC 52 clipboard = %q", got)
	}
	h.key(tcell.KeyDown, 0, 0)
	h.key(tcell.KeyEnd, 0, 0)
	h.ctrl('v')
	h.ctrl('x') // no selection: cuts the line
	if got := string(h.tabs.current().buf.Bytes()); got != "one two\n" {
		t.Fatalf("after paste and cut: %q", got)
	}
	h.key(tcell.KeyHome, 0, tcell.ModCtrl)
	h.ctrl('v')
	if got := string(h.tabs.current().buf.Bytes()); got != "threeone\none two\n" {
		t.Fatalf("after pasting the cut line: %q", got)
	}
}

func TestFinderOpensFilesAndHonoursGitignore(t *testing.T) {
	h := newHarness(t, 70, 14)
	h.write(".gitignore", "build/\n")
	h.write("ui/editor/tabs.go", "package editor\n")
	h.write("ui/editor/view.go", "package editor\n")
	h.write("tools/text_editor.go", "package tools\n")
	h.write("build/tabs.go", "package ignored\n")
	h.ctrl('p')
	h.waitFor("the file list", func() bool { return h.tabs.finder != nil && !h.tabs.finder.loading })
	h.typeText("tbs")
	h.draw()
	f := h.tabs.finder
	if len(f.matches) == 0 || f.matches[0].path != "ui/editor/tabs.go" {
		t.Fatalf("matches for tbs: %+v", f.matches)
	}
	for _, m := range f.matches {
		if strings.HasPrefix(m.path, "build/") {
			t.Fatalf("ignored file listed: %s", m.path)
		}
	}
	h.golden("finder")
	h.key(tcell.KeyEnter, 0, 0)
	if h.tabs.finder != nil || h.tabs.current().title != "tabs.go" {
		t.Fatalf("Enter did not open the file (tab %q)", h.tabs.current().title)
	}
}

func TestFuzzyScorePrefersFileNames(t *testing.T) {
	paths := []string{"views/x/thing.go", "ui/editor/view.go", "internal/review_tool.go"}
	best, bestScore := "", -1<<31
	for _, p := range paths {
		if s, _, ok := fuzzyScore(p, "view"); ok && s > bestScore {
			best, bestScore = p, s
		}
	}
	if best != "ui/editor/view.go" {
		t.Fatalf("best match for view: %s", best)
	}
	if _, _, ok := fuzzyScore("a/b.go", "xyz"); ok {
		t.Fatal("a non-match matched")
	}
}

func TestWideCharactersTabsAndControlCharacters(t *testing.T) {
	h := newHarness(t, 40, 8)
	h.write("w.txt", "a\tb\tc\n世界\tx\n\x1b[0m\r\ne\u0301 ok\n")
	h.open("w.txt", 2)
	h.key(tcell.KeyEnd, 0, 0)
	h.draw()
	h.golden("wide_and_tabs")
}

func TestHorizontalScrollAndSoftWrap(t *testing.T) {
	h := newHarness(t, 30, 8)
	long := "start " + strings.Repeat("word ", 12) + "end"
	h.write("long.txt", long+"\nshort\n")
	h.open("long.txt", 1)
	h.key(tcell.KeyEnd, 0, 0)
	h.draw()
	if !strings.Contains(h.row(1), "end") || strings.Contains(h.row(1), "start") {
		t.Fatalf("the view did not scroll right to the cursor: %q", h.row(1))
	}
	h.alt('w')
	h.draw()
	h.golden("soft_wrap")
	// Down from the last row of the wrapped line goes to the next line.
	h.key(tcell.KeyDown, 0, 0)
	if c := h.tabs.current().view.Cursor(); c.Line != 1 {
		t.Fatalf("down from the wrapped line's last row: %v", c)
	}
	h.key(tcell.KeyUp, 0, 0)
	h.key(tcell.KeyUp, 0, 0)
	if c := h.tabs.current().view.Cursor(); c.Line != 0 || c.Col == len(long) {
		t.Fatalf("up moved to %v, want a row of line 1 above its end", c)
	}
}

func TestWelcomeFollowsKeyOverrides(t *testing.T) {
	h := newHarness(t, 60, 20)
	if _, err := h.tabs.Keys().Override(map[string][]string{"editor.finder": {"ctrl+o"}}); err != nil {
		t.Fatal(err)
	}
	h.draw()
	if !strings.Contains(h.text(), "Ctrl-O      open a project file") {
		t.Fatalf("Welcome does not show the overridden key:\n%s", h.text())
	}
	h.ctrl('o')
	if h.tabs.finder == nil {
		t.Fatal("the overridden key does not open the finder")
	}
	h.key(tcell.KeyEscape, 0, 0)
}

// mouse sends one mouse event through the Tabs' handler, as the app does.
func (h *harness) mouse(action tview.MouseAction, x, y int, buttons tcell.ButtonMask) {
	ev := tcell.NewEventMouse(x, y, buttons, tcell.ModNone)
	h.tabs.MouseHandler()(action, ev, func(tview.Primitive) {})
}

func TestMouseClickDragScrollAndTabStrip(t *testing.T) {
	h := newHarness(t, 60, 12)
	var sb strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&sb, "line %d of the file\n", i)
	}
	h.write("a.txt", sb.String())
	h.write("b.txt", "bee\n")
	h.open("a.txt", 0)
	h.open("b.txt", 0)
	h.draw()
	// Click the first tab's title.
	h.mouse(tview.MouseLeftDown, 2, 0, tcell.Button1)
	h.mouse(tview.MouseLeftUp, 2, 0, 0)
	if h.tabs.current().title != "a.txt" {
		t.Fatalf("clicking the first tab gave %q", h.tabs.current().title)
	}
	h.draw()
	// Click row 3 (line 3), column 5 of the text (gutter is 5 wide), drag to line 4.
	h.mouse(tview.MouseLeftDown, 10, 3, tcell.Button1)
	h.mouse(tview.MouseMove, 12, 4, tcell.Button1)
	h.mouse(tview.MouseLeftUp, 12, 4, 0)
	v := h.tabs.current().view
	from, to, ok := v.Selection()
	if !ok || from != (Pos{2, 5}) || to != (Pos{3, 7}) {
		t.Fatalf("drag selected %v..%v (%v), want {2 5}..{3 7}", from, to, ok)
	}
	// The wheel scrolls without moving the cursor.
	h.mouse(tview.MouseScrollDown, 10, 5, 0)
	h.mouse(tview.MouseScrollDown, 10, 5, 0)
	h.draw()
	if v.Top() != 6 || v.Cursor() != (Pos{3, 7}) {
		t.Fatalf("after two wheel steps top = %d, cursor %v", v.Top(), v.Cursor())
	}
	// Double-click selects a word.
	h.mouse(tview.MouseLeftDoubleClick, 7, 1, 0)
	if from, to, _ := v.Selection(); v.buf.Text(from, to) != "line" {
		t.Fatalf("double-click selected %q", v.buf.Text(from, to))
	}
}

func TestLightThemeHighlightsWithItsStyle(t *testing.T) {
	dark := newHarness(t, 40, 5)
	dark.write("a.go", "package a\n")
	dark.open("a.go", 1)
	dark.highlighted()
	s := tcell.NewSimulationScreen("UTF-8")
	s.Init()
	s.SetSize(40, 5)
	light := New(dark.root, theme.Get("light"), nil)
	defer light.Close()
	light.SetRect(0, 0, 40, 5)
	if err := light.Open("a.go", 1); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !light.current().view.highlighted() && time.Now().Before(deadline) {
		light.Draw(s)
		time.Sleep(10 * time.Millisecond)
	}
	light.Draw(s)
	s.Show()
	_, ds, _ := dark.screen.Get(5, 1) // "package", a keyword
	_, ls, _ := s.Get(5, 1)
	dfg, _, _ := ds.Decompose()
	lfg, _, _ := ls.Decompose()
	if dfg == lfg {
		t.Fatalf("the keyword has the same colour %v in both themes", dfg)
	}
}

func TestUnsavedAndSaveAll(t *testing.T) {
	h := newHarness(t, 60, 8)
	h.write("a.txt", "a\n")
	h.write("b.txt", "b\n")
	h.write("c.txt", "c\n")
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		h.open(f, 0)
		if f != "b.txt" {
			h.typeText("x")
		}
	}
	if got := strings.Join(h.tabs.Unsaved(), " "); got != "a.txt c.txt" {
		t.Fatalf("Unsaved = %q", got)
	}
	h.write("c.txt", "changed elsewhere\n") // a conflict SaveAll must not overwrite
	err := h.tabs.SaveAll()
	if err == nil || !strings.Contains(err.Error(), "c.txt changed on disk") {
		t.Fatalf("SaveAll = %v, want the conflict on c.txt", err)
	}
	if h.read("a.txt") != "xa\n" || h.read("c.txt") != "changed elsewhere\n" {
		t.Fatalf("after SaveAll: a=%q c=%q", h.read("a.txt"), h.read("c.txt"))
	}
	if got := strings.Join(h.tabs.Unsaved(), " "); got != "c.txt" {
		t.Fatalf("Unsaved after SaveAll = %q", got)
	}
}

func TestAgentEditScrollsToTheChangeAndFailedViewsShowNothing(t *testing.T) {
	h := newHarness(t, 60, 12)
	var sb strings.Builder
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(&sb, "line %d\n", i)
	}
	before := sb.String()
	after := strings.Replace(before, "line 420\n", "line 420, edited\n", 1)
	h.write("long.txt", before)
	h.open("long.txt", 1)
	h.agentEdit("long.txt", before, after, "str_replace")
	h.draw()
	if !strings.Contains(h.text(), "~420 line 420, edited") {
		t.Fatalf("the changed line is not in view:\n%s", h.text())
	}
	// A view of a file that does not exist (the tool failed) opens nothing.
	h.tabs.AgentViewed(tools.FileViewed{Path: filepath.Join(h.root, "missing.go"), Start: 1, End: -1})
	if len(h.tabs.tabs) != 1 {
		t.Fatalf("a failed view opened a tab: %d tabs", len(h.tabs.tabs))
	}
}

// An agent that writes the file itself: the watcher reloads the tab a
// moment before the agent's edit is reported, and the status line then
// says it was the agent's edit, not a change on disk.
func TestAgentEditAfterTheWatcherReloadSaysSo(t *testing.T) {
	h := newHarness(t, 100, 8)
	h.write("a.txt", "one\nhello, wrld\n")
	h.open("a.txt", 1)
	p := h.write("a.txt", "one\nhello, world\n")
	tb := h.tabs.find(h.tabs.canon(p))
	h.tabs.diskChanged(tb, h.tabs.fp.of([]byte("one\nhello, world\n")), []byte("one\nhello, world\n"))
	h.draw()
	if !strings.Contains(h.text(), "changed on disk") {
		t.Fatalf("the reload is not said:\n%s", h.text())
	}
	h.tabs.AgentChanged(tools.FileChanged{Path: p, Before: []byte("one\nhello, wrld\n"), After: []byte("one\nhello, world\n"), Command: "str_replace"})
	h.draw()
	if !strings.Contains(h.text(), "agent edit") || strings.Contains(h.text(), "changed on disk") {
		t.Errorf("the status does not say it was the agent's edit:\n%s", h.text())
	}
}
