package safetext

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLineShowsEveryControl(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"README.md", "README.md"},
		{"héllo 世界 👩‍💻", "héllo 世界 👩‍💻"},
		{"README\x1b]52;c;Y3VybA==\a.md", "README␛]52;c;Y3VybA==␇.md"},
		{"a\x1b[2Jb", "a␛[2Jb"},
		{"x\u009b2Jy", "x<U+009B>2Jy"},
		{"\u009d0;title\u009c", "<U+009D>0;title<U+009C>"},
		{"one\ntwo\tthree\r\n", "one⏎two⇥three␍⏎"},
		{"\x00\x7f", "␀␡"},
		{"abc\u202edcba", "abc<U+202E>dcba"},
		{"\u2066x\u2069\u200e\u200f\u061c", "<U+2066>x<U+2069><U+200E><U+200F><U+061C>"},
		{"bad\xffbyte\xc2", "bad\ufffdbyte\ufffd"},
		{"zero\u200bwidth\ufeff", "zero\u200bwidth\ufeff"},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
		if IsSafe(c.in) != (c.in == c.want) {
			t.Errorf("IsSafe(%q) = %v", c.in, IsSafe(c.in))
		}
	}
}

func TestTextKeepsLayout(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"one\ntwo\tthree", "one\ntwo\tthree"},
		{"dos\r\nlines\r\n", "dos\nlines\n"},
		{"progress 50%\rdone", "progress 50%␍done"},
		{"\x1b[31mred\x1b[0m\n", "␛[31mred␛[0m\n"},
		{"trailing\r", "trailing␍"},
		{"\u202e\n\u0085", "<U+202E>\n<U+0085>"},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestExactShowsInvisibles(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"echo ok\n\x1b[2J\x1b[Hrm -rf ~ \u202e", "echo ok⏎␛[2J␛[Hrm -rf ~ <U+202E>"},
		{"r\u200bm", "r<U+200B>m"},
		{"\ufeff\u2028\u2029\U000E0041", "<U+FEFF><U+2028><U+2029><U+E0041>"},
		{"\ufffd\xff", "<U+FFFD><U+FFFD>"},
		{"a\tb", "a⇥b"},
	} {
		if got := Exact(c.in); got != c.want {
			t.Errorf("Exact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRune(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want string
		ok   bool
	}{
		{'a', "", false}, {'世', "", false}, {0x1b, "␛", true}, {0x9b, "<U+009B>", true},
		{'\n', "⏎", true}, {'\t', "⇥", true}, {0x202e, "<U+202E>", true}, {0x200d, "", false},
	} {
		if got, ok := Rune(c.r); got != c.want || ok != c.ok {
			t.Errorf("Rune(%U) = %q, %v; want %q, %v", c.r, got, ok, c.want, c.ok)
		}
	}
}

// acts reports the first character of s that a terminal would act on, or
// that reorders text, other than the newlines and tabs keep allows.
func acts(s string, keep bool) (rune, bool) {
	for _, r := range s {
		if keep && (r == '\n' || r == '\t') {
			continue
		}
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) {
			return r, true
		}
	}
	return 0, false
}

func FuzzSafeText(f *testing.F) {
	for _, s := range []string{
		"", "plain", "README\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\a.md",
		"\x1b]0;PWNED\a", "\x1b[2J\x1b[H", "\u009b2J", "\xc2\x9b", "\xc2", "\xe2\x80\xae",
		"a\r\nb\rc\n\td", "\x1bP+q\x1b\\", "👩‍💻\u202e\u2066", "\ufffd\xff\xfe", "\x00\x7f\u0085",
		strings.Repeat("\x1b", 100),
	} {
		f.Add(s)
	}
	f.Fuzz(check)
}

// TestRandomHostileText runs the fuzz test's checks on strings drawn from
// the characters that matter (controls, C1, bidi, invalid bytes, joiners
// and plain text), so that every go test run explores beyond the seeds.
func TestRandomHostileText(t *testing.T) {
	pieces := []string{"a", " ", "é", "世", "👩‍💻", "\u200d", "\x1b", "]", "[", "52;c;", "\a", "\\", "\r", "\n", "\t",
		"\x00", "\x7f", "\u0085", "\u009b", "\u009c", "\xc2", "\x9b", "\xff", "\u202e", "\u2066", "\u061c", "\ufeff", "\ufffd", "\u2028"}
	rng := rand.New(rand.NewPCG(30, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(t, b.String())
	}
}

// check is what must hold for any input.
func check(t *testing.T, s string) {
	{
		for _, c := range []struct {
			name string
			fn   func(string) string
			keep bool
		}{{"Line", Line, false}, {"Text", Text, true}, {"Exact", Exact, false}} {
			got := c.fn(s)
			if !utf8.ValidString(got) {
				t.Fatalf("%s(%q) = %q: not UTF-8", c.name, s, got)
			}
			if r, bad := acts(got, c.keep); bad {
				t.Fatalf("%s(%q) = %q holds %U", c.name, s, got, r)
			}
			if !c.keep && strings.ContainsAny(got, "\n\t") {
				t.Fatalf("%s(%q) = %q keeps a newline or a tab", c.name, s, got)
			}
			if again := c.fn(got); again != got {
				t.Fatalf("%s is not stable: %q → %q → %q", c.name, s, got, again)
			}
			if _, bad := acts(s, c.keep); !bad && utf8.ValidString(s) && c.name != "Exact" && (c.keep || !strings.ContainsAny(s, "\n\t")) && got != s {
				t.Fatalf("%s changed harmless text %q to %q", c.name, s, got)
			}
		}
		p, bad := Cell(s)
		if bad != (Line(s) != s) {
			t.Fatalf("Cell(%q) = %q, %v but Line gives %q", s, p, bad, Line(s))
		}
		if bad && (utf8.RuneCountInString(p) != 1 || !IsSafe(p)) {
			t.Fatalf("Cell(%q) = %q: not one safe character", s, p)
		}
		if IsSafe(s) != (Line(s) == s) {
			t.Fatalf("IsSafe(%q) = %v but Line gives %q", s, IsSafe(s), Line(s))
		}
		for _, r := range s {
			p, ok := Rune(r)
			if ok != (Line(string(r)) != string(r)) || (ok && p != Line(string(r))) {
				t.Fatalf("Rune(%U) = %q, %v; Line gives %q", r, p, ok, Line(string(r)))
			}
		}
	}
}
