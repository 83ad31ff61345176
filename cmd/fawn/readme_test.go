package main

import (
	"os"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/termview"
)

// The README's key table must stay true: every key it names for an action
// is bound to that action, and every global binding is in it.
func TestREADMEKeysAreTrue(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	checks := []struct {
		table   *keymap.Table
		action  keymap.Action
		listAll bool
	}{
		{ui.GlobalKeys(), "", true},
		{chat.ChatKeys(), "chat.send", false},
		{chat.ChatKeys(), "chat.newline", false},
		{chat.ChatKeys(), "chat.cancel", false},
		{chat.ChatKeys(), "chat.interrupt", false},
		{dialogs.DialogKeys(), "permission.allow_session", false},
		{dialogs.DialogKeys(), "permission.deny_note", false},
		{editor.DefaultKeys(), "editor.save", false},
		{editor.DefaultKeys(), "editor.finder", false},
		{editor.DefaultKeys(), "editor.diff", false},
		{editor.DefaultKeys(), "editor.wrap", false},
		{termview.DefaultKeys(), "terminal.scroll_up", false},
		{chat.ChatKeys(), "chat.open_file", false},
		{chat.MessageKeys(), "messages.copy_code", false},
		{explorer.DefaultKeys(), "explorer.refresh", false},
	}
	for _, c := range checks {
		for _, b := range c.table.Bindings {
			if b.Hidden || (!c.listAll && b.Action != c.action) {
				continue
			}
			for _, k := range b.Keys {
				if d := keymap.Display(k); !strings.Contains(readme, d) {
					t.Errorf("README.md does not mention %s (%s: %s)", d, b.Action, b.Help)
				}
			}
		}
	}
}
