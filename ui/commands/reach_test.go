package commands

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A command reaches the App only through Host: no file here imports the
// frame (package ui) — the compiler would call that a cycle anyway — and
// no file asserts a value to another type to find more than Host offers
// (h.(interface{ ... }) would reach the App's other methods). The only
// assertions allowed are on a picker item's Value, which a command put
// there itself.
func TestCommandsReachTheAppOnlyThroughHost(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files++
		for _, im := range f.Imports {
			if path, _ := strconv.Unquote(im.Path.Value); path == "github.com/fawn-ide/fawn/ui" {
				t.Errorf("%s imports the frame (package ui)", p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok {
				return true
			}
			if sel, ok := ta.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Value" {
				return true
			}
			t.Errorf("%s: a type assertion on %s: a command takes what it needs from Host, never by asserting it to more", fset.Position(ta.Pos()), sourceOf(src, fset, ta.X))
			return true
		})
	}
	if files == 0 {
		t.Fatal("no command files found")
	}
}

// sourceOf is the source text of x, for the message.
func sourceOf(src []byte, fset *token.FileSet, x ast.Expr) string {
	return string(src[fset.Position(x.Pos()).Offset:fset.Position(x.End()).Offset])
}
