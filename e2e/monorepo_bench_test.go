package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/monorepo"
)

// BenchmarkMonorepoStartup: exec to the first frame (the chat's input line
// painted) in the big trees (the 200,000-file fixture, Go's source) beside
// the same fawn in a three-file project, interleaved: nothing that walks
// the tree may run before the first frame (goal ≤ 1.1× the small
// project's); then the CPU over 10 s of idleness in each (goal: the small
// project's, 0).
func BenchmarkMonorepoStartup(b *testing.B) {
	bin := plainFawn(b)
	small := b.TempDir()
	for name, text := range map[string]string{"main.go": "package main\n\nfunc main() {}\n", "README.md": "# small\n", ".gitignore": "bin/\n"} {
		os.WriteFile(filepath.Join(small, name), []byte(text), 0o644)
	}
	if out, err := exec.Command("git", "-C", small, "init", "-q").CombinedOutput(); err != nil {
		b.Fatalf("git init: %v: %s", err, out)
	}
	for _, tr := range monorepo.BenchTrees() {
		b.Run(tr.Name, func(b *testing.B) {
			if tr.Why != "" {
				fmt.Printf("%s skipped: %s\n", b.Name(), tr.Why)
				b.Skip(tr.Why)
			}
			// No gopls on PATH: Go's source has a go.mod, and a language
			// server to start would ask for trust before the first frame.
			var path []string
			for _, d := range filepath.SplitList(os.Getenv("PATH")) {
				if _, err := os.Stat(filepath.Join(d, "gopls")); err != nil {
					path = append(path, d)
				}
			}
			home := b.TempDir()
			env := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color", "PATH=" + strings.Join(path, string(os.PathListSeparator))}
			var big, ref time.Duration
			for range b.N {
				ref += timeToFirstFrame(b, env, "Ask fawn", bin, small)
				big += timeToFirstFrame(b, env, "Ask fawn", bin, tr.Root)
			}
			// Then 10 s of nothing, once each: no walk, no frame.
			bigIdle, _ := idleCPU(b, env, []string{bin, tr.Root})
			smallIdle, _ := idleCPU(b, env, []string{bin, small})
			b.ReportMetric(float64(bigIdle.Microseconds())/1000, "big-idle-cpu-ms")
			b.ReportMetric(float64(smallIdle.Microseconds())/1000, "small-idle-cpu-ms")
			n := float64(b.N)
			b.ReportMetric(float64(big.Microseconds())/1000/n, "big-ms")
			b.ReportMetric(float64(ref.Microseconds())/1000/n, "small-ms")
			b.ReportMetric(float64(big)/float64(ref), "big/small")
		})
	}
}
