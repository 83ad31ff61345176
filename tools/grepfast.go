package tools

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"
)

// A literal every match must contain lets grep rule a file out with a
// SIMD-backed byte search before any regular expression runs; that is most
// of ripgrep's lead on patterns like `func\s+\w+Handler\(` or a
// case-insensitive word, where Go's regexp has no fast path.

// requiredLiteral returns the longest literal that every match of expr
// contains, and whether it is matched ignoring ASCII case; nil when there
// is none worth using.
func requiredLiteral(expr string) ([]byte, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false
	}
	runes, fold := longestRequired(re)
	if len(runes) < 2 {
		return nil, false
	}
	lit := []byte(string(runes))
	if fold {
		for _, r := range runes {
			// Unicode folds k and s to the Kelvin and long-s signs, which an
			// ASCII comparison would miss; non-ASCII folds are not ASCII.
			if r >= utf8.RuneSelf || r == 'k' || r == 'K' || r == 's' || r == 'S' {
				return nil, false
			}
		}
		lit = bytes.ToLower(lit)
	}
	return lit, fold
}

// longestRequired walks the parts every match goes through.
func longestRequired(re *syntax.Regexp) ([]rune, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return re.Rune, re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return longestRequired(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return longestRequired(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []rune
		bestFold := false
		for _, sub := range re.Sub {
			if r, f := longestRequired(sub); len(string(r)) > len(string(best)) {
				best, bestFold = r, f
			}
		}
		return best, bestFold
	}
	return nil, false
}

// containsLiteral reports whether data contains lit, ignoring ASCII case
// when fold is set (lit is then lower-case).
func containsLiteral(data, lit []byte, fold bool) bool {
	if !fold {
		return bytes.Contains(data, lit)
	}
	lo := lit[0]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	last := len(data) - len(lit)
	nextLo, nextUp := -1, -1
	for i := 0; i <= last; {
		// The next place either case of the first byte occurs, each found
		// once per occurrence, so the scan stays linear.
		if nextLo < i {
			nextLo = indexFrom(data, lo, i)
		}
		if nextUp < i {
			nextUp = indexFrom(data, up, i)
		}
		p := min(nextLo, nextUp)
		if p > last {
			return false
		}
		if equalFoldASCII(data[p:p+len(lit)], lit) {
			return true
		}
		i = p + 1
	}
	return false
}

// indexFrom is bytes.IndexByte from offset i, or a position past the end.
func indexFrom(data []byte, c byte, i int) int {
	j := bytes.IndexByte(data[i:], c)
	if j < 0 {
		return len(data) + 1
	}
	return i + j
}

// equalFoldASCII compares s with the lower-case lit, ignoring ASCII case.
func equalFoldASCII(s, lit []byte) bool {
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}
