package editor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/theme"
)

// diffContext is how many unchanged lines a diff shows around a change.
const diffContext = 3

// changeMarks returns the gutter marks for a text after changes: '+' on
// added lines, '~' on rewritten ones (both tinted), '-' where lines were
// removed.
func changeMarks(changes []LineChange, lineCount int, th theme.Theme) []decor {
	d := make([]decor, lineCount)
	for _, c := range changes {
		if c.NewEnd > c.NewStart {
			mark, color := '+', th.Added
			if c.End > c.Start {
				mark, color = '~', th.Warning
			}
			for l := c.NewStart; l < c.NewEnd && l < lineCount; l++ {
				d[l] = decor{mark: mark, markColor: color, tint: th.Changed}
			}
			continue
		}
		l := min(c.NewStart, lineCount-1)
		if l >= 0 && d[l].mark == 0 {
			d[l] = decor{mark: '-', markColor: th.Removed}
		}
	}
	return d
}

// firstChanged returns the first line the changes touch in the new text.
func firstChanged(changes []LineChange) int {
	if len(changes) == 0 {
		return 0
	}
	return changes[0].NewStart
}

// removedTint derives a background for removed lines from the theme: the
// Removed colour pulled toward the ground the way Changed is.
func removedTint(th theme.Theme) tcell.Color {
	r, g, b := th.Removed.RGB()
	cr, cg, cb := th.Changed.RGB()
	if cr < 0 {
		return tcell.ColorDefault
	}
	if (cr+cg+cb)/3 < 128 { // dark theme: a dark red
		return tcell.NewRGBColor(r/4, g/5, b/5)
	}
	return tcell.NewRGBColor(255-(255-r)/6, 255-(255-g)/6, 255-(255-b)/6)
}

// hunk is one hunk of a diff document: its rows there (doc0 ≤ row < doc1,
// the @@ row first) and the lines it spans in the old and the new text.
type hunk struct {
	doc0, doc1       int
	oldFrom, oldTo   int
	newFrom, newTo   int
	firstChangedLine int // the hunk's first added line in the new text (or where it removed)
}

// hunkSpan is one hunk before it is laid out: changes[i:j], and the lines
// it shows of the old and the new text (the changes and their context).
type hunkSpan struct {
	i, j           int
	oldFrom, oldTo int
	newFrom, newTo int
}

// hunkSpans groups changes into hunks: the changes whose context would
// touch go together.
func hunkSpans(changes []LineChange, oldLen int) []hunkSpan {
	var spans []hunkSpan
	for i := 0; i < len(changes); {
		j := i + 1
		for j < len(changes) && changes[j].Start-changes[j-1].End <= 2*diffContext {
			j++
		}
		first, last := changes[i], changes[j-1]
		oldFrom := max(0, first.Start-diffContext)
		oldTo := min(oldLen, last.End+diffContext)
		spans = append(spans, hunkSpan{i: i, j: j, oldFrom: oldFrom, oldTo: oldTo,
			newFrom: first.NewStart - (first.Start - oldFrom), newTo: last.NewEnd + (oldTo - last.End)})
		i = j
	}
	return spans
}

func (s hunkSpan) header() string {
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", s.oldFrom+1, s.oldTo-s.oldFrom, s.newFrom+1, s.newTo-s.newFrom)
}

func (s hunkSpan) hunk(doc0 int, changes []LineChange) hunk {
	return hunk{doc0: doc0, oldFrom: s.oldFrom, oldTo: s.oldTo, newFrom: s.newFrom, newTo: s.newTo, firstChangedLine: changes[s.i].NewStart}
}

// diffLinesOf parses both versions for a diff (nil before: no file).
func diffLinesOf(before, after []byte) (a, b []string, changes []LineChange) {
	a, _ = parse(before)
	if before == nil {
		a = nil
	}
	b, _ = parse(after)
	return a, b, diffLines(a, b)
}

// diffDocHunks lays out the difference between two versions of a file as a
// read-only document: hunks with a few lines of context, removed lines
// tinted red and numbered as before, added lines tinted green and numbered
// as after, each hunk under an "@@ -a,b +c,d @@" line. It returns the
// document, its decorations, the number of changed lines and the hunks.
func diffDocHunks(before, after []byte, th theme.Theme) (*Buffer, []decor, int, []hunk) {
	var hunks []hunk
	a, b, changes := diffLinesOf(before, after)
	var lines []string
	var decs []decor
	add := func(text string, d decor) {
		lines = append(lines, text)
		decs = append(decs, d)
	}
	rm := removedTint(th)
	changedLines := 0
	for _, s := range hunkSpans(changes, len(a)) {
		hunks = append(hunks, s.hunk(len(lines), changes))
		add(s.header(), decor{hasLabel: true, fg: th.Accent})
		o, n := s.oldFrom, s.newFrom
		for _, c := range changes[s.i:s.j] {
			for ; o < c.Start; o, n = o+1, n+1 {
				add(a[o], decor{hasLabel: true, label: strconv.Itoa(n + 1)})
			}
			for ; o < c.End; o++ {
				add(a[o], decor{mark: '-', markColor: th.Removed, tint: rm, hasLabel: true, label: strconv.Itoa(o + 1)})
				changedLines++
			}
			for ; n < c.NewEnd; n++ {
				add(b[n], decor{mark: '+', markColor: th.Added, tint: th.Changed, hasLabel: true, label: strconv.Itoa(n + 1)})
				changedLines++
			}
		}
		for ; o < s.oldTo; o, n = o+1, n+1 {
			add(a[o], decor{hasLabel: true, label: strconv.Itoa(n + 1)})
		}
		hunks[len(hunks)-1].doc1 = len(lines)
	}
	if len(lines) == 0 {
		add("(no differences)", decor{hasLabel: true})
	}
	buf := &Buffer{lines: lines, fmt: format{eol: "\n", finalNL: true}}
	return buf, decs, changedLines, hunks
}

// splitDoc lays out the same hunks as diffDoc side by side: the old text
// on the left, numbered as before, the new on the right, numbered as
// after, row for row. A change's removed and added lines share rows; where
// one side has fewer, a blank filler row keeps the rest aligned.
func splitDoc(before, after []byte, th theme.Theme) (left, right *Buffer, ldec, rdec []decor, hunks []hunk) {
	a, b, changes := diffLinesOf(before, after)
	var ll, rl []string
	add := func(lt string, ld decor, rt string, rd decor) {
		ll, ldec = append(ll, lt), append(ldec, ld)
		rl, rdec = append(rl, rt), append(rdec, rd)
	}
	rm := removedTint(th)
	filler := decor{hasLabel: true, tint: th.CursorLine}
	for _, s := range hunkSpans(changes, len(a)) {
		hunks = append(hunks, s.hunk(len(ll), changes))
		head := decor{hasLabel: true, fg: th.Accent}
		add(fmt.Sprintf("@@ -%d,%d", s.oldFrom+1, s.oldTo-s.oldFrom), head, fmt.Sprintf("+%d,%d @@", s.newFrom+1, s.newTo-s.newFrom), head)
		o, n := s.oldFrom, s.newFrom
		context := func() {
			add(a[o], decor{hasLabel: true, label: strconv.Itoa(o + 1)}, b[n], decor{hasLabel: true, label: strconv.Itoa(n + 1)})
			o, n = o+1, n+1
		}
		for _, c := range changes[s.i:s.j] {
			for o < c.Start {
				context()
			}
			for k := 0; k < max(c.End-c.Start, c.NewEnd-c.NewStart); k++ {
				lt, ld, rt, rd := "", filler, "", filler
				if o < c.End {
					lt, ld = a[o], decor{mark: '-', markColor: th.Removed, tint: rm, hasLabel: true, label: strconv.Itoa(o + 1)}
					o++
				}
				if n < c.NewEnd {
					rt, rd = b[n], decor{mark: '+', markColor: th.Added, tint: th.Changed, hasLabel: true, label: strconv.Itoa(n + 1)}
					n++
				}
				add(lt, ld, rt, rd)
			}
		}
		for o < s.oldTo {
			context()
		}
		hunks[len(hunks)-1].doc1 = len(ll)
	}
	if len(ll) == 0 {
		add("(no differences)", decor{hasLabel: true}, "", decor{hasLabel: true})
	}
	f := format{eol: "\n", finalNL: true}
	return &Buffer{lines: ll, fmt: f}, &Buffer{lines: rl, fmt: f}, ldec, rdec, hunks
}

// revertHunk is after with hunk h put back as it was in before, framed
// (line breaks, BOM) as after is; the final newline is before's when the
// hunk reaches the end of both.
func revertHunk(before, after []byte, h hunk) []byte {
	a, fa := parse(before)
	if before == nil {
		a = nil
	}
	b, fb := parse(after)
	lines := append(append(append([]string(nil), b[:h.newFrom]...), a[h.oldFrom:h.oldTo]...), b[h.newTo:]...)
	f := fb
	if h.newTo == len(b) && h.oldTo == len(a) {
		f.finalNL = fa.finalNL
	}
	if len(lines) == 0 {
		return nil
	}
	return (&Buffer{lines: lines, fmt: f}).Bytes()
}

// diffSummary is "+3 −1" for a diff's status line.
func diffSummary(before, after []byte) string {
	plus, minus := diffCounts(before, after)
	return strings.TrimSpace(fmt.Sprintf("+%d −%d", plus, minus))
}

// diffCounts is how many lines the diff from before to after adds and
// removes (nil before: no file).
func diffCounts(before, after []byte) (plus, minus int) {
	_, _, changes := diffLinesOf(before, after)
	for _, c := range changes {
		plus += c.NewEnd - c.NewStart
		minus += c.End - c.Start
	}
	return plus, minus
}
