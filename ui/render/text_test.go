package render

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/gdamore/tcell/v2"
)

// within reports whether s's bytes lie inside of's.
func within(s, of string) bool {
	if s == "" {
		return true
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(of)))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(of))
}

// Wrapping cuts each row's text out of the text it was given rather than
// copying it cluster by cluster (a streaming answer wraps its last
// paragraph every frame); the rows read as before.
func TestWrapCutsRowsOutOfTheText(t *testing.T) {
	plain := strings.Repeat("the quick brown fox jumps over the lazy dog ", 12)
	wide := strings.Repeat("naïve 世界 café, ", 20)
	bold := tcell.StyleDefault.Bold(true)
	for _, tt := range []struct {
		name  string
		spans []Span
		wrap  func([]Span) []Line
	}{
		{"words", []Span{{plain, tcell.StyleDefault}}, func(s []Span) []Line { return WrapLine(s, 37, nil, nil) }},
		{"wide clusters", []Span{{wide, tcell.StyleDefault}}, func(s []Span) []Line { return WrapLine(s, 23, nil, nil) }},
		{"hard", []Span{{plain, tcell.StyleDefault}}, func(s []Span) []Line { return WrapSpans(s, 29, nil, nil, true) }},
		{"code", []Span{{"\t" + plain, tcell.StyleDefault}, {plain, bold}}, func(s []Span) []Line { return WrapCode(s, 41, nil, nil) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines := tt.wrap(tt.spans)
			if len(lines) < 3 {
				t.Fatalf("%d rows: the test does not wrap", len(lines))
			}
			var joined strings.Builder
			for i, l := range lines {
				for _, s := range l {
					joined.WriteString(s.Text)
					in := false
					for _, src := range tt.spans {
						in = in || within(s.Text, src.Text)
					}
					if !in {
						t.Errorf("row %d: %q is a copy, not cut out of the text", i, s.Text)
					}
				}
			}
			var want strings.Builder
			for _, s := range tt.spans {
				want.WriteString(s.Text)
			}
			// Soft breaks drop the spaces they end a row with.
			strip := func(s string) string { return strings.ReplaceAll(s, " ", "") }
			if strip(joined.String()) != strip(want.String()) {
				t.Errorf("the rows read %q, the text %q", joined.String(), want.String())
			}
		})
	}
}

// A run of clusters of one style that were not one text's neighbours (a
// prefix and the text) is joined into one span, as before.
func TestWrapJoinsRunsOfOneStyle(t *testing.T) {
	lines := WrapLine([]Span{{"ab", tcell.StyleDefault}, {"cd", tcell.StyleDefault}}, 10, Line{{"> ", tcell.StyleDefault}}, nil)
	if len(lines) != 1 || len(lines[0]) != 1 || lines[0][0].Text != "> abcd" {
		t.Fatalf("got %#v, want one span \"> abcd\"", lines)
	}
}
