package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxResultBytes bounds a walking tool's result, whatever its entry caps
// allow (paths can be long).
const maxResultBytes = 64 << 10

// Truncate bounds s to at most maxLines lines and about maxBytes bytes,
// keeping its head and its tail and putting "[… N lines omitted …]" on a
// line of its own between them (or "[… N bytes omitted …]" when the cut falls
// inside one long line). A limit <= 0 means no limit of that kind. Cuts never
// split a UTF-8 character.
func Truncate(s string, maxLines, maxBytes int) string {
	head, tail := s, ""
	if maxLines > 0 {
		if n := countLines(s); n > maxLines {
			keepHead := (maxLines + 1) / 2
			keepTail := maxLines - keepHead
			head = s[:lineStart(s, keepHead)]
			tail = s[lineStart(s, n-keepTail):]
		}
	}
	if maxBytes > 0 && len(head)+len(tail) > maxBytes {
		budget := maxBytes - 40 // room for the marker
		if budget < 2 {
			budget = 2
		}
		h, t := budget/2, budget-budget/2
		if len(head) == len(s) {
			// Not cut by lines: take both ends from the whole.
			tail = s
		} else if len(tail) < t {
			h, t = budget-len(tail), len(tail)
		} else if len(head) < h {
			h, t = len(head), budget-len(head)
		}
		head = cutHead(head, h)
		tail = cutTail(tail, t)
	}
	if len(head)+len(tail) == len(s) {
		return s
	}
	omitted := s[len(head) : len(s)-len(tail)]
	var marker string
	if nl := strings.Count(omitted, "\n"); nl == 0 {
		marker = fmt.Sprintf("[… %s omitted …]", plural(len(omitted), "byte", "bytes"))
	} else {
		if !strings.HasSuffix(omitted, "\n") {
			nl++ // the tail starts inside a line, whose head is omitted too
		}
		marker = fmt.Sprintf("[… %s omitted …]", plural(nl, "line", "lines"))
	}
	var b strings.Builder
	b.Grow(len(head) + len(marker) + len(tail) + 2)
	b.WriteString(head)
	if head != "" && !strings.HasSuffix(head, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(marker)
	if tail != "" {
		b.WriteByte('\n')
		b.WriteString(tail)
	}
	return b.String()
}

// countLines counts lines; a final newline does not start another one.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// lineStart returns the byte offset where 0-based line i starts (len(s) past the end).
func lineStart(s string, i int) int {
	off := 0
	for ; i > 0; i-- {
		j := strings.IndexByte(s[off:], '\n')
		if j < 0 {
			return len(s)
		}
		off += j + 1
	}
	return off
}

// cutHead keeps at most n bytes of s, ending at a line break when one is in reach.
func cutHead(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i >= 0 {
		return s[:i+1]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cutTail keeps at most n bytes of the end of s, starting at a line when one is in reach.
func cutTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	start := len(s) - n
	if i := strings.IndexByte(s[start:], '\n'); i >= 0 && start+i+1 < len(s) {
		return s[start+i+1:]
	}
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[start:]
}
