// Package safetext owns making untrusted text safe to draw.
//
// Text from a file name, a file, a model, a tool result, an MCP server, a
// hook or a session file reaches the screen (a cell, a tab, a title, a
// dialog, the status bar, stdout when it is a terminal) only through this
// package. A control character written raw to a terminal acts on it: ESC ]
// 52 writes the user's clipboard, ESC ] 0 the window title, ESC [ 2 J
// clears the screen, and U+009B is the same CSI to a terminal that reads
// C1 controls in UTF-8. A bidirectional override (U+202E) reorders the
// text after it on a terminal that does bidi, so that what is shown is not
// what is there. Each such character is shown instead, in one form:
//
//   - C0 controls and DEL as their control pictures: ESC as ␛, BEL as ␇,
//     NUL as ␀, CR as ␍, DEL as ␡; a newline as ⏎ and a tab as ⇥ where
//     the text must stay on one row (Line, Exact);
//   - C1 controls (U+0080–U+009F) and the bidirectional formatting
//     characters (Unicode's Bidi_Control: U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069) as their code point: <U+009B>;
//   - bytes that are not UTF-8 as U+FFFD (�).
//
// Exact shows, besides, every other invisible formatting character (a
// zero-width space or joiner, a byte-order mark, tag characters, line and
// paragraph separators) and U+FFFD itself as <U+200B>, for what a user
// must judge character by character before it runs. Elsewhere those stay:
// a zero-width joiner is part of an emoji, and none of them acts on the
// terminal or reorders text.
//
// What comes out is valid UTF-8 with none of those characters in it but
// the newlines and tabs Text keeps, whatever went in.
//
// It imports nothing of fawn; ui, its sub-packages and cmd/fawn import it.
package safetext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// mode is what a caller keeps and what it wants shown.
type mode uint8

const (
	line  mode = iota // one row: newlines and tabs shown
	text              // rows laid out by the caller: newlines and tabs kept
	exact             // one row, every invisible character shown
)

// Line makes s safe to draw on one row (a file name, a tab's or a
// window's title, a label, a status): every character named in the
// package doc is shown, a newline as ⏎ and a tab as ⇥.
func Line(s string) string { return clean(s, line) }

// Text makes s safe to draw for a caller that lays out its rows itself (a
// chat message, a tool's output, a file's lines): newlines and tabs are
// kept, a CR LF becomes a newline, and every other character named in the
// package doc is shown.
func Text(s string) string { return clean(s, text) }

// Exact is Line, and shows every invisible formatting character and U+FFFD
// too: for a command or a path the user must judge exactly (the trust
// prompt).
func Exact(s string) string { return clean(s, exact) }

// Rune reports whether r must be shown as something else on one row, and
// as what (Line's form): for a caller that draws a rune or a grapheme
// cluster at a time. A tab is ⇥ here; a caller that lays tabs out handles
// them first.
func Rune(r rune) (string, bool) {
	if !unsafe(r, line) {
		return "", false
	}
	var b strings.Builder
	picture(&b, r)
	return b.String(), true
}

// Cell reports whether the grapheme cluster g, already placed in one
// cell by a layer below layout (the screen's cell buffer), holds a
// character named in the package doc other than the ones Exact adds, and
// gives the one cell shown instead: a C0 control's or DEL's picture (⏎ and
// ⇥ for a newline and a tab), U+FFFD for the others. It is the last guard
// for a caller that forgot Line or Text; their forms, wider than a cell,
// are what the user should see.
func Cell(g string) (string, bool) {
	for i := 0; i < len(g); i++ {
		if c := g[i]; c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			return cellSlow(g)
		}
	}
	return "", false
}

func cellSlow(g string) (string, bool) {
	for i := 0; i < len(g); {
		r, size := utf8.DecodeRuneInString(g[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return "\ufffd", true
		case unsafe(r, line):
			if r < 0x20 || r == 0x7f {
				p, _ := Rune(r)
				return p, true
			}
			return "\ufffd", true
		}
		i += size
	}
	return "", false
}

// IsSafe reports whether Line(s) == s: no character of s is shown
// differently.
func IsSafe(s string) bool { return safe(s, line) }

// clean is the one implementation behind Line, Text and Exact.
func clean(s string, m mode) string {
	if safe(s, m) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// Not UTF-8: the replacement character, or its code point
			// where U+FFFD itself is shown.
			if m == exact {
				b.WriteString("<U+FFFD>")
			} else {
				b.WriteRune(utf8.RuneError)
			}
		case m == text && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// A CR LF line ending is a newline; the LF is kept next.
		case unsafe(r, m):
			picture(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// safe reports whether clean(s, m) == s, quickly for the ASCII text most
// of what is drawn is.
func safe(s string, m mode) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return safeUnicode(s[i:], m)
		}
		if (c < 0x20 || c == 0x7f) && unsafe(rune(c), m) {
			return false
		}
	}
	return true
}

func safeUnicode(s string, m mode) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		if unsafe(r, m) {
			return false
		}
		i += size
	}
	return true
}

// unsafe reports whether r is shown as its picture in mode m.
func unsafe(r rune, m mode) bool {
	switch {
	case r == '\n' || r == '\t':
		return m != text
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r < 0xa0:
		return true // C1
	case unicode.Is(unicode.Bidi_Control, r):
		return true
	case m == exact:
		return r == utf8.RuneError || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r)
	}
	return false
}

// picture writes r's visible form.
func picture(b *strings.Builder, r rune) {
	switch {
	case r == '\n':
		b.WriteString("⏎")
	case r == '\t':
		b.WriteString("⇥")
	case r < 0x20:
		b.WriteRune(0x2400 + r)
	case r == 0x7f:
		b.WriteRune('␡')
	default:
		b.WriteString("<U+")
		h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
		for range 4 - len(h) {
			b.WriteByte('0')
		}
		b.WriteString(h)
		b.WriteByte('>')
	}
}
