package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/panes"
)

// Ctrl-P from the chat opens the file finder, as it does in the editor, and
// the file chosen opens in a tab.
func TestCtrlPFromTheChatOpensTheFinder(t *testing.T) {
	sess, tabs, keys, cfg, root := realParts(t, map[string]string{"cmd/server/main.go": "package main\n\nfunc main() {}\n"})
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Editor: tabs, Keys: []*keymap.Table{keys}, Config: cfg, Root: root}, 120, 40)
	tabs.SetRedraw(r.app.RequestDraw)
	r.key(tcell.KeyCtrlP, 0, tcell.ModCtrl)
	r.waitScreen("Open file")
	r.onUI(func() {
		if r.app.focusPane != panes.Editor {
			t.Errorf("the focus is on %v, want the editor", r.app.focusPane)
		}
	})
	r.typeText("srvmain")
	r.waitScreen("cmd/server/main.go")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("func main() {}")
	if s := r.text(); strings.Contains(s, "Open file") {
		t.Errorf("the finder stayed open:\n%s", s)
	}
}
