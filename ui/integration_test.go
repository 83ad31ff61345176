package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/theme"
)

// realParts builds the real agent on the offline demo model with the real
// text_editor tool, and the real editor tabs, on a project in a temp dir.
func realParts(t *testing.T, files map[string]string) (*agent.Session, *editor.Tabs, *keymap.Table, *config.Config, string) {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{DataDir: t.TempDir(), ConfigDir: t.TempDir()}
	cfg.Models.Chat.Type = "demo"
	cfg.Permissions.Mode = "ask"
	s, err := agent.NewSession(context.Background(), agent.Options{
		Config: cfg, Env: env, Tools: []tools.Tool{tools.NewTextEditor(env)}, Interactive: true, DemoChunkDelay: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	keys := editor.DefaultKeys()
	tabs := editor.New(env.Root, theme.Get(""), keys)
	t.Cleanup(tabs.Close)
	env.Guard = tabs
	return s, tabs, keys, cfg, env.Root
}

func TestWithTheRealAgentAndEditor(t *testing.T) {
	readme := "# Sample project\n\nThis README is what the demo opens.\n"
	sess, tabs, keys, cfg, root := realParts(t, map[string]string{"README.md": readme, "main.go": "package main\n"})
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Editor: tabs, Keys: []*keymap.Table{keys}, Config: cfg, Root: root}, 140, 40)
	tabs.SetRedraw(r.app.RequestDraw)

	r.typeText("show me around")
	r.key(tcell.KeyEnter, 0, 0)
	// The demo views the README: a card in the chat, the file in an editor tab.
	r.waitScreen("This README is what the demo opens.")
	r.waitScreen("demo/fawn-demo")
	r.waitTurnEnded()
	r.onUI(func() {
		var found bool
		for i := 0; i < r.app.task.list.Len(); i++ {
			if c, ok := r.app.task.list.Item(i).(*chat.Card); ok && strings.HasPrefix(c.Summary(r.app.rctx), "View README.md") {
				found = c.Status == chat.StatusDone
			}
		}
		if !found {
			t.Errorf("no finished card for the README view:\n%s", screenText(r.screen))
		}
	})
	// The help overlay lists the editor's keys next to fawn's own.
	r.key(tcell.KeyF1, 0, 0)
	r.waitScreen("Quit fawn")
	r.onUI(func() {
		if help := linesText(r.app.help.Lines(90)); !strings.Contains(help, "Save the file") {
			t.Errorf("the help lacks the editor's keys:\n%s", help)
		}
	})
	r.key(tcell.KeyEscape, 0, 0)
}

func TestQuitAsksAboutUnsavedFiles(t *testing.T) {
	sess, tabs, keys, cfg, root := realParts(t, map[string]string{"a.txt": "hello\n"})
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Editor: tabs, Keys: []*keymap.Table{keys}, Config: cfg, Root: root}, 140, 40)
	tabs.SetRedraw(r.app.RequestDraw)
	r.onUI(func() {
		if err := tabs.Open(filepath.Join(root, "a.txt"), 1); err != nil {
			t.Fatal(err)
		}
		r.app.focusOn(panes.Editor)
	})
	r.typeText("X")
	r.screen.InjectKey(tcell.KeyCtrlQ, 0, tcell.ModCtrl)
	r.waitScreen("1 file has unsaved changes: a.txt")
	r.key(tcell.KeyEscape, 0, 0)
	if strings.Contains(r.text(), "unsaved changes: a.txt") {
		t.Fatal("Esc did not close the question")
	}
	r.screen.InjectKey(tcell.KeyCtrlQ, 0, tcell.ModCtrl)
	r.waitScreen("save all and quit")
	r.screen.InjectKey(tcell.KeyRune, 's', 0)
	if err := <-r.done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	r.done <- nil
	got, _ := os.ReadFile(filepath.Join(root, "a.txt"))
	if string(got) != "Xhello\n" {
		t.Errorf("saved %q", got)
	}
}
