package editor

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Problem is a diagnostic of a file as a language server reports it:
// zero-based lines, byte offsets within them.
type Problem struct {
	Line, Col, EndLine, EndCol int
	// Severity: 1 error, 2 warning, 3 information, 4 hint.
	Severity int
	Message  string
	Source   string
}

// SetProblems replaces path's problems (its tab shows them now, or when
// it opens). Safe only on the UI goroutine.
func (t *Tabs) SetProblems(path string, ps []Problem) {
	p := t.canon(path)
	ps = append([]Problem(nil), ps...)
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Col < ps[j].Col
	})
	if t.problems == nil {
		t.problems = map[string][]Problem{}
	}
	if len(ps) == 0 {
		delete(t.problems, p)
	} else {
		t.problems[p] = ps
	}
	if tb := t.find(p); tb != nil {
		tb.view.problems = ps
	}
}

// SetCodeNav sets what F12 (definition) and the hover key ask: what is
// "definition" or "hover"; line and col (in characters) are one-based.
func (t *Tabs) SetCodeNav(f func(what, path string, line, col int)) { t.codeNav = f }

// problemCounts counts a tab's errors and warnings.
func problemCounts(ps []Problem) (errs, warns int) {
	for _, p := range ps {
		switch {
		case p.Severity <= 1:
			errs++
		case p.Severity == 2:
			warns++
		}
	}
	return errs, warns
}

// problemColor is the colour of a severity.
func (v *CodeView) problemColor(sev int) tcell.Color {
	if sev <= 1 {
		return v.th.Error
	}
	if sev == 2 {
		return v.th.Warning
	}
	return v.th.Dim
}

// lineProblem is the most severe problem that starts on line, or nil.
func (v *CodeView) lineProblem(line int) *Problem {
	var best *Problem
	for i := range v.problems {
		p := &v.problems[i]
		if p.Line > line {
			break
		}
		if p.Line == line && (best == nil || p.Severity < best.Severity) {
			best = p
		}
	}
	return best
}

// underlined is the problem whose range holds byte off of line, or nil.
func (v *CodeView) underlined(line, off, lineLen int) *Problem {
	for i := range v.problems {
		p := &v.problems[i]
		if p.Line > line {
			break
		}
		if p.Severity > 2 || line > p.EndLine {
			continue
		}
		from, to := 0, lineLen
		if line == p.Line {
			from = p.Col
		}
		if line == p.EndLine {
			to = p.EndCol
		}
		if to <= from {
			to = from + 1 // an empty range marks the character at it
		}
		if off >= from && off < to {
			return p
		}
	}
	return nil
}

// problemStatus is the status line's text for the cursor's line.
func (v *CodeView) problemStatus() (string, tcell.Color) {
	p := v.lineProblem(v.cursor.Line)
	if p == nil {
		// A problem whose range covers the cursor's line.
		for i := range v.problems {
			q := &v.problems[i]
			if q.Line <= v.cursor.Line && v.cursor.Line <= q.EndLine {
				p = q
				break
			}
		}
	}
	if p == nil {
		return "", 0
	}
	msg := strings.Join(strings.Fields(p.Message), " ")
	s := fmt.Sprintf("%s: %s", severityWord(p.Severity), msg)
	if p.Source != "" {
		s += " (" + p.Source + ")"
	}
	return s, v.problemColor(p.Severity)
}

func severityWord(s int) string {
	switch s {
	case 2:
		return "warning"
	case 3:
		return "info"
	case 4:
		return "hint"
	}
	return "error"
}

// stepProblem moves the cursor to the next (or previous) problem, around
// the end of the file; it says where it went.
func (t *Tabs) stepProblem(tb *tab, next bool) {
	ps := tb.view.problems
	if len(ps) == 0 {
		tb.flash = "no problems reported in this file"
		return
	}
	cur := tb.view.cursor
	i := -1
	if next {
		for j, p := range ps {
			if p.Line > cur.Line || (p.Line == cur.Line && p.Col > cur.Col) {
				i = j
				break
			}
		}
		if i < 0 {
			i = 0
		}
	} else {
		for j := len(ps) - 1; j >= 0; j-- {
			if p := ps[j]; p.Line < cur.Line || (p.Line == cur.Line && p.Col < cur.Col) {
				i = j
				break
			}
		}
		if i < 0 {
			i = len(ps) - 1
		}
	}
	p := ps[i]
	tb.view.SetCursor(tb.buf.Clamp(Pos{Line: p.Line, Col: p.Col}))
	tb.view.CenterOn(p.Line)
	e, w := problemCounts(ps)
	tb.flash = fmt.Sprintf("problem %d of %d (%s, %s)", i+1, len(ps), count(e, "error"), count(w, "warning"))
}

func (t *Tabs) problemLine(tb *tab) string {
	s, _ := tb.view.problemStatus()
	return s
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
