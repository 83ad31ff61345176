package ui

import (
	"testing"

	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/termview"
)

// The global keys win over every pane's, so a pane key that is also global
// would be dead; the chat's own tables must not collide either.
func TestKeyTablesDoNotCollide(t *testing.T) {
	global := GlobalKeys()
	panes := []*keymap.Table{ChatKeys(), MessageKeys(), editor.DefaultKeys(), termview.DefaultKeys(), explorer.DefaultKeys()}
	seen := map[keymap.Key]string{}
	for _, b := range global.Bindings {
		for _, k := range b.Keys {
			key, err := keymap.Parse(k)
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[key]; ok {
				t.Errorf("%s: %s is also %s", k, b.Action, other)
			}
			seen[key] = b.Action
		}
	}
	for _, tb := range panes {
		for _, b := range tb.Bindings {
			for _, k := range b.Keys {
				key, _ := keymap.Parse(k)
				if g, ok := seen[key]; ok {
					t.Errorf("%s (%s in %s) is taken by the global %s", k, b.Action, tb.Context, g)
				}
			}
		}
	}
	// Never the multiplexer prefixes.
	for _, k := range []string{"ctrl+b", "ctrl+a"} {
		key, _ := keymap.Parse(k)
		for _, tb := range append(panes, global) {
			for _, b := range tb.Bindings {
				for _, bk := range b.Keys {
					if pk, _ := keymap.Parse(bk); pk == key {
						t.Errorf("%s binds %s, a terminal multiplexer prefix", b.Action, k)
					}
				}
			}
		}
	}
}
