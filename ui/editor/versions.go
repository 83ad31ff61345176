package editor

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// VersionText is one version of a file for ShowVersions.
type VersionText struct {
	Title string
	// Content is the text (nil and Missing "": there is no such file).
	Content []byte
	// Missing says why the content is not known.
	Missing string
}

// VersionChoice is an answer the versions view takes, by the key bound to
// its action (ActionVersionsOverwrite, ActionVersionsKeep), and what it
// does.
type VersionChoice struct {
	Action keymap.Action
	Label  string
	Do     func()
}

// versionsView shows versions of a file in columns, row for row.
type versionsView struct {
	cols    []*CodeView
	choices []VersionChoice
	status  string
}

// ShowVersions shows three versions of the file at path side by side in
// its tab, aligned on the middle one: rows where neither side differs
// from it show the three same lines; where one does, each column shows
// its own lines there, tinted, with blank fillers. The keys of choices
// close the view and run their Do; the key of ActionVersionsKeep (Esc)
// closes it even when no choice names it.
func (t *Tabs) ShowVersions(path string, vs [3]VersionText, choices []VersionChoice) error {
	tb, err := t.tabFor(path)
	if err != nil {
		return err
	}
	var texts [3][]string
	for i, v := range vs {
		switch {
		case v.Content == nil:
		case bytes.IndexByte(v.Content, 0) >= 0:
			vs[i].Content, vs[i].Missing = nil, fmt.Sprintf("binary, %d bytes: not shown", len(v.Content))
		case int64(len(v.Content)) > t.maxSize:
			vs[i].Content, vs[i].Missing = nil, fmt.Sprintf("%d bytes, too large to show here", len(v.Content))
		default:
			texts[i], _ = parse(v.Content)
		}
	}
	rows := alignThree(texts[0], texts[1], texts[2])
	vv := &versionsView{choices: choices}
	for c := range 3 {
		lines := []string{vs[c].Title}
		decs := []decor{{hasLabel: true, fg: t.th.Accent}}
		switch {
		case vs[c].Missing != "":
			lines, decs = append(lines, "("+vs[c].Missing+")"), append(decs, decor{hasLabel: true, fg: t.th.Dim})
		case vs[c].Content == nil:
			lines, decs = append(lines, "(no such file)"), append(decs, decor{hasLabel: true, fg: t.th.Dim})
		}
		for _, r := range rows {
			d := decor{hasLabel: true}
			text := ""
			if r.line[c] >= 0 {
				text = texts[c][r.line[c]]
				d.label = strconv.Itoa(r.line[c] + 1)
			}
			switch {
			case r.line[c] < 0 && r.differs:
				d.tint = t.th.CursorLine
			case r.differs && c != 1 && r.side[c/2]:
				d.mark, d.markColor, d.tint = '~', t.th.Warning, t.th.Changed
			case r.differs:
				d.tint = t.th.CursorLine
			}
			lines, decs = append(lines, text), append(decs, d)
		}
		v := t.diffView(tb, &Buffer{lines: lines, fmt: format{eol: "\n", finalNL: true}}, decs)
		vv.cols = append(vv.cols, v)
	}
	first := 0
	for i, r := range rows {
		if r.differs {
			first = i + 1
			break
		}
	}
	vv.cols[0].SetCursor(Pos{Line: first})
	vv.cols[0].ScrollTo(max(0, first-3))
	var keys []string
	for _, c := range choices {
		if k := t.keyset.Versions.Hint(c.Action); k != "" {
			keys = append(keys, k+": "+c.Label)
		}
	}
	vv.status = strings.Join(keys, " · ")
	tb.versions = vv
	t.activate(t.indexOf(tb))
	return nil
}

// versionsKey answers the versions view's choices.
func (t *Tabs) versionsKey(tb *tab, ev *tcell.EventKey) bool {
	a := t.keyset.Versions.ActionFold(ev)
	if a == "" {
		return false
	}
	for _, c := range tb.versions.choices {
		if c.Action == a {
			tb.versions = nil
			if c.Do != nil {
				c.Do()
			}
			return true
		}
	}
	if a == ActionVersionsKeep {
		tb.versions = nil
		return true
	}
	return false
}

// alignedRow is one row of three aligned versions: the line of each (-1:
// a filler), whether the row is in a region where a side differs from
// the middle, and which side does (left, right).
type alignedRow struct {
	line    [3]int
	differs bool
	side    [2]bool
}

// alignThree aligns left and right on base, as diff3 does: the regions
// where either differs from base are found from both diffs, merged where
// they overlap; elsewhere the three run in step.
func alignThree(left, base, right []string) []alignedRow {
	L, R := diffLines(base, left), diffLines(base, right)
	var rows []alignedRow
	pos, lpos, rpos := 0, 0, 0
	i, j := 0, 0
	stable := func(to int) {
		for ; pos < to; pos, lpos, rpos = pos+1, lpos+1, rpos+1 {
			rows = append(rows, alignedRow{line: [3]int{lpos, pos, rpos}})
		}
	}
	for i < len(L) || j < len(R) {
		s := len(base)
		if i < len(L) {
			s = L[i].Start
		}
		if j < len(R) {
			s = min(s, R[j].Start)
		}
		stable(s)
		// The region: every change that starts at s, then every one that
		// starts inside what the region covers so far.
		e := s
		dl, dr := 0, 0 // lines the region adds on each side
		var inL, inR bool
		for {
			took := false
			if i < len(L) && (L[i].Start == s || L[i].Start < e) {
				e = max(e, L[i].End)
				dl += (L[i].NewEnd - L[i].NewStart) - (L[i].End - L[i].Start)
				i, took, inL = i+1, true, true
			}
			if j < len(R) && (R[j].Start == s || R[j].Start < e) {
				e = max(e, R[j].End)
				dr += (R[j].NewEnd - R[j].NewStart) - (R[j].End - R[j].Start)
				j, took, inR = j+1, true, true
			}
			if !took {
				break
			}
		}
		nl, nb, nr := e-s+dl, e-s, e-s+dr
		for k := range max(nl, nb, nr) {
			r := alignedRow{line: [3]int{-1, -1, -1}, differs: true, side: [2]bool{inL, inR}}
			if k < nl {
				r.line[0] = lpos + k
			}
			if k < nb {
				r.line[1] = pos + k
			}
			if k < nr {
				r.line[2] = rpos + k
			}
			rows = append(rows, r)
		}
		pos, lpos, rpos = e, lpos+nl, rpos+nr
	}
	stable(len(base))
	return rows
}
