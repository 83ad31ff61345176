package picker

import (
	"container/heap"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Score matches the characters of the lower-cased query in order in text,
// ignoring case, and scores the match: each character counts, more at the
// start of a path segment or word and when it follows the previous one, and
// a match inside the last path segment counts more than one before it. The
// characters are matched from the end, so "view" prefers ".../view.go" over
// "views/x.go". pos, when not nil, receives the byte offsets of the matched
// characters (to show them in bold). An empty query matches everything.
func Score(text string, lowerQ []rune, pos *[]int) (int, bool) {
	if len(lowerQ) == 0 {
		return 0, true
	}
	base := strings.LastIndexByte(text, '/') + 1
	score := 0
	next := len(text) + 1 // offset of the character matched after this one
	qi := len(lowerQ) - 1
	for i := len(text); i > 0 && qi >= 0; {
		// ASCII, most of a path, without decoding or Unicode tables.
		var r rune
		n := 1
		if c := text[i-1]; c < utf8.RuneSelf {
			r = rune(c)
			lr := r
			if 'A' <= c && c <= 'Z' {
				lr += 'a' - 'A'
			}
			i--
			if lr != lowerQ[qi] {
				continue
			}
		} else {
			r, n = utf8.DecodeLastRuneInString(text[:i])
			i -= n
			if r != lowerQ[qi] && unicode.ToLower(r) != lowerQ[qi] {
				continue
			}
		}
		s := 16
		if i == 0 || isSeparator(text[i-1]) {
			s += 12
		} else if unicode.IsUpper(r) {
			if pr, _ := utf8.DecodeLastRuneInString(text[:i]); unicode.IsLower(pr) {
				s += 10
			}
		}
		if i+n == next {
			s += 10 // follows on from the previous character
		} else if next <= len(text) {
			s -= min(8, next-(i+n)) // gaps cost a little
		}
		if i >= base {
			s += 6
		}
		score += s
		next = i
		if pos != nil {
			*pos = append(*pos, i)
		}
		qi--
	}
	if qi >= 0 {
		return 0, false
	}
	if pos != nil {
		slices.Reverse(*pos)
	}
	return score - len(text)/8, true
}

// isSeparator: a match after one of these starts a word.
func isSeparator(c byte) bool {
	switch c {
	case '/', '_', '-', '.', ' ':
		return true
	}
	return false
}

// Positions returns the byte offsets of text that match query (for
// highlighting), or nil when it does not match.
func Positions(text, query string) []int {
	var pos []int
	if _, ok := Score(text, []rune(strings.ToLower(query)), &pos); !ok {
		return nil
	}
	return pos
}

// Best returns the n texts that match query best, best first (a shorter
// text first among equals, then the earlier). It is called at every key of
// an @-mention over every path of the project (200,000 in a monorepo), so
// a cheap byte test rules most texts out before Score, and only the best n
// are kept in order, not every match.
func Best(texts []string, query string, n int) []string {
	var m Matcher
	return m.Best(texts, query, n)
}

func pushScored(h *scoredHeap, c scored) { heap.Push(h, c) }
func fixScored(h *scoredHeap)            { heap.Fix(h, 0) }

// popAll empties the heap into a list, best first.
func popAll(h *scoredHeap) []string {
	out := make([]string, len(*h))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(scored).text
	}
	return out
}

type scored struct {
	text  string
	score int
	index int
}

func (a scored) better(b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if len(a.text) != len(b.text) {
		return len(a.text) < len(b.text)
	}
	return a.index < b.index
}

// scoredHeap keeps the best matches with the worst of them on top.
type scoredHeap []scored

func (h scoredHeap) Len() int           { return len(h) }
func (h scoredHeap) Less(i, j int) bool { return h[j].better(h[i]) }
func (h scoredHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *scoredHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *scoredHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// asciiQuery is the lower-cased query as bytes when it is all ASCII, for
// mayMatch; nil otherwise.
func asciiQuery(q []rune) []byte {
	b := make([]byte, 0, len(q))
	for _, r := range q {
		if r >= utf8.RuneSelf {
			return nil
		}
		b = append(b, byte(r))
	}
	return b
}

// mayMatch reports whether the ASCII query's characters occur in text in
// order, ignoring ASCII case: false rules text out, true leaves it to
// Score. Each character is looked for with a vectorised byte search (an
// upper-case one only before where the lower-case one is).
func mayMatch(text string, lowerQ []byte) bool {
	i := 0
	for _, c := range lowerQ {
		j := strings.IndexByte(text[i:], c)
		if 'a' <= c && c <= 'z' {
			end := len(text)
			if j >= 0 {
				end = i + j
			}
			if k := strings.IndexByte(text[i:end], c-'a'+'A'); k >= 0 {
				j = k
			}
		}
		if j < 0 {
			return false
		}
		i += j + 1
	}
	return true
}

// foldsToASCII reports whether text holds one of the two runes that
// lower-case to an ASCII letter (İ to i, the Kelvin sign to k), which
// mayMatch does not see.
func foldsToASCII(text string) bool {
	return strings.Contains(text, "\u0130") || strings.Contains(text, "\u212a")
}
