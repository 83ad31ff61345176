package tools

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		name               string
		in                 string
		maxLines, maxBytes int
		want               string
	}{
		{"fits", "a\nb\n", 2, 100, "a\nb\n"},
		{"no limits", numbered(1000), 0, 0, numbered(1000)},
		{"empty", "", 1, 1, ""},
		{"lines", numbered(10), 4, 0, "line 1\nline 2\n[… 6 lines omitted …]\nline 9\nline 10\n"},
		{"odd line cap keeps more head", numbered(10), 3, 0, "line 1\nline 2\n[… 7 lines omitted …]\nline 10\n"},
		{"one line kept", "a\nb\nc", 1, 0, "a\n[… 2 lines omitted …]"},
		{"no final newline", "a\nb\nc\nd", 2, 0, "a\n[… 2 lines omitted …]\nd"},
		{"bytes", strings.Repeat("x", 200), 0, 100, strings.Repeat("x", 30) + "\n[… 140 bytes omitted …]\n" + strings.Repeat("x", 30)},
		{"bytes at line ends", numbered(40), 0, 140, "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n[… 27 lines omitted …]\nline 35\nline 36\nline 37\nline 38\nline 39\nline 40\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Truncate(tc.in, tc.maxLines, tc.maxBytes)
			if got != tc.want {
				t.Errorf("Truncate(%d lines, %d, %d) =\n%q\nwant\n%q", countLines(tc.in), tc.maxLines, tc.maxBytes, got, tc.want)
			}
		})
	}
}

func TestTruncateBoundsAndUTF8(t *testing.T) {
	in := strings.Repeat("ünïcødé ✓ ", 5000) + "\n" + numbered(5000) + strings.Repeat("€", 3000)
	for _, limits := range [][2]int{{10, 500}, {0, 333}, {100, 0}, {3, 50}, {1, 41}} {
		got := Truncate(in, limits[0], limits[1])
		if !utf8.ValidString(got) {
			t.Errorf("limits %v: cut inside a UTF-8 character", limits)
		}
		if limits[1] > 0 && len(got) > limits[1]+2 {
			t.Errorf("limits %v: %d bytes, over the cap", limits, len(got))
		}
		if limits[0] > 0 && countLines(got) > limits[0]+1 {
			t.Errorf("limits %v: %d lines, over the cap (+1 for the marker)", limits, countLines(got))
		}
		if !strings.Contains(got, "omitted …]") {
			t.Errorf("limits %v: no marker in %q", limits, clip(got, 200))
		}
	}
}
