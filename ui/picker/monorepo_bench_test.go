package picker

import (
	"context"
	"fmt"
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
			var first, keys time.Duration
			nkeys := 0
			for range b.N {
				var m Matcher // as the chat's input keeps one
				x := project.NewIndex(tr.Root)
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
				t0 = time.Now()
				for i := 1; i <= len(query); i++ {
					if hits := m.Best(paths, query[:i], 50); len(hits) == 0 {
						b.Fatalf("no match for %q in %d paths", query[:i], len(paths))
					}
				}
				keys += time.Since(t0)
				nkeys += len(query)
			}
			b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "first-ms")
			b.ReportMetric(float64(keys.Microseconds())/1000/float64(nkeys), "key-ms")
		})
	}
}
