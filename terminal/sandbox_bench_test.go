package terminal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/sandbox"
)

// BenchmarkSandboxedShell: what the sandbox costs the agent's commands:
// 1,000 `true` commands and a `go test` of a small module, each in the
// sandboxed shell and in a plain one, interleaved in the same run.
func BenchmarkSandboxedShell(b *testing.B) {
	if err := sandbox.Available(); err != nil {
		b.Skipf("no sandbox on this machine: %v", err)
	}
	if _, err := exec.LookPath("go"); err != nil {
		b.Skip("no go")
	}
	root := b.TempDir()
	project, home, cache := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "gocache")
	mod := filepath.Join(project, "mod")
	for _, d := range []string{mod, home, cache} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	files := map[string]string{
		"go.mod":    "module bench\n\ngo 1.22\n",
		"a.go":      "package bench\n\nfunc Sum(xs []int) (n int) {\n\tfor _, x := range xs {\n\t\tn += x\n\t}\n\treturn n\n}\n",
		"a_test.go": "package bench\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum([]int{1, 2, 3}) != 6 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "GOCACHE=" + cache, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "TMPDIR=" + b.TempDir()}
	p, err := sandbox.New(sandbox.Settings{Mode: "workspace-write"}, project, home, env)
	if err != nil {
		b.Fatal(err)
	}
	boxed := startTerm(b, Options{Dir: project, Env: env, Start: p.Start})
	plain := startTerm(b, Options{Dir: project, Env: env})
	goTest := "cd mod && go test -count=1 ./... ; cd .."
	for _, term := range []*Terminal{boxed, plain} {
		// The first builds the test's dependencies into the empty cache.
		if res := runOpts(b, term, Command{Text: goTest, Timeout: 10 * time.Minute}); res.ExitCode != 0 || !strings.Contains(res.Output, "ok") {
			b.Fatalf("go test: %+v", res) // and the cache is warm for both
		}
	}
	trues := func(term *Terminal, n int) time.Duration {
		start := time.Now()
		for range n {
			mustRun(b, term, "true")
		}
		return time.Since(start)
	}
	var boxedTrue, plainTrue, boxedGo, plainGo time.Duration
	for b.Loop() {
		// Each goes first as often as the other.
		for range 10 {
			boxedTrue += trues(boxed, 50)
			plainTrue += trues(plain, 50)
			plainTrue += trues(plain, 50)
			boxedTrue += trues(boxed, 50)
		}
		for _, pair := range [][2]*Terminal{{boxed, plain}, {plain, boxed}} {
			for _, term := range pair {
				start := time.Now()
				mustRun(b, term, goTest)
				if term == boxed {
					boxedGo += time.Since(start)
				} else {
					plainGo += time.Since(start)
				}
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(boxedTrue.Seconds()/n, "sandboxed-true-s")
	b.ReportMetric(plainTrue.Seconds()/n, "plain-true-s")
	b.ReportMetric(boxedGo.Seconds()/n/2, "sandboxed-gotest-s")
	b.ReportMetric(plainGo.Seconds()/n/2, "plain-gotest-s")
}
