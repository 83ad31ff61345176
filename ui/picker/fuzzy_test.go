package picker

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Best puts the closest matches first and a shorter path before a longer
// one that matches as well.
func TestBestRanksMatches(t *testing.T) {
	got := Best([]string{"ui/chat/view.go", "README.md", "ui/chat.go", "cmd/fawn/chat_test.go"}, "chat", 2)
	if len(got) != 2 || got[0] != "ui/chat.go" {
		t.Fatalf("Best = %v, want ui/chat.go first and two results", got)
	}
	if got := Best([]string{"a", "b"}, "zzz", 5); len(got) != 0 {
		t.Fatalf("Best with no match = %v", got)
	}
}

// bestBySort is Best as it was, scoring and sorting every text: the
// reference the fast one must agree with.
func bestBySort(texts []string, query string, n int) []string {
	q := []rune(strings.ToLower(query))
	type sc struct {
		text  string
		score int
	}
	var all []sc
	for _, t := range texts {
		if s, ok := Score(t, q, nil); ok {
			all = append(all, sc{t, s})
		}
	}
	slices.SortStableFunc(all, func(a, b sc) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return len(a.text) - len(b.text)
	})
	var out []string
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].text)
	}
	return out
}

// TestBestAgreesWithSortingEverything: the byte test and the bounded heap
// give the same n paths, in the same order, as scoring and sorting all of
// them; non-ASCII names included (a Kelvin sign matches k).
func TestBestAgreesWithSortingEverything(t *testing.T) {
	var texts []string
	for i := range 3000 {
		texts = append(texts, fmt.Sprintf("src/pkg%d/Handler_%d.go", i%37, i), fmt.Sprintf("docs/guide%d.md", i%11))
	}
	texts = append(texts, "src/\u212Aelvin.go", "src/Ünïcode/k.go", "README.md")
	for _, q := range []string{"", "h", "hand", "HANDLER_1", "src/pkg3", "kelvin", "ü", "zzz", "gd", "d.md"} {
		for _, n := range []int{1, 50, 10000} {
			got, want := Best(texts, q, n), bestBySort(texts, q, n)
			if !slices.Equal(got, want) {
				t.Fatalf("Best(%q, %d): %d paths %.5q…, sorting all: %d paths %.5q…", q, n, len(got), got, len(want), want)
			}
		}
	}
}

// TestMatcherNarrowsAsTyped: a query typed a key at a time over a list
// that grows between keys (an index being built), then replaced by a new
// listing, then a key taken back: every answer is Best's on the whole list.
func TestMatcherNarrowsAsTyped(t *testing.T) {
	var all []string
	for i := range 4000 {
		all = append(all, fmt.Sprintf("src/mod%d/Gen_%04d.go", i%13, i))
	}
	var m Matcher
	query := "gen_01"
	for k := 1; k <= len(query); k++ {
		texts := all[:k*600] // more listed at each key
		if got, want := m.Best(texts, query[:k], 20), bestBySort(texts, query[:k], 20); !slices.Equal(got, want) {
			t.Fatalf("key %d (%q): %q, want %q", k, query[:k], got, want)
		}
	}
	relisted := slices.Clone(all[1000:])
	for i := range relisted {
		relisted[i] = strings.Clone(relisted[i])
	}
	for _, q := range []string{"gen_01", "gen_0", "gen_019"} {
		if got, want := m.Best(relisted, q, 20), bestBySort(relisted, q, 20); !slices.Equal(got, want) {
			t.Fatalf("relisted, %q: %q, want %q", q, got, want)
		}
	}
}
