package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/ui/panes"
)

// The user's bindings reach the tables the App holds beside its own —
// the Changes list's, the explorer's questions', the chat's vim <Esc>,
// a plan's answers — and the help lists those contexts with the keys as
// bound.
func TestKeyOverridesReachEveryContext(t *testing.T) {
	cfg := &config.Config{DataDir: t.TempDir()}
	cfg.UI.Keys = map[string][]string{
		"changes.down":        {"ctrl+n"},
		"explorer.answer_yes": {"j"},
		"chat.vim_normal":     {"ctrl+]"},
		"plan.approve_ask":    {"o"},
	}
	cfg.Chat.Keys = "vim"
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := startApp(t, Options{Agent: newScriptAgent(), Config: cfg, Root: root}, 120, 30)
	r.sync()
	if s := r.text(); strings.Contains(s, "unknown action") {
		t.Fatalf("a new action is unknown to the App:\n%s", s)
	}
	r.onUI(func() {
		help := linesText(r.app.help.Lines(120))
		for _, want := range []string{"Changes", "Ctrl-N", "Explorer: delete or replace", "Chat: vim keys", "Ctrl-]", "To-dos"} {
			if !strings.Contains(help, want) {
				t.Errorf("the help lacks %q:\n%s", want, help)
			}
		}
		r.app.task.changes.SetRows([]panes.ChangeRow{{Path: "a.txt", Counted: true}, {Path: "b.txt", Counted: true}})
	})
	r.key(tcell.KeyRune, 'c', tcell.ModAlt) // the chat input, in insert mode
	r.key(tcell.KeyRune, ']', tcell.ModCtrl)
	r.waitScreen(" NORMAL ")
	r.key(tcell.KeyRune, 'g', tcell.ModAlt) // the Changes list
	r.key(tcell.KeyDown, 0, 0)
	r.onUI(func() {
		if got := r.app.task.changes.Selected(); got != "a.txt" {
			t.Errorf("Down moved to %q after changes.down was bound to Ctrl-N", got)
		}
	})
	r.key(tcell.KeyCtrlN, 0, tcell.ModCtrl)
	r.onUI(func() {
		if got := r.app.task.changes.Selected(); got != "b.txt" {
			t.Errorf("Ctrl-N selected %q; want b.txt", got)
		}
	})
	r.key(tcell.KeyRune, 'x', tcell.ModAlt) // the explorer
	r.waitScreen("a.txt")
	r.key(tcell.KeyRune, 'd', 0)
	r.waitScreen("delete a.txt? j/n")
	r.key(tcell.KeyRune, 'n', 0)
	r.onUI(func() {
		r.app.task.dialog.Push(agent.PermissionRequest{ID: "p1", Plan: "1. do it"})
	})
	r.waitScreen("o approve, ask before edits")
}

// The completion list steps back by chat.complete_prev, Shift-Tab by
// default: rebound, Shift-Tab no longer steps back and the new key does.
func TestCompletePrevIsRebindable(t *testing.T) {
	cfg := &config.Config{DataDir: t.TempDir()}
	cfg.UI.Keys = map[string][]string{"chat.complete_prev": {"ctrl+o"}}
	r := startApp(t, Options{Agent: newScriptAgent(), Config: cfg}, 120, 30)
	r.typeText("/mo")
	r.waitScreen("/model")
	r.key(tcell.KeyTab, 0, 0)
	r.key(tcell.KeyTab, 0, 0) // "/model"
	r.key(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "/mode" {
			t.Errorf("Ctrl-O gave %q", got)
		}
	})
	r.key(tcell.KeyBacktab, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "/mode" {
			t.Errorf("Shift-Tab still steps back after chat.complete_prev was bound to Ctrl-O: %q", got)
		}
	})
}

// The edit box (/commit's message) takes its keys from edit_box.* as the
// user binds them, and its foot shows them as bound.
func TestEditBoxKeysAreRebindable(t *testing.T) {
	cfg := &config.Config{DataDir: t.TempDir()}
	cfg.UI.Keys = map[string][]string{"edit_box.done": {"ctrl+s"}}
	r := startApp(t, Options{Agent: newScriptAgent(), Config: cfg, Root: t.TempDir()}, 120, 30)
	got := make(chan string, 1)
	r.onUI(func() { r.app.ask.Edit("Commit message", "fix", "", func(s string) { got <- s }) })
	r.waitScreen("Ctrl-S ok")
	r.key(tcell.KeyEnter, 0, 0) // no longer done: a new line in the text
	r.typeText("body")
	r.key(tcell.KeyCtrlS, 0, tcell.ModCtrl)
	select {
	case s := <-got:
		if s != "fix\nbody" {
			t.Errorf("the box gave %q, want the text with Enter's new line", s)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("Ctrl-S did not take the text:\n%s", r.text())
	}
}
