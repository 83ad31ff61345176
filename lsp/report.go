package lsp

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// severityName names a diagnostic's severity; a server that gives none
// means an error.
func severityName(s int) string {
	switch s {
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "error"
}

// serious says whether the model hears of d: errors and warnings.
func serious(d Diagnostic) bool { return d.Severity <= SeverityWarning }

// key identifies a diagnostic apart from where it is, so that lines moved
// by an edit do not make old problems look new.
func key(d Diagnostic) string {
	return fmt.Sprintf("%d\x00%s\x00%s\x00%s", d.Severity, d.Source, d.Code, d.Message)
}

// newOnes splits after into the diagnostics not in before (counting
// duplicates) and those that were.
func newOnes(before, after []Diagnostic) (fresh, old []Diagnostic) {
	had := map[string]int{}
	for _, d := range before {
		had[key(d)]++
	}
	for _, d := range after {
		if k := key(d); had[k] > 0 {
			had[k]--
			old = append(old, d)
		} else {
			fresh = append(fresh, d)
		}
	}
	return fresh, old
}

func onlySerious(ds []Diagnostic) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if serious(d) {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Range.Start.Line != b.Range.Start.Line {
			return a.Range.Start.Line < b.Range.Start.Line
		}
		return a.Range.Start.Character < b.Range.Start.Character
	})
	return out
}

// line formats one diagnostic as a compiler would:
// "main.go:12:5: error: undefined: Foo (compiler)".
func (m *Manager) line(c *client, path string, d Diagnostic) string {
	text := c.text(path)
	col := column(lineAt(text, d.Range.Start.Line), d.Range.Start.Character, c.utf8)
	msg := strings.Join(strings.Fields(strings.ReplaceAll(d.Message, "\n", "; ")), " ")
	s := fmt.Sprintf("%s:%d:%d: %s: %s", m.rel(path), d.Range.Start.Line+1, col, severityName(d.Severity), msg)
	if d.Source != "" {
		s += " (" + d.Source + ")"
	}
	return s
}

// list formats diagnostics, at most maxErr errors and maxWarn warnings,
// saying how many more there are.
func (m *Manager) list(c *client, path string, ds, _ []Diagnostic, maxErr, maxWarn int) string {
	var b strings.Builder
	nErr, nWarn, left := 0, 0, 0
	for _, d := range onlySerious(ds) {
		if d.Severity == SeverityWarning {
			if nWarn++; nWarn > maxWarn {
				left++
				continue
			}
		} else if nErr++; nErr > maxErr {
			left++
			continue
		}
		b.WriteString(m.line(c, path, d))
		b.WriteByte('\n')
	}
	if left > 0 {
		fmt.Fprintf(&b, "… and %d more in %s (the diagnostics tool lists a file's)\n", left, m.rel(path))
	}
	return b.String()
}

// report is what the model hears after an edit of path: the problems the
// edit brought, apart from those that were there before.
func (m *Manager) report(name string, c *client, path string, before, after map[string][]Diagnostic, fresh bool, wait time.Duration) string {
	rel := m.rel(path)
	var b strings.Builder
	if !fresh {
		fmt.Fprintf(&b, "(%s did not report on %s within %s: what follows may predate this edit; the diagnostics tool asks again)\n", name, rel, wait.Round(100*time.Millisecond))
	}
	fresh_, old := newOnes(onlySerious(before[path]), onlySerious(after[path]))
	var others []string
	for p, ds := range after {
		if p == path {
			continue
		}
		f, _ := newOnes(onlySerious(before[p]), onlySerious(ds))
		for _, d := range f {
			if d.Severity != SeverityWarning {
				others = append(others, m.line(c, p, d))
			}
		}
	}
	sort.Strings(others)
	fixed := len(onlySerious(before[path])) - len(old)
	if len(fresh_) == 0 && len(old) == 0 && len(others) == 0 {
		s := fmt.Sprintf("%s: no errors or warnings in %s", name, rel)
		if fixed > 0 {
			s += fmt.Sprintf(" (%d fixed by this edit)", fixed)
		}
		return b.String() + s + "."
	}
	fmt.Fprintf(&b, "%s, after this edit:\n", name)
	if len(fresh_) > 0 {
		fmt.Fprintf(&b, "New in %s (%d):\n%s", rel, len(fresh_), m.list(c, path, fresh_, nil, 20, 10))
	} else {
		fmt.Fprintf(&b, "Nothing new in %s.\n", rel)
	}
	if len(old) > 0 {
		fmt.Fprintf(&b, "Already there before this edit (%d, not caused by it):\n%s", len(old), m.list(c, path, old, nil, 5, 3))
	}
	if fixed > 0 {
		fmt.Fprintf(&b, "Fixed by this edit: %d.\n", fixed)
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, "New errors in other files (%d):\n", len(others))
		for i, o := range others {
			if i == 10 {
				fmt.Fprintf(&b, "… and %d more\n", len(others)-10)
				break
			}
			b.WriteString(o + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
