package project

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/monorepo"
)

// BenchmarkMonorepoIndex builds the @-mention and Ctrl-P index of the big
// trees (the 200,000-file fixture and Go's source): how long until the
// first paths are there to match, until the whole list is, and the memory
// it holds, beside `rg --files` listing the same tree in the same run
// (goals: the first paths within 50 ms, the index ≤ 60 MiB), and the
// check a stale index makes before it would walk again, when nothing
// changed.
func BenchmarkMonorepoIndex(b *testing.B) {
	for _, tr := range monorepo.BenchTrees() {
		b.Run(tr.Name, func(b *testing.B) {
			if tr.Why != "" {
				fmt.Printf("%s skipped: %s\n", b.Name(), tr.Why)
				b.Skip(tr.Why)
			}
			rg, _ := exec.LookPath("rg")
			var first, built, recheck, rgTime time.Duration
			rewalked := false
			var heap float64
			entries := 0
			for range b.N {
				var ms0, ms1 runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms0)
				x := NewIndex(tr.Root, nil)
				changed := make(chan struct{}, 1)
				start := time.Now()
				x.Refresh(context.Background(), func(f func()) { go f() }, func() {
					select {
					case changed <- struct{}{}:
					default:
					}
				})
				gotFirst := false
				for {
					<-changed
					paths, done := x.Paths()
					if !gotFirst && len(paths) > 0 {
						first += time.Since(start)
						gotFirst = true
					}
					if done {
						built += time.Since(start)
						entries = len(paths)
						break
					}
				}
				// Stale, nothing changed: a check, not a walk.
				x.freshFor = 0
				t1 := time.Now()
				x.Refresh(context.Background(), func(f func()) { f() }, func() { rewalked = true })
				recheck += time.Since(t1)
				runtime.GC()
				runtime.ReadMemStats(&ms1)
				heap += float64(ms1.HeapAlloc) - float64(ms0.HeapAlloc)
				runtime.KeepAlive(x)
				if rg != "" {
					cmd := exec.Command(rg, "--files", "--hidden", "--no-ignore-parent", "--no-ignore-global", "--glob", "!.git")
					cmd.Dir = tr.Root
					t0 := time.Now()
					out, _ := cmd.Output()
					rgTime += time.Since(t0)
					if strings.Count(string(out), "\n") == 0 {
						b.Fatalf("rg --files listed nothing in %s", tr.Root)
					}
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(first.Microseconds())/1000/n, "first-ms")
			b.ReportMetric(float64(built.Microseconds())/1000/n, "built-ms")
			b.ReportMetric(float64(recheck.Microseconds())/1000/n, "recheck-ms")
			if rewalked {
				fmt.Printf("%s: the index walked again though nothing changed (a directory changed within a second of the walk?)\n", b.Name())
			}
			b.ReportMetric(heap/n/(1<<20), "index-MiB")
			b.ReportMetric(float64(entries), "entries")
			if rgTime > 0 {
				b.ReportMetric(float64(rgTime.Microseconds())/1000/n, "rg-files-ms")
				b.ReportMetric(float64(built)/float64(rgTime), "built/rg")
			}
		})
	}
}
