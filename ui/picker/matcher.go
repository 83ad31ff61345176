package picker

import (
	"strings"
	"unsafe"
)

// Matcher is Best for a query typed a key at a time over one list of
// texts that only grows (the project's index while it is built): a query
// that extends the last one is matched only against the texts the last
// one matched, and the texts added since. Not safe for concurrent use.
type Matcher struct {
	lastQ    string  // lower-cased
	seen     int     // how many texts lastQ was matched against
	first    *byte   // texts[0]'s bytes then: another list starts over
	lastSeen *byte   // texts[seen-1]'s
	hits     []int32 // the indices lastQ matched
}

// Best is Best(texts, query, n), narrowing from the last query when it can.
func (m *Matcher) Best(texts []string, query string, n int) []string {
	lq := strings.ToLower(query)
	same := m.seen > 0 && len(texts) >= m.seen &&
		unsafe.StringData(texts[0]) == m.first && unsafe.StringData(texts[m.seen-1]) == m.lastSeen
	var from []int32
	if same && strings.HasPrefix(lq, m.lastQ) {
		from = m.hits
	} else {
		from = nil
		m.seen = 0
	}
	q := NewQuery(lq)
	hits := make([]int32, 0, len(from))
	var best scoredHeap
	try := func(i int32) {
		t := texts[i]
		var s int
		if q.ascii != nil && mayMatch(t, q.ascii) {
			// It matches (the byte search is exact for ASCII); it is scored
			// only if it could beat the worst of the best: a key that
			// matches most paths ranks few of them.
			hits = append(hits, i)
			if n > 0 && len(best) == n && q.MaxScore(t) < best[0].score {
				return
			}
			s, _ = Score(t, q.runes, nil)
		} else {
			var ok bool
			if s, ok = q.Match(t); !ok {
				return
			}
			hits = append(hits, i)
		}
		c := scored{t, s, int(i)}
		if len(best) < n {
			pushScored(&best, c)
		} else if n > 0 && c.better(best[0]) {
			best[0] = c
			fixScored(&best)
		}
	}
	for _, i := range from {
		try(i)
	}
	for i := m.seen; i < len(texts); i++ {
		try(int32(i))
	}
	m.lastQ, m.seen, m.hits = lq, len(texts), hits
	if len(texts) > 0 {
		m.first, m.lastSeen = unsafe.StringData(texts[0]), unsafe.StringData(texts[len(texts)-1])
	}
	return popAll(&best)
}

// maxScore is the most Score gives a character: 16, +12 at a word's start,
// +10 following the previous one, +6 in the last segment.
const maxScore = 16 + 12 + 10 + 6

// Query is a query made ready to match many texts: lower-cased, and, when
// it is ASCII, a byte search that rules most texts out before Score runs.
type Query struct {
	runes  []rune
	ascii  []byte
	foldIK bool
}

// NewQuery prepares query (any case).
func NewQuery(query string) Query {
	r := []rune(strings.ToLower(query))
	a := asciiQuery(r)
	return Query{runes: r, ascii: a, foldIK: strings.ContainsAny(string(a), "ik")}
}

// Match is Score(text, the lower-cased query, nil).
func (q Query) Match(text string) (int, bool) {
	if q.ascii != nil && !mayMatch(text, q.ascii) && !(q.foldIK && foldsToASCII(text)) {
		return 0, false
	}
	return Score(text, q.runes, nil)
}

// Contains reports whether text matches, as Match would, without scoring
// it when the byte search can tell.
func (q Query) Contains(text string) bool {
	if q.ascii != nil && mayMatch(text, q.ascii) {
		return true
	}
	_, ok := q.Match(text)
	return ok
}

// MaxScore is the most Match could score text: a text below the worst of
// the best kept so far need not be scored.
func (q Query) MaxScore(text string) int {
	if len(q.runes) == 0 {
		return 0
	}
	return maxScore*len(q.runes) - len(text)/8
}
