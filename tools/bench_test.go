package tools

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/project"
)

// benchTree writes a generated project of n files: nested packages of Go,
// TypeScript and Markdown files (a few KB each, about 1% holding the
// needle), with .gitignore files that hide a build directory per package
// and a node_modules tree.
func benchTree(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("func return if else for range var const type struct interface map chan go defer select case switch package import string int error nil true false ctx err value result handler config server client request response")
	line := func() string {
		k := 3 + rng.IntN(8)
		parts := make([]string, k)
		for i := range parts {
			parts[i] = words[rng.IntN(len(words))]
		}
		return strings.Repeat("\t", rng.IntN(3)) + strings.Join(parts, " ")
	}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	// A repository (ripgrep reads .gitignore only inside one).
	must(os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/\n*.tmp\n"), 0o644))
	exts := []string{".go", ".go", ".go", ".ts", ".md"}
	for i := range n {
		pkg := filepath.Join(fmt.Sprintf("mod%02d", i%20), fmt.Sprintf("pkg%03d", (i/20)%125))
		dir := filepath.Join(root, pkg)
		name := fmt.Sprintf("file%05d%s", i, exts[i%len(exts)])
		switch {
		case i%50 == 7:
			dir = filepath.Join(dir, "build") // ignored by the package's .gitignore
		case i%97 == 3:
			dir = filepath.Join(root, "node_modules", fmt.Sprintf("dep%03d", i%300))
		}
		if _, err := os.Stat(dir); err != nil {
			must(os.MkdirAll(dir, 0o755))
			if filepath.Base(dir) != "build" && !strings.Contains(dir, "node_modules") {
				must(os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("build/\n"), 0o644))
			}
		}
		var sb strings.Builder
		lines := 20 + rng.IntN(80)
		for l := range lines {
			if i%100 == 42 && l == lines/2 {
				sb.WriteString("func needleHandler(ctx context.Context) error { return nil }\n")
				continue
			}
			sb.WriteString(line())
			sb.WriteByte('\n')
		}
		must(os.WriteFile(filepath.Join(dir, name), []byte(sb.String()), 0o644))
	}
	return root
}

// BenchmarkGrepVsRipgrep searches a generated 50,000-file tree with grep
// and with rg, and reports grep's time per search and its ratio to rg's
// (fawn/rg: 1.0 is as fast as ripgrep). ns/op counts grep only.
func BenchmarkGrepVsRipgrep(b *testing.B) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		b.Skip("rg is not installed (apt-get install -y ripgrep): nothing to compare with")
	}
	root := benchTree(b, 50_000)
	env, err := NewEnv(root)
	if err != nil {
		b.Fatal(err)
	}
	g := NewGrep(env)
	g.timeLimit = time.Hour
	for _, bc := range []struct {
		name string
		args map[string]any
		rg   []string
	}{
		{"literal", map[string]any{"pattern": "needleHandler", "head_limit": 5000}, []string{"-l", "needleHandler"}},
		{"regexp", map[string]any{"pattern": `func\s+\w+Handler\(`, "head_limit": 5000}, []string{"-l", `func\s+\w+Handler\(`}},
		{"ignore-case", map[string]any{"pattern": "NEEDLEHANDLER", "i": true, "head_limit": 5000}, []string{"-l", "-i", "NEEDLEHANDLER"}},
		{"content", map[string]any{"pattern": "needleHandler", "output_mode": "content", "head_limit": 1000}, []string{"-n", "--no-heading", "needleHandler"}},
		{"type-go", map[string]any{"pattern": "needleHandler", "type": "go", "head_limit": 5000}, []string{"-l", "-t", "go", "needleHandler"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			args := argsJSON(b, bc.args)
			rgArgs := append([]string{"--hidden", "--no-ignore-global", "--no-ignore-parent", "--glob", "!.git"}, bc.rg...)
			runRg := func() int {
				cmd := exec.Command(rg, rgArgs...)
				cmd.Dir = root
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("rg: %v", err)
				}
				return strings.Count(string(out), "\n")
			}
			// Warm the page cache for both, and check they agree on the count.
			res, err := g.InvokableRun(context.Background(), args)
			if err != nil {
				b.Fatal(err)
			}
			if got, want := len(resultLines(res)), runRg(); got != want {
				b.Fatalf("grep found %d, rg %d", got, want)
			}
			var rgTime time.Duration
			b.ResetTimer()
			for range b.N {
				if _, err := g.InvokableRun(context.Background(), args); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				t0 := time.Now()
				runRg()
				rgTime += time.Since(t0)
				b.StartTimer()
			}
			b.StopTimer()
			fawn := b.Elapsed()
			b.ReportMetric(float64(fawn)/float64(rgTime), "fawn/rg")
			b.ReportMetric(float64(rgTime.Milliseconds())/float64(b.N), "rg-ms/op")
		})
	}
}

// BenchmarkWalkFiles walks the generated tree, as the editor's file finder does.
func BenchmarkWalkFiles(b *testing.B) {
	root := benchTree(b, 50_000)
	b.ResetTimer()
	for range b.N {
		n := 0
		if err := project.WalkFiles(context.Background(), root, "", func(string, os.DirEntry) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
