package tools

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The text operations behind text_editor, on decoded text (see decodeText):
// pure functions, so they can be fuzzed for their round-trip invariants.

// findAll returns the byte offsets of every occurrence of sub in s,
// overlapping ones included (uniqueness must count "aa" twice in "aaa").
func findAll(s, sub string) []int {
	var at []int
	if sub == "" {
		return nil
	}
	for off := 0; off <= len(s)-len(sub); {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			break
		}
		at = append(at, off+i)
		_, size := utf8.DecodeRuneInString(s[off+i:])
		off += i + max(size, 1)
	}
	return at
}

// lineOf returns the 1-based line of byte offset off in s.
func lineOf(s string, off int) int {
	return strings.Count(s[:off], "\n") + 1
}

// linesOf returns the 1-based lines of ascending offsets in one pass.
func linesOf(s string, offs []int) []int {
	out := make([]int, len(offs))
	line, pos := 1, 0
	for i, off := range offs {
		line += strings.Count(s[pos:off], "\n")
		pos = off
		out[i] = line
	}
	return out
}

// replaceText replaces the occurrence of old at offset at (or, with all,
// every non-overlapping occurrence) by new.
func replaceText(text, old, new string, at int, all bool) (string, int) {
	if all {
		return strings.ReplaceAll(text, old, new), strings.Count(text, old)
	}
	return text[:at] + new + text[at+len(old):], 1
}

// insertText puts ins after line `after` of text (0 = before the first
// line). ins always occupies whole lines; the text's final-newline state is
// kept, also when inserting after a last line that has no newline.
func insertText(text string, after int, ins string) (string, error) {
	n := countLines(text)
	if after < 0 || after > n {
		return "", fmt.Errorf("insert_line %d is out of range: the file has %s, so use 0 (top) to %d (end)", after, plural(n, "line", "lines"), n)
	}
	if text == "" {
		return ins, nil
	}
	if !strings.HasSuffix(ins, "\n") {
		ins += "\n"
	}
	if after == n && !strings.HasSuffix(text, "\n") {
		// The last line has no newline: it gets one, and the inserted
		// block's last line goes without, as the file's last line did.
		return text + "\n" + strings.TrimSuffix(ins, "\n"), nil
	}
	off := lineStart(text, after)
	return text[:off] + ins + text[off:], nil
}

// numberLines renders lines from..to (1-based, inclusive, clipped to the
// text) in cat -n style, cutting very long lines.
func numberLines(text string, from, to int) string {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	from = max(from, 1)
	to = min(to, len(lines))
	var b strings.Builder
	for i := from; i <= to; i++ {
		l := strings.TrimSuffix(strings.TrimSuffix(lines[i-1], "\n"), "\r")
		writeNumbered(&b, i, l, len(l))
	}
	return b.String()
}

// maxLineDisplay is where the lines text_editor shows are cut.
const maxLineDisplay = 2000

// writeNumbered writes one numbered line in cat -n style. full is the
// line's whole length, which may exceed len(line) when the reader kept only
// its start; lines beyond maxLineDisplay bytes are cut with a note.
func writeNumbered(b *strings.Builder, n int, line string, full int) {
	fmt.Fprintf(b, "%6d\t", n)
	if full > maxLineDisplay || len(line) > maxLineDisplay {
		cut := min(maxLineDisplay, len(line))
		for cut > 0 && cut < len(line) && !utf8.RuneStart(line[cut]) {
			cut--
		}
		b.WriteString(line[:cut])
		b.WriteString(" [… line cut: " + strconv.Itoa(max(full, len(line))-cut) + " more bytes]")
	} else {
		b.WriteString(line)
	}
	b.WriteByte('\n')
}

// snippet shows the lines from..to of text with a few lines of context,
// bounded so a huge edit does not flood the result.
func snippet(text string, from, to int) string {
	const context, maxLines = 3, 60
	if to < from {
		to = from
	}
	return Truncate(numberLines(text, from-context, to+context), maxLines, 16<<10)
}

// normLine reduces a line to its words, for whitespace-insensitive matching.
func normLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// splitLines splits text into lines without their line breaks.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// noMatchHint explains why old was not found in text and shows the closest
// candidate, so the model can retry with the file's exact text.
func noMatchHint(text, old, rel string) string {
	lines := splitLines(text)
	want := splitLines(strings.Trim(old, "\n"))
	for len(want) > 0 && strings.TrimSpace(want[0]) == "" {
		want = want[1:]
	}
	for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
		want = want[:len(want)-1]
	}
	base := fmt.Sprintf("old_str was not found in %s", rel)
	if len(want) == 0 || len(lines) == 0 {
		return base + ": view the file and copy the exact text to replace"
	}
	norm := make([]string, len(want))
	for i, w := range want {
		norm[i] = normLine(w)
	}
	fileNorm := make([]string, len(lines))
	for i, l := range lines {
		fileNorm[i] = normLine(l)
	}

	// Whitespace-insensitive: the usual miss (tabs vs spaces, indentation,
	// trailing blanks). The comparisons are bounded: a hint is not worth
	// more than a few milliseconds.
	var hits []int
	budget := 1_000_000
	for i := 0; i+len(norm) <= len(fileNorm) && budget > 0; i++ {
		match := true
		for j := range norm {
			budget--
			if fileNorm[i+j] != norm[j] {
				match = false
				break
			}
		}
		if match {
			hits = append(hits, i)
		}
	}
	if len(hits) > 0 {
		i := hits[0]
		more := ""
		if len(hits) > 1 {
			more = fmt.Sprintf(" (and %d more places)", len(hits)-1)
		}
		return fmt.Sprintf("%s exactly, but it matches lines %d-%d%s when whitespace is ignored; the whitespace differs (indentation, tabs or trailing spaces). The file has:\n%s",
			base, i+1, i+len(norm), more, Truncate(numberLines(text, i+1, i+len(norm)), 40, 8<<10))
	}

	// Otherwise the window sharing most lines with old_str, or the line most
	// like its first line. Bounded: very large files just get the advice.
	if len(lines)*len(norm) <= 1_000_000 {
		best, bestAt := 0, -1
		for i := 0; i+len(norm) <= len(fileNorm) || (i == 0 && len(fileNorm) < len(norm)); i++ {
			score := 0
			for j := range norm {
				if i+j < len(fileNorm) && norm[j] != "" && fileNorm[i+j] == norm[j] {
					score++
				}
			}
			if score > best {
				best, bestAt = score, i
			}
		}
		// One shared line ("}") is chance; a third of them is a candidate.
		if bestAt >= 0 && best >= 2 && 3*best >= len(norm) {
			end := min(bestAt+len(norm), len(lines))
			return fmt.Sprintf("%s; the closest text is at lines %d-%d (%d of %d lines match):\n%s",
				base, bestAt+1, end, best, len(norm), Truncate(numberLines(text, bestAt+1, end), 40, 8<<10))
		}
	}
	if len(lines) <= 20_000 && norm[0] != "" && len(norm[0]) <= 1000 {
		best, bestAt := 0.0, -1
		for i, l := range fileNorm {
			if s := similarity(l, norm[0]); s > best {
				best, bestAt = s, i
			}
		}
		if best >= 0.6 {
			return fmt.Sprintf("%s; the line most like its first line is line %d:\n%s",
				base, bestAt+1, numberLines(text, bestAt+1, bestAt+1))
		}
	}
	return base + ": view the file and copy the exact text to replace"
}

// similarity is the Dice coefficient of the two strings' byte bigrams (0..1).
func similarity(a, b string) float64 {
	if a == b {
		return 1
	}
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	if len(a) > 4*len(b) || len(b) > 4*len(a) {
		return 0
	}
	counts := map[string]int{}
	for i := 0; i+2 <= len(a); i++ {
		counts[a[i:i+2]]++
	}
	common := 0
	for i := 0; i+2 <= len(b); i++ {
		if counts[b[i:i+2]] > 0 {
			counts[b[i:i+2]]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)-1+len(b)-1)
}

// lineList formats line numbers for a message: "12, 40, 77", bounded.
func lineList(lines []int) string {
	const show = 12
	parts := make([]string, 0, min(len(lines), show))
	for i, l := range lines {
		if i == show {
			break
		}
		parts = append(parts, strconv.Itoa(l))
	}
	s := strings.Join(parts, ", ")
	if len(lines) > show {
		s += fmt.Sprintf(" and %d more", len(lines)-show)
	}
	return s
}

// diffStat counts the added and removed lines of a unified diff.
func diffStat(diff string) (added, removed int) {
	inHunk := false
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			inHunk = true
		case !inHunk:
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return added, removed
}
