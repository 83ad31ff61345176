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

// diffDoc lays out the difference between two versions of a file as a
// read-only document: hunks with a few lines of context, removed lines
// tinted red and numbered as before, added lines tinted green and numbered
// as after, each hunk under an "@@ -a,b +c,d @@" line.
func diffDoc(before, after []byte, th theme.Theme) (*Buffer, []decor, int) {
	buf, decs, n, _ := diffDocHunks(before, after, th)
	return buf, decs, n
}

// hunk is one hunk of a diff document: its rows there (doc0 ≤ row < doc1,
// the @@ row first) and the lines it spans in the old and the new text.
type hunk struct {
	doc0, doc1       int
	oldFrom, oldTo   int
	newFrom, newTo   int
	firstChangedLine int // the hunk's first added line in the new text (or where it removed)
}

// diffDocHunks is diffDoc with the hunks it shows.
func diffDocHunks(before, after []byte, th theme.Theme) (*Buffer, []decor, int, []hunk) {
	var hunks []hunk
	a, _ := parse(before)
	if before == nil {
		a = nil
	}
	b, _ := parse(after)
	changes := diffLines(a, b)
	var lines []string
	var decs []decor
	add := func(text string, d decor) {
		lines = append(lines, text)
		decs = append(decs, d)
	}
	rm := removedTint(th)
	changedLines := 0
	for i := 0; i < len(changes); {
		// A hunk takes the changes whose context would touch.
		j := i + 1
		for j < len(changes) && changes[j].Start-changes[j-1].End <= 2*diffContext {
			j++
		}
		first, last := changes[i], changes[j-1]
		oldFrom := max(0, first.Start-diffContext)
		oldTo := min(len(a), last.End+diffContext)
		newFrom := first.NewStart - (first.Start - oldFrom)
		newTo := last.NewEnd + (oldTo - last.End)
		h := decor{hasLabel: true, fg: th.Accent}
		hunks = append(hunks, hunk{doc0: len(lines), oldFrom: oldFrom, oldTo: oldTo, newFrom: newFrom, newTo: newTo, firstChangedLine: first.NewStart})
		add(fmt.Sprintf("@@ -%d,%d +%d,%d @@", oldFrom+1, oldTo-oldFrom, newFrom+1, newTo-newFrom), h)
		o, n := oldFrom, newFrom
		for k := i; k < j; k++ {
			c := changes[k]
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
		for ; o < oldTo; o, n = o+1, n+1 {
			add(a[o], decor{hasLabel: true, label: strconv.Itoa(n + 1)})
		}
		hunks[len(hunks)-1].doc1 = len(lines)
		i = j
	}
	if len(lines) == 0 {
		add("(no differences)", decor{hasLabel: true})
	}
	buf := &Buffer{lines: lines, fmt: format{eol: "\n", finalNL: true}}
	return buf, decs, changedLines, hunks
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
	a, _ := parse(before)
	if before == nil {
		a = nil
	}
	b, _ := parse(after)
	for _, c := range diffLines(a, b) {
		plus += c.NewEnd - c.NewStart
		minus += c.End - c.Start
	}
	return plus, minus
}
