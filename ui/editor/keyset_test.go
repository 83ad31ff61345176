package editor

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// rebind applies the user's bindings to t as the app does.
func rebind(t *testing.T, tb *keymap.Table, over map[string][]string) {
	t.Helper()
	if unknown, err := tb.Override(over); err != nil || len(unknown) > 0 {
		t.Fatalf("override %v: unknown %v, %v", over, unknown, err)
	}
}

// The find bar's and go to line's own keys (Enter, Esc, Ctrl-U) are the
// prompt table's: rebound, the new keys act and the old ones do not.
func TestFindBarKeysAreRebindable(t *testing.T) {
	ks := DefaultKeySet()
	rebind(t, ks.Prompt, map[string][]string{
		"editor.promptCancel": {"ctrl+e"},
		"editor.promptClear":  {"ctrl+l"},
		"editor.promptSubmit": {"ctrl+o"},
	})
	h := newHarness(t, 60, 10, WithKeySet(ks))
	h.write("f.txt", "alpha\nbeta\ngamma\n")
	h.open("f.txt", 0)
	h.ctrl('f')
	h.typeText("gam")
	h.key(tcell.KeyEscape, 0, 0)
	p := h.tabs.current().prompt
	if p == nil {
		t.Fatal("Esc closed the find bar after promptCancel was bound to Ctrl-E")
	}
	h.ctrl('u')
	if p.input != "gam" {
		t.Fatalf("Ctrl-U cleared the find bar after promptClear was bound to Ctrl-L: %q", p.input)
	}
	h.ctrl('l')
	if p.input != "" {
		t.Fatalf("Ctrl-L did not clear the find bar: %q", p.input)
	}
	h.ctrl('e')
	if h.tabs.current().prompt != nil {
		t.Fatal("Ctrl-E did not close the find bar")
	}
	h.ctrl('g')
	h.typeText("3")
	h.key(tcell.KeyEnter, 0, 0)
	if h.tabs.current().prompt == nil {
		t.Fatal("Enter still goes to the line after promptSubmit was bound to Ctrl-O")
	}
	h.ctrl('o')
	if h.tabs.current().prompt != nil || h.cursorLine() != 2 {
		t.Fatalf("Ctrl-O did not go to line 3: prompt open %v, line %d", h.tabs.current().prompt != nil, h.cursorLine()+1)
	}
}

// Closing a tab with unsaved changes: the answers are the Close table's.
func TestCloseQuestionKeysAreRebindable(t *testing.T) {
	ks := DefaultKeySet()
	rebind(t, ks.Close, map[string][]string{"editor.closeDiscard": {"x"}})
	h := newHarness(t, 80, 6, WithKeySet(ks))
	h.write("a.txt", "a\n")
	h.open("a.txt", 0)
	h.typeText("edit ")
	h.ctrl('w')
	h.typeText("d")
	if len(h.tabs.tabs) != 1 || h.tabs.current().prompt == nil {
		t.Fatal("d still discards after closeDiscard was bound to x")
	}
	h.draw()
	if !strings.Contains(h.text(), "[x] discard them and close") {
		t.Fatalf("the question does not show the bound key:\n%s", h.text())
	}
	h.typeText("X") // either case, as the default keys
	if h.read("a.txt") != "a\n" || !h.tabs.current().welcome {
		t.Fatal("x did not discard and close")
	}
}

// Saving over a file changed on disk: the answers are the Save table's.
func TestSaveConflictKeysAreRebindable(t *testing.T) {
	ks := DefaultKeySet()
	rebind(t, ks.Save, map[string][]string{"editor.saveOverwrite": {"w"}})
	h := newHarness(t, 72, 10, WithKeySet(ks))
	h.write("cfg.yaml", "a: 1\n")
	h.open("cfg.yaml", 0)
	h.key(tcell.KeyEnd, 0, 0)
	h.typeText("0")
	h.write("cfg.yaml", "a: 2\n")
	h.tabs.box.drain()
	h.tabs.current().prompt = nil
	h.ctrl('s')
	h.typeText("o")
	if got := h.read("cfg.yaml"); got != "a: 2\n" {
		t.Fatalf("o still overwrites after saveOverwrite was bound to w: %q", got)
	}
	h.draw()
	if !strings.Contains(h.text(), "[w] overwrite") {
		t.Fatalf("the question does not show the bound key:\n%s", h.text())
	}
	h.typeText("w")
	if got := h.read("cfg.yaml"); got != "a: 10\n" {
		t.Fatalf("w wrote %q", got)
	}
}

// A file with unsaved changes changed on disk: the Changed table's keys,
// and the prompt table's cancel, which keeps mine here.
func TestChangedOnDiskKeysAreRebindable(t *testing.T) {
	ks := DefaultKeySet()
	rebind(t, ks.Changed, map[string][]string{"editor.changedReload": {"l"}})
	rebind(t, ks.Prompt, map[string][]string{"editor.promptCancel": {"ctrl+e"}})
	h := newHarness(t, 60, 8, WithKeySet(ks))
	h.write("log.txt", "one\n")
	h.open("log.txt", 0)
	h.typeText("mine ")
	h.write("log.txt", "one\ntwo\n")
	h.waitFor("the question", func() bool { return h.tabs.current().prompt != nil })
	if !strings.Contains(h.row(7), "[l] reload") || !strings.Contains(h.row(7), "keep mine (also Ctrl-E)") {
		t.Fatalf("the question does not show the bound keys: %q", h.row(7))
	}
	h.typeText("r")
	h.key(tcell.KeyEscape, 0, 0)
	if h.tabs.current().prompt == nil {
		t.Fatal("r or Esc still answer after the keys were bound elsewhere")
	}
	h.typeText("l")
	if got := string(h.tabs.current().buf.Bytes()); got != "one\ntwo\n" {
		t.Fatalf("l did not reload: %q", got)
	}
}

// The diff view's keys are the Diff table's.
func TestDiffViewKeysAreRebindable(t *testing.T) {
	ks := DefaultKeySet()
	rebind(t, ks.Diff, map[string][]string{"editor.diffClose": {"q"}})
	h := newHarness(t, 80, 12, WithKeySet(ks))
	h.agentEdit("f.txt", "one\n", "one\ntwo\n", "str_replace")
	h.alt('v')
	if h.tabs.current().diff == nil {
		t.Fatal("Alt-V did not show the diff")
	}
	h.draw()
	if !strings.Contains(h.text(), "or q: back") {
		t.Errorf("the diff's status does not name the bound key:\n%s", h.text())
	}
	h.key(tcell.KeyEscape, 0, 0)
	if h.tabs.current().diff == nil {
		t.Fatal("Esc still closes the diff after diffClose was bound to q")
	}
	h.typeText("q")
	if h.tabs.current().diff != nil {
		t.Fatal("q did not close the diff")
	}
}

// The versions view's answers are the Versions table's.
func TestVersionsKeysAreRebindable(t *testing.T) {
	ks := DefaultKeySet()
	rebind(t, ks.Versions, map[string][]string{"editor.versionsOverwrite": {"w"}, "editor.versionsKeep": {"ctrl+e"}})
	h := newHarness(t, 150, 16, WithKeySet(ks))
	h.write("f.txt", "one\n")
	var chose []string
	err := h.tabs.ShowVersions(filepath.Join(h.root, "f.txt"), [3]VersionText{
		{Title: "a", Content: []byte("one\n")}, {Title: "b", Content: []byte("two\n")}, {Title: "c", Content: []byte("one\n")},
	}, []VersionChoice{
		{Action: ActionVersionsOverwrite, Label: "overwrite", Do: func() { chose = append(chose, "overwrite") }},
		{Action: ActionVersionsKeep, Label: "keep", Do: func() { chose = append(chose, "keep") }},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.draw()
	if !strings.Contains(h.text(), "w: overwrite · Ctrl-E: keep") {
		t.Errorf("the status does not name the bound keys:\n%s", h.text())
	}
	h.typeText("o")
	h.key(tcell.KeyEscape, 0, 0)
	if len(chose) != 0 || h.tabs.current().versions == nil {
		t.Fatalf("o or Esc still answer: %v", chose)
	}
	h.typeText("w")
	if strings.Join(chose, ",") != "overwrite" || h.tabs.current().versions != nil {
		t.Fatalf("w chose %v", chose)
	}
}

// With vim keys, vim's <Esc> is the Vim table's key: bound to Ctrl-],
// Esc no longer leaves insert mode and Ctrl-] does.
func TestVimEscapeIsRebindable(t *testing.T) {
	ks := DefaultKeySet()
	rebind(t, ks.Vim, map[string][]string{"editor.vimEscape": {"ctrl+]"}})
	h := newHarness(t, 80, 20, WithVimKeys(), WithKeySet(ks))
	h.write("f.txt", "foo\n")
	h.open("f.txt", 0)
	h.vimKeys("i")
	h.key(tcell.KeyEscape, 0, 0)
	if m := h.tabs.current().view.VimMode(); m != "INSERT" {
		t.Fatalf("Esc left insert mode after vimEscape was bound to Ctrl-]: %s", m)
	}
	h.key(tcell.KeyRune, ']', tcell.ModCtrl)
	if m := h.tabs.current().view.VimMode(); m != "NORMAL" {
		t.Fatalf("Ctrl-] did not leave insert mode: %s", m)
	}
	h.vimKeys("x")
	if got := string(h.tabs.current().buf.Bytes()); got != "oo\n" {
		t.Fatalf("normal mode x gave %q", got)
	}
}
