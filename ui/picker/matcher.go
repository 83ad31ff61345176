package picker

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Matcher is Best for a query typed a key at a time over one list of
// texts that only grows (the project's index while it is built, 200,000
// paths in a monorepo), answering each key in a few milliseconds:
//
//   - a query that extends the last one (a key typed, a paste) is matched
//     only against the texts the last one matched, and each of those only
//     from where the last query's match ended: one byte search a text for
//     the key typed, not one a character of the query;
//   - the queries typed before are kept while the new one extends them,
//     so a key taken back (Backspace) starts from the longest of them that
//     the shorter query still extends, not from every text;
//   - texts listed since a query was matched are matched from scratch;
//   - a text is scored only if it could beat the worst of the best n kept
//     in a bounded heap, never sorted with the rest;
//   - a long list is matched in chunks on the cores in parallel, each
//     with its own heap, merged in the list's order, so the answer is the
//     one matching the list in one go gives.
//
// Not safe for concurrent use.
type Matcher struct {
	// ByText breaks ties (the same score and length) by the texts' order
	// rather than by their place in the list.
	ByText bool
	// chunk is the least work a core is given (chunkMin; tests make it
	// small to match small lists in parallel).
	chunk int

	// The list of the last call, known by its length and its first and
	// last texts' bytes: another list starts over.
	listed      int
	first, last *byte
	levels      []level // the queries kept, each extending the one before
}

// level is one query and what it matched.
type level struct {
	q    string  // lower-cased
	seen int     // the texts it was matched against: texts[:seen]
	hits []int32 // the indexes of the texts it matches, ascending
	// ends holds, for each hit, the offset just past the leftmost match
	// of q found by the byte search, from which a longer query goes on;
	// slow when only Score matches it (İ or the Kelvin sign for i or k,
	// or a query that is not ASCII).
	ends []int32
}

// slow marks a hit that the byte search does not find.
const slow = -1

// keepHits bounds the hits the levels keep together (8 bytes each): past
// it the shortest queries are forgotten, to be matched again from
// scratch should the user take that many keys back.
const keepHits = 4 << 20

// chunkMin is the least work a core is given: below it the matching runs
// on the caller's goroutine.
const chunkMin = 16 << 10

// Match is one text matched, with its score and its place in the list.
type Match struct {
	Text  string
	Score int
	Index int
}

// Best is Best(texts, query, n), narrowing from the queries before when
// it can.
func (m *Matcher) Best(texts []string, query string, n int) []string {
	top := m.Top(texts, query, n)
	out := make([]string, len(top))
	for i, t := range top {
		out[i] = t.Text
	}
	return out
}

// Matched is how many texts the last query matched.
func (m *Matcher) Matched() int {
	if len(m.levels) == 0 {
		return 0
	}
	return len(m.levels[len(m.levels)-1].hits)
}

// Top returns the n texts that match query best, best first, with their
// scores.
func (m *Matcher) Top(texts []string, query string, n int) []Match {
	if n <= 0 || len(texts) == 0 {
		m.levels = nil
		return nil
	}
	lq := strings.ToLower(query)
	if m.listed == 0 || len(texts) < m.listed || unsafe.StringData(texts[0]) != m.first ||
		unsafe.StringData(texts[m.listed-1]) != m.last {
		m.levels = nil
	}
	// The levels whose query lq does not extend go.
	for len(m.levels) > 0 && !strings.HasPrefix(lq, m.levels[len(m.levels)-1].q) {
		m.levels = m.levels[:len(m.levels)-1]
	}
	var base level
	if len(m.levels) > 0 {
		base = m.levels[len(m.levels)-1]
	}
	next, best := m.match(texts, base, lq, n)
	if len(m.levels) > 0 && base.q == lq {
		m.levels[len(m.levels)-1] = next
	} else {
		m.levels = append(m.levels, next)
	}
	m.trim()
	m.listed, m.first, m.last = len(texts), unsafe.StringData(texts[0]), unsafe.StringData(texts[len(texts)-1])
	return best
}

// trim forgets the shortest queries while the levels keep too many hits.
func (m *Matcher) trim() {
	total := 0
	for _, l := range m.levels {
		total += len(l.hits)
	}
	for len(m.levels) > 1 && total > keepHits {
		total -= len(m.levels[0].hits)
		m.levels = slices.Delete(m.levels, 0, 1)
	}
}

// match makes lq's level from base (a query lq extends, or none): base's
// hits are matched on from where base's match ended, the texts listed
// since from scratch; and ranks the best n.
func (m *Matcher) match(texts []string, base level, lq string, n int) (level, []Match) {
	w := work{texts: texts, base: base, q: NewQuery(lq), lq: lq, suffix: lq[len(base.q):], n: n, byText: m.ByText}
	total := len(base.hits) + len(texts) - base.seen
	chunk := m.chunk
	if chunk <= 0 {
		chunk = chunkMin
	}
	chunks := min(runtime.GOMAXPROCS(0), max(1, total/chunk))
	parts := make([]part, chunks)
	if chunks == 1 {
		w.run(0, total, &parts[0])
	} else {
		var wg sync.WaitGroup
		for c := range chunks {
			wg.Go(func() { w.run(total*c/chunks, total*(c+1)/chunks, &parts[c]) })
		}
		wg.Wait()
	}
	next := level{q: lq, seen: len(texts)}
	if chunks == 1 {
		next.hits, next.ends = parts[0].hits, parts[0].ends
	} else {
		size := 0
		for _, p := range parts {
			size += len(p.hits)
		}
		next.hits, next.ends = make([]int32, 0, size), make([]int32, 0, size)
		for _, p := range parts {
			next.hits, next.ends = append(next.hits, p.hits...), append(next.ends, p.ends...)
		}
	}
	var all []Match
	for _, p := range parts {
		all = append(all, p.best...)
	}
	slices.SortFunc(all, func(a, b Match) int {
		if better(a, b, m.ByText) {
			return -1
		}
		if better(b, a, m.ByText) {
			return 1
		}
		return 0
	})
	return next, all[:min(n, len(all))]
}

// work is one query's matching, shared by the chunks.
type work struct {
	texts  []string
	base   level
	q      Query
	lq     string
	suffix string // what lq adds to base's query
	n      int
	byText bool
}

// part is what one chunk found: its hits in order and its best n.
type part struct {
	hits, ends []int32
	best       []Match // a heap, the worst on top
}

// run matches the candidates from to to: base's hits first, then the
// texts base was not matched against.
func (w *work) run(from, to int, p *part) {
	p.hits = make([]int32, 0, (to-from)/2)
	p.ends = make([]int32, 0, (to-from)/2)
	nb := len(w.base.hits)
	for v := from; v < to; v++ {
		var i int
		var end int
		if v < nb {
			i = int(w.base.hits[v])
			end = w.find(w.texts[i], int(w.base.ends[v]), w.suffix)
		} else {
			i = w.base.seen + v - nb
			end = w.find(w.texts[i], 0, w.lq)
		}
		if end == notFound {
			continue
		}
		t := w.texts[i]
		p.hits = append(p.hits, int32(i))
		p.ends = append(p.ends, int32(end))
		// A text that cannot beat the worst of the best is not scored: a
		// key that matches most texts ranks few of them.
		if len(p.best) == w.n && w.q.MaxScore(t) < p.best[0].Score {
			continue
		}
		s, _ := Score(t, w.q.runes, nil)
		c := Match{Text: t, Score: s, Index: i}
		if len(p.best) < w.n {
			p.best = append(p.best, c)
			up(p.best, len(p.best)-1, w.byText)
		} else if better(c, p.best[0], w.byText) {
			p.best[0] = c
			down(p.best, 0, w.byText)
		}
	}
}

// notFound: the text does not match.
const notFound = -2

// find matches the ASCII suffix in t from the offset from (the end of
// the match of the query before it), returning where the match ends; a
// text the byte search cannot follow (from is slow, a query not ASCII, a
// text with İ or the Kelvin sign) is matched by Score, and is slow.
func (w *work) find(t string, from int, suffix string) int {
	if from != slow && w.q.isASCII {
		if end := indexFold(t, from, suffix); end >= 0 {
			return end
		}
		if !(w.q.foldIK && foldsToASCII(t)) {
			return notFound
		}
	}
	if _, ok := Score(t, w.q.runes, nil); ok {
		return slow
	}
	return notFound
}

// indexFold finds the lower-case ASCII bytes of s in order in t from
// from, ignoring ASCII case, and returns the offset after the last, or -1.
// A plain loop: paths are short, and one pass finds either case where two
// vectorised searches would each pay their start-up.
func indexFold(t string, from int, s string) int {
	i := from
	for k := 0; k < len(s); k++ {
		c, u := s[k], s[k]
		if 'a' <= c && c <= 'z' {
			u = c - 'a' + 'A'
		}
		for i < len(t) && t[i] != c && t[i] != u {
			i++
		}
		if i == len(t) {
			return -1
		}
		i++
	}
	return i
}

// better orders matches: a higher score, then a shorter text, then the
// earlier in the list (or, byText, the text first in order).
func better(a, b Match, byText bool) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if len(a.Text) != len(b.Text) {
		return len(a.Text) < len(b.Text)
	}
	if byText && a.Text != b.Text {
		return a.Text < b.Text
	}
	return a.Index < b.Index
}

// up and down keep h a heap with the worst match on top.
func up(h []Match, i int, byText bool) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], h[i], byText) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func down(h []Match, i int, byText bool) {
	for {
		w := i
		if l := 2*i + 1; l < len(h) && better(h[w], h[l], byText) {
			w = l
		}
		if r := 2*i + 2; r < len(h) && better(h[w], h[r], byText) {
			w = r
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

// maxScore is the most Score gives a character: 16, +12 at a word's start,
// +10 following the previous one, +6 in the last segment; the query's last
// character follows none (Score matches from the end).
const maxScore = 16 + 12 + 10 + 6

// Query is a query made ready to match many texts: lower-cased, and, when
// it is ASCII, a byte search that rules most texts out before Score runs.
type Query struct {
	runes   []rune
	ascii   string // the query when isASCII
	isASCII bool
	foldIK  bool
}

// NewQuery prepares query (any case).
func NewQuery(query string) Query {
	lq := strings.ToLower(query)
	q := Query{runes: []rune(lq)}
	if q.isASCII = len(q.runes) == len(lq); q.isASCII {
		q.ascii, q.foldIK = lq, strings.ContainsAny(lq, "ik")
	}
	return q
}

// Match is Score(text, the lower-cased query, nil).
func (q Query) Match(text string) (int, bool) {
	if q.isASCII && indexFold(text, 0, q.ascii) < 0 && !(q.foldIK && foldsToASCII(text)) {
		return 0, false
	}
	return Score(text, q.runes, nil)
}

// MaxScore is the most Match could score text: a text below the worst of
// the best kept so far need not be scored.
func (q Query) MaxScore(text string) int {
	if len(q.runes) == 0 {
		return 0
	}
	return maxScore*len(q.runes) - 10 - len(text)/8
}
