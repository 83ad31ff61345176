package picker

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// reference is Top as the simplest code gives it: every text scored,
// all the matches sorted (a higher score, a shorter text, then, byText,
// the text first in order, then the earlier in the list), the first n.
func reference(texts []string, query string, n int, byText bool) []Match {
	q := []rune(strings.ToLower(query))
	var all []Match
	for i, t := range texts {
		if s, ok := Score(t, q, nil); ok {
			all = append(all, Match{t, s, i})
		}
	}
	slices.SortStableFunc(all, func(a, b Match) int {
		if a.Score != b.Score {
			return b.Score - a.Score
		}
		if len(a.Text) != len(b.Text) {
			return len(a.Text) - len(b.Text)
		}
		if byText {
			return strings.Compare(a.Text, b.Text)
		}
		return 0
	})
	return all[:min(n, len(all))]
}

// corpus is paths of a made-up monorepo: mostly lower-case, some
// camelCase, duplicates, directories with "/", and names with the two
// runes that lower-case to an ASCII letter (İ, the Kelvin sign) and other
// non-ASCII ones.
func corpus(r *rand.Rand, n int) []string {
	dirs := []string{"src", "api", "auth", "gen", "http", "internal", "pkg", "web", "ui", "Kernel", "node_modules"}
	names := []string{"handler", "server_test", "genFile", "index", "README", "main", "http_client", "view", "\u212Aelvin", "\u0130stanbul", "ünïcode", "Ünïcode", "kit", "IK"}
	exts := []string{".go", ".md", ".ts", "", "/"}
	out := make([]string, 0, n)
	for len(out) < n {
		var b strings.Builder
		for d := r.IntN(4); d >= 0; d-- {
			fmt.Fprintf(&b, "%s%d/", dirs[r.IntN(len(dirs))], r.IntN(30))
		}
		fmt.Fprintf(&b, "%s_%d%s", names[r.IntN(len(names))], r.IntN(500), exts[r.IntN(len(exts))])
		out = append(out, b.String())
		if r.IntN(50) == 0 {
			out = append(out, b.String()) // the same path twice
		}
	}
	return out
}

// TestMatcherAgreesWithScoringEverything types, takes back, pastes and
// clears queries at random over a list that grows between keys and is
// sometimes listed again, in chunks small enough that the matching runs
// in parallel, and checks every answer against scoring and sorting the
// whole list: the same texts, the same scores, in the same order, and
// the same count of matches.
func TestMatcherAgreesWithScoringEverything(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 1))
	all := corpus(r, 6000)
	keys := []string{"g", "e", "n", "_", "1", "0", "/", "h", "t", "p", "k", "i", "K", "I", "s", "r", "c", "a", ".", "ü", "x", "E", "N"}
	for _, byText := range []bool{false, true} {
		m := Matcher{ByText: byText, chunk: 256}
		texts := all[:1000]
		query := ""
		for step := range 400 {
			switch op := r.IntN(20); {
			case op < 10: // a key
				query += keys[r.IntN(len(keys))]
			case op < 13: // Backspace
				if q := []rune(query); len(q) > 0 {
					query = string(q[:len(q)-1])
				}
			case op < 15: // a paste
				for range 2 + r.IntN(4) {
					query += keys[r.IntN(len(keys))]
				}
			case op < 16: // cleared
				query = ""
			case op < 18: // more listed
				texts = all[:min(len(all), len(texts)+1+r.IntN(700))]
			case op < 19: // listed again, new strings
				texts = slices.Clone(all[:500+r.IntN(len(all)-500)])
				for i := range texts {
					texts[i] = strings.Clone(texts[i])
				}
			default: // listed again in another order, the first one kept
				rest := slices.Clone(all[1:len(texts)])
				r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
				for i := range rest {
					rest[i] = strings.Clone(rest[i])
				}
				texts = append([]string{texts[0]}, rest...)
			}
			n := []int{1, 5, 50, 10000}[r.IntN(4)]
			got, want := m.Top(texts, query, n), reference(texts, query, n, byText)
			if !slices.Equal(got, want) {
				t.Fatalf("byText %v, step %d, %q over %d texts, n %d:\n got %d %.6v\nwant %d %.6v", byText, step, query, len(texts), n, len(got), got, len(want), want)
			}
			if all := reference(texts, query, len(texts), false); m.Matched() != len(all) {
				t.Fatalf("step %d, %q: Matched() = %d, want %d", step, query, m.Matched(), len(all))
			}
		}
	}
}
