package editor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/ui/picker"
)

// TestFinderShowsFilesWhileListing: on a big project the finder shows the
// first files it listed, and says it is still listing, before the listing
// is over.
func TestFinderShowsFilesWhileListing(t *testing.T) {
	h := newHarness(t, 70, 14)
	release := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	h.tabs.lister = func(ctx context.Context, root string, fn func(string) error) error {
		for i := range 600 {
			if err := fn(fmt.Sprintf("src/file%03d.go", i)); err != nil {
				return err
			}
		}
		select { // the rest of a big tree, not listed yet
		case <-release:
		case <-ctx.Done():
		}
		return fn("src/last.go")
	}
	h.ctrl('p')
	h.waitFor("the first files", func() bool { return h.tabs.finder != nil && len(h.tabs.finder.files) > 0 })
	h.draw()
	if !h.tabs.finder.loading || !strings.Contains(h.text(), " …") {
		t.Fatalf("the finder does not say it is still listing:\n%s", h.text())
	}
	h.typeText("file042")
	if m := h.tabs.finder.matches; len(m) == 0 || m[0].path != "src/file042.go" {
		t.Fatalf("matches while listing: %+v", m)
	}
	close(release)
	h.waitFor("the whole list", func() bool { return !h.tabs.finder.loading })
}

// TestFinderRanksAsScoringEverything: the finder's best matches, typed a
// key at a time over many files (most of them not scored), are the ones
// scoring and sorting every file gives, in the same order.
func TestFinderRanksAsScoringEverything(t *testing.T) {
	var files []string
	for i := range 4000 {
		files = append(files, fmt.Sprintf("src/mod%d/deep/er/Gen_%04d.go", i%29, i), fmt.Sprintf("g%d.md", i%7))
	}
	f := &finder{files: files}
	query := "gen_01"
	for k := 1; k <= len(query); k++ {
		f.query = query[:k]
		f.filter()
		var want []finderMatch
		for _, p := range files {
			if s, ok := picker.Score(p, []rune(query[:k]), nil); ok {
				want = append(want, finderMatch{p, s})
			}
		}
		slices.SortFunc(want, func(a, b finderMatch) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		want = want[:min(len(want), finderShown)]
		if len(f.matches) != len(want) {
			t.Fatalf("%q: %d matches shown, want %d", query[:k], len(f.matches), len(want))
		}
		for i := range want {
			if f.matches[i].path != want[i].path || f.matches[i].score != want[i].score {
				t.Fatalf("%q, match %d: %+v, want %+v", query[:k], i, f.matches[i], want[i])
			}
		}
	}
}

// better is the finder's order, the reference its Matcher keeps: higher
// score, then shorter path, then by name.
func better(a, b finderMatch) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if len(a.path) != len(b.path) {
		return len(a.path) < len(b.path)
	}
	return a.path < b.path
}
