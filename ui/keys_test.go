package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/keymap"
	uipanes "github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/termview"
	"github.com/fawn-ide/fawn/ui/trustprompt"
)

// The global keys win over every pane's, so a pane key that is also global
// would be dead; the chat's own tables must not collide either.
func TestKeyTablesDoNotCollide(t *testing.T) {
	global := GlobalKeys()
	panes := []*keymap.Table{chat.ChatKeys(), chat.ChatVimKeys(), chat.MessageKeys(), editor.DefaultKeys(), termview.DefaultKeys(), explorer.DefaultKeys()}
	panes = append(panes, editor.DefaultKeySet().Tables()...)
	panes = append(panes, explorer.DefaultPromptKeys().Tables()...)
	panes = append(panes, uipanes.DefaultKeys().Tables()...)
	seen := map[keymap.Key]keymap.Action{}
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

// An action is spelled once, in its constant: the tables bind the constant
// and the switches test for it, so a renamed or mistyped action breaks the
// build instead of leaving a key that does nothing.
func TestActionsAreNamedOnlyByTheirConstants(t *testing.T) {
	for _, c := range []struct {
		dir    string
		tables []*keymap.Table
	}{
		{".", []*keymap.Table{GlobalKeys(), chat.ChatKeys(), chat.MessageKeys(), dialogs.DialogKeys(), dialogs.HelpKeys()}},
		{"dialogs", append([]*keymap.Table{dialogs.DialogKeys(), dialogs.HelpKeys()}, dialogs.DefaultAskKeys().Tables()...)},
		{"chat", []*keymap.Table{chat.ChatKeys(), chat.ChatVimKeys(), chat.MessageKeys()}},
		{"editor", append([]*keymap.Table{editor.DefaultKeys()}, editor.DefaultKeySet().Tables()...)},
		{"explorer", append([]*keymap.Table{explorer.DefaultKeys()}, explorer.DefaultPromptKeys().Tables()...)},
		{"termview", termview.DefaultKeySet().Tables()},
		{"panes", uipanes.DefaultKeys().Tables()},
		{"trustprompt", []*keymap.Table{trustprompt.DefaultKeys()}},
	} {
		names := map[string]bool{}
		for _, tb := range c.tables {
			for _, b := range tb.Bindings {
				names[string(b.Action)] = true
			}
		}
		files, err := filepath.Glob(filepath.Join(c.dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
					return false // where the names are declared
				}
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if v, err := strconv.Unquote(lit.Value); err == nil && names[v] {
						t.Errorf("%s: the action %q is spelled out; use its constant", fset.Position(lit.Pos()), v)
					}
				}
				return true
			})
		}
	}
}
