package picker

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/monorepo"
	"github.com/fawn-ide/fawn/project"
)

// BenchmarkMonorepoMention is @-mention completion on the big trees as the
// chat does it: the first keystroke starts the index and the list shows
// the best of what is listed so far, so its first figure is the time from
// that keystroke to the first matches while the walk goes on (goal ≤ 50
// ms); then, the index built, each keystroke of a query typed again
// (goal ≤ 10 ms a key).
func BenchmarkMonorepoMention(b *testing.B) {
	for _, tr := range monorepo.BenchTrees() {
		b.Run(tr.Name, func(b *testing.B) {
			if tr.Why != "" {
				fmt.Printf("%s skipped: %s\n", b.Name(), tr.Why)
				b.Skip(tr.Why)
			}
			query := "gen_0012"
			if tr.Stats.Wide == "" {
				query = "http_test"
			}
			var first, keys, keysCPU time.Duration
			nkeys := 0
			for range b.N {
				var m Matcher // as the chat's input keeps one
				x := project.NewIndex(tr.Root, nil)
				changed := make(chan struct{}, 1)
				t0 := time.Now()
				x.Refresh(context.Background(), func(f func()) { go f() }, func() {
					select {
					case changed <- struct{}{}:
					default:
					}
				})
				for {
					paths, _ := x.Paths()
					if hits := m.Best(paths, query[:1], 50); len(hits) > 0 {
						first += time.Since(t0)
						break
					}
					<-changed
				}
				for {
					if _, done := x.Paths(); done {
						break
					}
					<-changed
				}
				paths, _ := x.Paths()
				runtime.GC() // the walk's garbage is not the keys'
				c0 := cpuTime()
				t0 = time.Now()
				for i := 1; i <= len(query); i++ {
					if hits := m.Best(paths, query[:i], 50); len(hits) == 0 {
						b.Fatalf("no match for %q in %d paths", query[:i], len(paths))
					}
				}
				keys += time.Since(t0)
				keysCPU += cpuTime() - c0
				nkeys += len(query)
			}
			b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "first-ms")
			b.ReportMetric(float64(keys.Microseconds())/1000/float64(nkeys), "key-ms")
			b.ReportMetric(float64(keysCPU.Microseconds())/1000/float64(nkeys), "key-cpu-ms")
		})
	}
}

// cpuTime is the CPU this process has used: on a loaded machine a key's
// wall time is mostly waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
