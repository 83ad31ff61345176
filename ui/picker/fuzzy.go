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
// are kept in order, not every match (see Matcher).
func Best(texts []string, query string, n int) []string {
	var m Matcher
	return m.Best(texts, query, n)
}

// foldsToASCII reports whether text holds one of the two runes that
// lower-case to an ASCII letter (İ to i, the Kelvin sign to k), which
// the byte search does not see.
func foldsToASCII(text string) bool {
	return strings.Contains(text, "\u0130") || strings.Contains(text, "\u212a")
}
