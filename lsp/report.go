package lsp

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/tools"
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
func (m *Manager) report(ctx context.Context, name string, c *client, path string, before, after map[string][]Diagnostic, fresh bool, wait time.Duration) string {
	rel := m.rel(path)
	var b strings.Builder
	fresh_, old := newOnes(onlySerious(before[path]), onlySerious(after[path]))
	others := m.newErrors(ctx, c, []string{path}, before, after)
	if !fresh && len(fresh_) == 0 && len(old) == 0 && len(others) == 0 {
		// Silence is not a clean bill: a server still loading the project
		// publishes nothing, or an empty list, for a file it has not
		// analysed.
		return notChecked(name, rel, wait)
	}
	if !fresh {
		fmt.Fprintf(&b, "(%s did not report on %s within %s: what follows may predate this edit; the diagnostics tool asks again)\n", name, rel, wait.Round(100*time.Millisecond))
	}
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
	writeOthers(&b, others)
	return strings.TrimRight(b.String(), "\n")
}

// commandReport is what the model hears after an agent command changed
// paths: per file, the problems that are new since the server last had it
// (all of them, for a file it had not open), and new errors elsewhere.
func (m *Manager) commandReport(ctx context.Context, name string, c *client, paths []string, wasOpen map[string]bool, before, after map[string][]Diagnostic, late []string, wait time.Duration) string {
	var b strings.Builder
	if len(late) > 0 {
		fmt.Fprintf(&b, "(%s did not report on %s within %s: what follows may predate this command; the diagnostics tool asks again)\n", name, strings.Join(late, ", "), wait.Round(100*time.Millisecond))
	}
	var rels, clean, unchecked []string
	isLate := map[string]bool{}
	for _, l := range late {
		isLate[l] = true
	}
	var body strings.Builder
	fixed := 0
	shown := paths[:0:0]
	for _, p := range paths {
		if !tools.Hidden(ctx, p) {
			shown = append(shown, p)
		}
	}
	if len(shown) == 0 {
		return ""
	}
	for _, p := range shown {
		rel := m.rel(p)
		rels = append(rels, rel)
		now := onlySerious(after[p])
		if isLate[rel] && len(now) == 0 {
			unchecked = append(unchecked, rel)
			continue
		}
		if !wasOpen[p] {
			if len(now) == 0 {
				clean = append(clean, rel)
				continue
			}
			fmt.Fprintf(&body, "In %s (%d; fawn had not checked it before this command):\n%s", rel, len(now), m.list(c, p, now, nil, 10, 5))
			continue
		}
		fresh, old := newOnes(onlySerious(before[p]), now)
		fixed += len(onlySerious(before[p])) - len(old)
		switch {
		case len(fresh) > 0:
			fmt.Fprintf(&body, "New in %s (%d):\n%s", rel, len(fresh), m.list(c, p, fresh, nil, 10, 5))
			if len(old) > 0 {
				fmt.Fprintf(&body, "Already there in %s before this command (%d).\n", rel, len(old))
			}
		case len(old) > 0:
			fmt.Fprintf(&body, "Nothing new in %s; already there before this command (%d):\n%s", rel, len(old), m.list(c, p, old, nil, 3, 2))
		default:
			clean = append(clean, rel)
		}
	}
	others := m.newErrors(ctx, c, paths, before, after)
	what := fmt.Sprintf("the %d files this command changed", len(shown))
	if len(shown) == 1 {
		what = rels[0] + ", which this command changed"
	}
	if body.Len() == 0 && len(others) == 0 && len(unchecked) > 0 {
		s := notChecked(name, strings.Join(unchecked, ", "), wait)
		if len(clean) > 0 {
			s += fmt.Sprintf(" No errors or warnings in %s.", strings.Join(clean, ", "))
		}
		return s
	}
	if body.Len() == 0 && len(others) == 0 {
		s := fmt.Sprintf("%s: no errors or warnings in %s", name, what)
		if fixed > 0 {
			s += fmt.Sprintf(" (%d fixed by it)", fixed)
		}
		return b.String() + s + "."
	}
	fmt.Fprintf(&b, "%s, after this command (it changed %s):\n", name, strings.Join(rels, ", "))
	b.WriteString(body.String())
	if len(clean) > 0 {
		fmt.Fprintf(&b, "No errors or warnings in %s.\n", strings.Join(clean, ", "))
	}
	if len(unchecked) > 0 {
		fmt.Fprintf(&b, "Not checked yet: %s (%s had not analysed them).\n", strings.Join(unchecked, ", "), name)
	}
	if fixed > 0 {
		fmt.Fprintf(&b, "Fixed by this command: %d.\n", fixed)
	}
	writeOthers(&b, others)
	return strings.TrimRight(b.String(), "\n")
}

// newErrors lists, as lines, the errors in files other than paths that
// are in after and were not in before, leaving out the files ctx hides.
func (m *Manager) newErrors(ctx context.Context, c *client, paths []string, before, after map[string][]Diagnostic) []string {
	var others []string
	for p, ds := range after {
		if slices.Contains(paths, p) || tools.Hidden(ctx, p) {
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
	return others
}

func writeOthers(b *strings.Builder, others []string) {
	if len(others) == 0 {
		return
	}
	fmt.Fprintf(b, "New errors in other files (%d):\n", len(others))
	for i, o := range others {
		if i == 10 {
			fmt.Fprintf(b, "… and %d more\n", len(others)-10)
			break
		}
		b.WriteString(o + "\n")
	}
}

// othersReport is what the model hears after a command that changed no
// file the server was sent but may have broken open ones: new errors only.
func (m *Manager) othersReport(ctx context.Context, name string, c *client, before map[string][]Diagnostic) string {
	after, base := c.advance(before)
	others := m.newErrors(ctx, c, nil, base, after)
	if len(others) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, after this command:\n", name)
	writeOthers(&b, others)
	return strings.TrimRight(b.String(), "\n")
}

// notChecked says that the server has not analysed what (it did not
// publish, within wait, diagnostics made when it was not busy loading
// the project): nothing is known of its errors, which is not "none".
func notChecked(name, what string, wait time.Duration) string {
	return fmt.Sprintf("%s: not checked yet: %s had not analysed %s within %s (it may still be loading the project), so nothing is known of its errors; the diagnostics tool asks again.",
		name, name, what, wait.Round(100*time.Millisecond))
}
