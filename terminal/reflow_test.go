package terminal

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Narrowing the pane re-wraps long lines; widening it rejoins the rows
// autowrap made, on the screen and in the scrollback, while lines that
// ended with a newline stay lines of their own. The cursor stays at its
// place in its line.
func TestReflowOnWidthChange(t *testing.T) {
	s := newTestScreen(t, 10, 4, 50)
	s.write([]byte("short\r\n0123456789abcdefghij\r\n$ ab"))
	if got := s.text(); got != "short\n0123456789\nabcdefghij\n$ ab" {
		t.Fatalf("at 10 columns:\n%s", got)
	}
	s.resize(20, 4)
	if got := s.text(); got != "short\n0123456789abcdefghij\n$ ab" {
		t.Fatalf("widened to 20:\n%s", got)
	}
	if c := s.emu.CursorPosition(); c.X != 4 || c.Y != 2 {
		t.Fatalf("cursor at %v, want 4,2", c)
	}
	s.write([]byte("c"))
	if got := s.text(); !strings.HasSuffix(got, "\n$ abc") {
		t.Fatalf("typing after the reflow:\n%s", got)
	}
	// Narrower than before: the long line takes three rows, the first
	// scrolls into the scrollback.
	s.resize(7, 4)
	if got := s.text(); got != "0123456\n789abcd\nefghij\n$ abc" {
		t.Fatalf("narrowed to 7:\n%s", got)
	}
	if sb := s.scrollbackText(); len(sb) != 1 || sb[0] != "short" {
		t.Fatalf("scrollback %q", sb)
	}
	// The lines in the scrollback reflow too.
	s.write([]byte("\r\n1\r\n2\r\n3\r\n4"))
	if sb := s.scrollbackText(); strings.Join(sb, "|") != "short|0123456|789abcd|efghij|$ abc" {
		t.Fatalf("scrollback %q", sb)
	}
	s.resize(30, 4)
	if sb := s.scrollbackText(); strings.Join(sb, "|") != "short|0123456789abcdefghij|$ abc" {
		t.Fatalf("scrollback after widening %q", sb)
	}
	if got := s.text(); got != "1\n2\n3\n4" {
		t.Fatalf("screen after widening:\n%s", got)
	}
}

// Wide characters are not cut in half by a reflow, and keep their colours.
func TestReflowKeepsWideCharactersAndColours(t *testing.T) {
	s := newTestScreen(t, 6, 3, 10)
	s.write([]byte("\x1b[31mab世界cd\x1b[0m\r\n"))
	s.resize(5, 3)
	if got := s.text(); got != "ab世\n界cd" {
		t.Fatalf("narrowed to 5:\n%q", got)
	}
	if c := s.emu.CellAt(0, 1); c == nil || c.Content != "界" || c.Style.Fg == nil {
		t.Fatalf("the wide character on the second row: %+v", c)
	}
}

// The alternate screen is the program's to redraw: no reflow there.
func TestNoReflowOnTheAlternateScreen(t *testing.T) {
	s := newTestScreen(t, 10, 3, 10)
	s.write([]byte("\x1b[?1049h0123456789ab"))
	s.resize(20, 3)
	if got := s.text(); got != "0123456789\nab" {
		t.Fatalf("alternate screen after widening:\n%s", got)
	}
}

// Copying across a row autowrap filled gives one line: no line break
// where the text only wrapped, one where it ended; on the screen and in
// the scrollback alike.
func TestCopyJoinsWrappedRows(t *testing.T) {
	s := newTestScreen(t, 10, 3, 10)
	s.write([]byte("0123456789abcd\r\nnext\r\n"))
	all := func() string {
		return s.textBetween(Spot{Line: int64(s.pushed) - int64(s.hist.len())}, Spot{Line: int64(s.pushed) + 2, Col: 9})
	}
	if got := all(); got != "0123456789abcd\nnext\n" {
		t.Fatalf("on the screen: %q", got)
	}
	s.write([]byte("1\r\n2\r\n3"))
	if got := all(); got != "0123456789abcd\nnext\n1\n2\n3" {
		t.Fatalf("from the scrollback: %q", got)
	}
}

// At bash's prompt, a line being typed that wraps is left to readline,
// which redraws it at the new width: the prompt is not doubled and the
// text stays whole, narrower and wider.
func TestReflowLeavesTheTypedLineToReadline(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("PS1='$ '\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term := startTerm(t, Options{Cols: 40, Rows: 8, Env: []string{"HOME=" + home}})
	mustRun(t, term, "echo before")
	waitIdle(t, term)
	typed := "echo" + strings.Repeat(" word", 13) // 69 characters
	term.Write([]byte(typed))
	waitFor(t, "the typed line", func() bool {
		return strings.Contains(strings.ReplaceAll(term.ScreenText(), "\n", ""), "$ "+typed)
	})
	for _, cols := range []int{30, 55, 23} {
		term.Resize(cols, 8)
		waitFor(t, fmt.Sprintf("readline's redraw at %d columns", cols), func() bool {
			s := term.ScreenText()
			joined := strings.ReplaceAll(s, "\n", "")
			return strings.Count(s, "$ ") == 2 && strings.Contains(joined, "$ "+typed) &&
				strings.HasPrefix(s, "$ echo before\nbefore\n")
		})
	}
	// The line runs as typed.
	term.Write([]byte("\r"))
	waitFor(t, "the line's output", func() bool {
		s := strings.ReplaceAll(term.ScreenText(), "\n", "")
		return strings.Contains(s, "$ "+typed+strings.TrimPrefix(typed, "echo "))
	})
}

// A long scrollback is re-wrapped once the width stays put, not at every
// step of a window being dragged; the screen is reflowed at once.
func TestLongScrollbackReflowsOnceTheWidthSettles(t *testing.T) {
	s := newTestScreen(t, 10, 3, 3*histReflowNow)
	var sb strings.Builder
	for i := 0; i < histReflowNow; i++ {
		fmt.Fprintf(&sb, "%04dabcdefghij\r\n", i)
	}
	s.write([]byte(sb.String() + "$ "))
	rows := s.scrollbackText
	if got := rows(); len(got) != 2*histReflowNow-2 || got[0] != "0000abcdef" || got[1] != "ghij" {
		t.Fatalf("at 10 columns the scrollback has %d lines, starting %q", len(got), got[:2])
	}
	for _, cols := range []int{11, 13, 17, 20} {
		s.resize(cols, 3)
	}
	if got := s.text(); got != "1999abcdefghij\n$" {
		t.Fatalf("the screen right after the resizes:\n%s", got)
	}
	s.mu.Lock()
	deferred := s.histTimer != nil
	s.mu.Unlock()
	if !deferred {
		t.Fatal("the long scrollback was re-wrapped at every resize")
	}
	waitFor(t, "the scrollback re-wrapped at 20 columns", func() bool {
		got := rows()
		return len(got) == histReflowNow-1 && got[0] == "0000abcdefghij"
	})
}

// The search finds a word autowrap split over two rows, in the scrollback
// and on the screen, and its length runs on into the next row.
func TestFindAcrossAWrap(t *testing.T) {
	s := newTestScreen(t, 10, 3, 10)
	s.write([]byte("12345678needle\r\nneedle\r\n"))
	got, lines := s.find("needle")
	if lines != 4 || len(got) != 2 || got[0] != (Match{Line: 0, Col: 8, Len: 6}) || got[1] != (Match{Line: 2, Col: 0, Len: 6}) {
		t.Fatalf("on the screen: %+v in %d lines", got, lines)
	}
	s.write([]byte("a\r\nb\r\nc"))
	got, _ = s.find("NEEDLE")
	if len(got) != 0 {
		t.Fatalf("a query with capitals matched %+v", got)
	}
	got, lines = s.find("needle")
	if lines != 6 || len(got) != 2 || got[0] != (Match{Line: 0, Col: 8, Len: 6}) || got[1] != (Match{Line: 2, Col: 0, Len: 6}) {
		t.Fatalf("from the scrollback: %+v in %d lines", got, lines)
	}
	// A match that ends where a row ends.
	s2 := newTestScreen(t, 10, 3, 10)
	s2.write([]byte("12345678xyzw\r\n"))
	if got, _ := s2.find("78xy"); len(got) != 1 || got[0] != (Match{Line: 0, Col: 6, Len: 4}) {
		t.Fatalf("across the edge: %+v", got)
	}
	if got, _ := s2.find("5678"); len(got) != 1 || got[0] != (Match{Line: 0, Col: 4, Len: 4}) {
		t.Fatalf("to the row's end: %+v", got)
	}
}

// A prompt line that fits the new width stays on the screen through a
// resize (readline writes it over itself), instead of blinking out until
// bash redraws it: the first prompt is painted at once.
func TestReflowKeepsAPromptLineThatFits(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("PS1='$ '\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term := startTerm(t, Options{Cols: 40, Rows: 8, Env: []string{"HOME=" + home}})
	mustRun(t, term, "echo before")
	waitIdle(t, term)
	term.Write([]byte("echo hi"))
	waitFor(t, "the typed line", func() bool { return strings.Contains(term.ScreenText(), "$ echo hi") })
	for _, cols := range []int{30, 55, 14} {
		term.Resize(cols, 8)
		if s := term.ScreenText(); !strings.Contains(s, "$ echo hi") {
			t.Fatalf("at %d columns the prompt line is gone until bash redraws it:\n%s", cols, s)
		}
		waitFor(t, fmt.Sprintf("readline's redraw at %d columns", cols), func() bool {
			s := term.ScreenText()
			return strings.Count(s, "$ ") == 2 && strings.Contains(s, "$ echo hi") && strings.HasPrefix(s, "$ echo before\nbefore\n")
		})
	}
	term.Write([]byte("\r"))
	waitFor(t, "the line's output", func() bool { return strings.Contains(term.ScreenText(), "$ echo hi\nhi") })
}
