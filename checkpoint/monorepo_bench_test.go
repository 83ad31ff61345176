package checkpoint

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/monorepo"
)

// BenchmarkMonorepoCommandScan: both scans around one agent command, as
// the book does them once it watches the tree, on the big trees (the
// 200,000-file fixture, where the command changes one file, and Go's
// source, where it changes none: that tree is not ours to write), beside
// the two full walks the book would do without watching and `find -type
// f` over the same tree, interleaved (goal: ≤ 20 ms).
func BenchmarkMonorepoCommandScan(b *testing.B) {
	for _, tr := range monorepo.BenchTrees() {
		b.Run(tr.Name, func(b *testing.B) {
			if tr.Why != "" {
				fmt.Printf("%s skipped: %s\n", b.Name(), tr.Why)
				b.Skip(tr.Why)
			}
			bk := benchBook(b, tr.Root)
			bk.Begin("bench", 0)
			t0 := time.Now()
			bk.CommandStarting(context.Background())() // the first command starts watching
			start := time.Since(t0)
			if mode := bk.ScanMode(); !strings.HasPrefix(mode, "watching") {
				fmt.Printf("%s skipped: %s\n", b.Name(), mode)
				b.Skip(mode)
			}
			var target string
			if tr.Stats.Wide != "" {
				target = filepath.Join(tr.Root, filepath.FromSlash(tr.Stats.Wide), "bench-probe.txt")
				b.Cleanup(func() { os.Remove(target) })
			}
			var cmd, walk, find time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				ended := bk.CommandStarting(context.Background())
				if target != "" {
					os.WriteFile(target, fmt.Appendf(nil, "probe %d\n", i), 0o644)
				}
				ended()
				cmd += time.Since(t0)

				t0 = time.Now()
				bk.Scan(context.Background())
				bk.Scan(context.Background())
				walk += time.Since(t0)

				t0 = time.Now()
				if err := exec.Command("find", tr.Root, "-type", "f").Run(); err != nil {
					b.Fatal(err)
				}
				find += time.Since(t0)
			}
			if target != "" {
				if n := len(bk.Turns()[0].Changes); n < b.N {
					b.Fatalf("%d changes recorded for %d commands", n, b.N)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(start.Microseconds())/1000, "first-command-ms")
			b.ReportMetric(float64(cmd.Microseconds())/1000/n, "command-scans-ms")
			b.ReportMetric(float64(walk.Microseconds())/1000/n, "two-walks-ms")
			b.ReportMetric(float64(find.Microseconds())/1000/n, "find-ms")
			b.ReportMetric(float64(cmd)/float64(walk), "scans/walks")
		})
	}
}
