package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/trust"
)

// BenchmarkEditToDiagnostics measures, with the real gopls on a small
// module, an agent edit's write to its diagnostics in the result: one op
// is an edit that breaks the types and the report of it (the fix that
// follows is not timed).
func BenchmarkEditToDiagnostics(b *testing.B) {
	needGoplsB(b)
	root, _ := filepath.EvalSymlinks(b.TempDir())
	for name, content := range map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"main.go":      goMain,
		"util/util.go": "package util\n\n// Double returns twice n.\nfunc Double(n int) int { return n * 2 }\n",
	} {
		p := filepath.Join(root, name)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, []byte(content), 0o644)
	}
	m := New(Options{Root: root, Servers: Defaults(), Env: append(os.Environ(), "GOPROXY=off"), Allowed: func(trust.Item) bool { return true }})
	defer m.Close()
	main := filepath.Join(root, "main.go")
	bad := []byte(strings.Replace(goMain, "util.Double(2)", "util.Double(\"two\")", 1))
	ctx := context.Background()
	m.AfterEdit(ctx, main, []byte(goMain)) // start and load
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = os.WriteFile(main, bad, 0o644)
		if r := m.AfterEdit(ctx, main, bad); !strings.Contains(r, "New in main.go (1)") {
			b.Fatalf("report: %s", r)
		}
		b.StopTimer()
		_ = os.WriteFile(main, []byte(goMain), 0o644)
		m.AfterEdit(ctx, main, []byte(goMain))
		b.StartTimer()
	}
}
