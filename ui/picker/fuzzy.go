package picker

import (
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
		r, n := utf8.DecodeLastRuneInString(text[:i])
		i -= n
		if r != lowerQ[qi] && unicode.ToLower(r) != lowerQ[qi] {
			continue
		}
		s := 16
		if i == 0 || strings.ContainsRune("/_-. ", rune(text[i-1])) {
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
// text first among equals).
func Best(texts []string, query string, n int) []string {
	q := []rune(strings.ToLower(query))
	type scored struct {
		text  string
		score int
	}
	var best []scored
	for _, t := range texts {
		if s, ok := Score(t, q, nil); ok {
			best = append(best, scored{t, s})
		}
	}
	slices.SortStableFunc(best, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return len(a.text) - len(b.text)
	})
	out := make([]string, 0, min(n, len(best)))
	for i := 0; i < len(best) && i < n; i++ {
		out = append(out, best[i].text)
	}
	return out
}
