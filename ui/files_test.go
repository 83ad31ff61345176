package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/panes"
)

// Alt-X shows the file explorer beside the editor; Enter opens a file in a
// tab; the files the agent changes are marked; Alt-X from the explorer
// hides it.
func TestExplorerBesideTheEditor(t *testing.T) {
	sess, tabs, keys, cfg, root := realParts(t, map[string]string{"README.md": "# hello explorer\n", "src/main.go": "package main\n"})
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Editor: tabs, Keys: []*keymap.Table{keys}, Config: cfg, Root: root}, 140, 40)
	tabs.SetRedraw(r.app.RequestDraw)
	r.key(tcell.KeyRune, 'x', tcell.ModAlt)
	r.waitScreen("Files")
	r.waitScreen("▸ src/")
	r.onUI(func() {
		if r.app.focusPane != panes.Explorer {
			t.Errorf("focus on %v", r.app.focusPane)
		}
	})
	// The agent changes a file: it is marked.
	r.onUI(func() {
		r.app.task.router.Handle(agent.Event{Type: agent.EventToolCallStarted, ID: "e", Name: "text_editor"})
		r.app.task.router.Handle(agent.Event{Type: agent.EventToolUpdate, ID: "e", Data: tools.FileChanged{
			Path: filepath.Join(root, "README.md"), Before: []byte("# hello\n"), After: []byte("# hello explorer\n")}})
	})
	r.waitScreen("README.md ✦")
	r.key(tcell.KeyDown, 0, 0) // src/ → README.md
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("# hello explorer")
	r.onUI(func() {
		if r.app.focusPane != panes.Editor {
			t.Errorf("after Enter the focus is on %v, want the editor", r.app.focusPane)
		}
	})
	r.key(tcell.KeyRune, 'x', tcell.ModAlt) // focus it again
	r.key(tcell.KeyRune, 'x', tcell.ModAlt) // hide it
	if s := r.text(); strings.Contains(s, "Files") {
		t.Errorf("the explorer did not hide:\n%s", s)
	}
}
