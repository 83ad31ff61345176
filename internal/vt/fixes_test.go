package vt

import (
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// The fixes fawn carries (FAWN.md), each as the bytes a program sends and
// the screen xterm shows for them.
func TestFixes(t *testing.T) {
	for _, tt := range []struct {
		name  string
		w, h  int
		input string
		want  []string
		pos   uv.Position
	}{
		{"NEL is a carriage return and an index", 5, 2, "abc\x1bEx",
			[]string{"abc  ", "x    "}, uv.Pos(1, 1)},
		{"CUF 0 moves one column", 8, 1, "abcdef\x1b[3G\x1b[0Cx",
			[]string{"abcxef  "}, uv.Pos(4, 0)},
		{"CUB 0 moves one column", 8, 1, "abcdef\x1b[0Dx",
			[]string{"abcdex  "}, uv.Pos(6, 0)},
		{"ICH 0 inserts one cell", 6, 1, "abc\x1b[1G\x1b[0@",
			[]string{" abc  "}, uv.Pos(0, 0)},
		{"CR under DECOM keeps the row", 4, 4, "\x1b[2;3r\x1b[?6h\x1b[1;1HL1\r\n\x1bMX",
			[]string{"    ", "X1  ", "    ", "    "}, uv.Pos(1, 1)},
		{"IL in a region keeps the cursor's row", 3, 4, "A\r\nB\r\nC\r\nD\x1b[2;4r\x1b[?6h\x1b[1;1H\x1b[1LX",
			[]string{"A  ", "X  ", "B  ", "C  "}, uv.Pos(1, 1)},
		{"DL in a region keeps the cursor's row", 3, 4, "A\r\nB\r\nC\r\nD\x1b[2;4r\x1b[?6h\x1b[1;1H\x1b[1MX",
			[]string{"A  ", "X  ", "D  ", "   "}, uv.Pos(1, 1)},
		{"HVP honours DECOM like CUP", 3, 3, "\x1b[2;3r\x1b[?6h\x1b[1;1fX",
			[]string{"   ", "X  ", "   "}, uv.Pos(1, 1)},
		{"IRM inserts", 6, 1, "AAAAAA\x1b[1;2HB\x1b[1D\x1b[4h****\x1b[4l",
			[]string{"A****B"}, uv.Pos(5, 0)},
		{"DECCOLM clears, resets the margins and homes", 4, 3, "abc\r\ndef\x1b[2;3r\x1b[?3lX\x1b[3;1H\nY",
			// X went home; the line feed at the bottom then scrolls the
			// whole screen (no region any more), X with it.
			[]string{"    ", "    ", "Y   "}, uv.Pos(1, 2)},
		{"BS inside CSI is carried out and the CSI goes on", 6, 1, "A\x1b[2\bCB",
			[]string{"A B   "}, uv.Pos(3, 0)},
		{"CR inside CSI", 6, 1, "A \x1b[\r2CB",
			[]string{"A B   "}, uv.Pos(3, 0)},
		{"VT inside CSI", 6, 2, "A \x1b[1\vAB",
			[]string{"A B   ", "      "}, uv.Pos(3, 0)},
		{"DECRC restores the character set", 4, 1, "\x1b(0\x1b7\x1b(Bq\x1b8\x1b[2Gq",
			[]string{"q─  "}, uv.Pos(2, 0)},
		{"?47 switches screens without clearing", 4, 1, "ab\x1b[?47hX\x1b[?47l",
			[]string{"ab  "}, uv.Pos(2, 0)},
		{"a wide character that does not fit wraps", 3, 2, "ab世",
			[]string{"ab ", "世 "}, uv.Pos(2, 1)},
		{"a wide character in the last two cells wraps the next one", 4, 2, "ab世c",
			[]string{"ab世", "c   "}, uv.Pos(1, 1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			term := newTestTerminal(t, tt.w, tt.h)
			term.Write([]byte(tt.input))
			got := termText(term)
			for i := range tt.want {
				if i >= len(got) || got[i] != tt.want[i] {
					t.Errorf("screen %q, want %q", got, tt.want)
					break
				}
			}
			if pos := term.CursorPosition(); pos != tt.pos {
				t.Errorf("cursor at %v, want %v", pos, tt.pos)
			}
		})
	}
}

// Lines deleted at the top of a scroll region below the screen's top row
// are not history: they never scrolled off the screen.
func TestDeleteLineInARegionKeepsTheScrollbackClean(t *testing.T) {
	term := newTestTerminal(t, 4, 4)
	term.Write([]byte("a\r\nb\r\nc\r\nd\x1b[2;4r\x1b[2;1H\x1b[M"))
	if n := term.ScrollbackLen(); n != 0 {
		t.Fatalf("%d lines in the scrollback", n)
	}
	term.Write([]byte("\x1b[r\x1b[4;1H\n"))
	if n := term.ScrollbackLen(); n != 1 {
		t.Fatalf("a line scrolled off the screen: %d lines in the scrollback", n)
	}
}

// Rows filled by autowrap are marked, the marks move with their rows and
// into the scrollback, and erasing a row's end drops its mark.
func TestWrapMarks(t *testing.T) {
	term := newTestTerminal(t, 4, 3)
	term.Write([]byte("abcdefg\r\nxy"))
	if !term.Wrapped(0) || term.Wrapped(1) || term.Wrapped(2) {
		t.Fatalf("marks %v %v %v after abcdefg, xy", term.Wrapped(0), term.Wrapped(1), term.Wrapped(2))
	}
	term.Write([]byte("\x1b[1;1H\x1b[L"))
	if term.Wrapped(0) || !term.Wrapped(1) {
		t.Fatalf("IL did not move the mark: %v %v", term.Wrapped(0), term.Wrapped(1))
	}
	term.Write([]byte("\x1b[3;1H\n\n"))
	sb := term.Scrollback()
	if sb.Len() != 2 || sb.Wrapped(0) || !sb.Wrapped(1) {
		t.Fatalf("scrollback %d lines, marks %v %v", sb.Len(), sb.Wrapped(0), sb.Wrapped(1))
	}
	term.Write([]byte("\x1b[2J\x1b[Habcdef\x1b[1;3H\x1b[K"))
	if term.Wrapped(0) {
		t.Fatal("EL to the end of the row kept its mark")
	}
	term.Write([]byte("\x1b[2J\x1b[Habc世"))
	if !term.Wrapped(0) {
		t.Fatal("a wide character that wrapped did not mark its row")
	}
}
