package editor

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/monorepo"
)

// BenchmarkMonorepoFinder is the Ctrl-P finder on the big trees: from
// opening it to its first listed files (it lists the project as it opens),
// the whole listing, and then each key of a query typed over every file
// (goals: first files ≤ 50 ms, a key ≤ 10 ms), and the CPU a key takes
// (on a loaded machine a key's wall time is mostly waiting for a core).
func BenchmarkMonorepoFinder(b *testing.B) {
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
			var first, listed, keys, keysCPU time.Duration
			for range b.N {
				var files []string
				t0 := time.Now()
				var err error
				// As the finder lists them: in batches, packed.
				listInBatches(context.Background(), projectFiles, tr.Root, func(batch []string, done bool, e error) {
					if files = append(files, batch...); len(files) == len(batch) {
						first += time.Since(t0)
					}
					err = e
				})
				listed += time.Since(t0)
				if err != nil {
					b.Fatal(err)
				}
				f := &finder{files: files}
				runtime.GC() // the listing's garbage is not the keys'
				c0 := cpuTime()
				t0 = time.Now()
				for i := 1; i <= len(query); i++ {
					f.query = query[:i]
					f.filter()
				}
				keys += time.Since(t0)
				keysCPU += cpuTime() - c0
				if len(f.matches) == 0 {
					b.Fatalf("no file matches %q", query)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(first.Microseconds())/1000/n, "first-ms")
			b.ReportMetric(float64(listed.Microseconds())/1000/n, "listed-ms")
			b.ReportMetric(float64(keys.Microseconds())/1000/n/float64(len(query)), "key-ms")
			b.ReportMetric(float64(keysCPU.Microseconds())/1000/n/float64(len(query)), "key-cpu-ms")
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
