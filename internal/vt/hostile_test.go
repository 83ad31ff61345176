package vt

import (
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// hostileWrite writes input to term and fails the test when it is not
// done within a generous deadline (an uncapped count takes minutes) or
// when the work it took is not bounded by the screen's size: at most
// (h+3) screenfuls of cells per byte, whatever the counts say.
func hostileWrite(t *testing.T, term *Emulator, input string) {
	t.Helper()
	done := make(chan any, 1)
	before := term.Work()
	go func() {
		defer func() { done <- recover() }()
		_, _ = term.Write([]byte(input))
	}()
	select {
	case p := <-done:
		if p != nil {
			t.Fatalf("writing %q panicked: %v", shorten(input), p)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("writing %q did not finish in 30 s", shorten(input))
	}
	w, h := term.Width(), term.Height()
	bound := uint64(len(input)+1) * uint64(w*h) * uint64(h+3)
	if work := term.Work() - before; work > bound {
		t.Fatalf("writing %q took %d cells of work, more than %d for a %d×%d screen", shorten(input), work, bound, w, h)
	}
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Every count and position a program sends is capped to the screen: a
// hostile count finishes at once and leaves the screen a terminal shows.
func TestHostileCounts(t *testing.T) {
	const huge = "99999999"
	for _, tt := range []struct {
		name  string
		input string
		want  []string
		pos   uv.Position
	}{
		{"REP without autowrap stops at the edge", "\x1b[?7lx\x1b[" + huge + "b",
			[]string{"xxxxxx", "      ", "      "}, uv.Pos(5, 0)},
		{"REP of a count past 2^63", "\x1b[?7lx\x1b[9999999999999999999999999999b",
			[]string{"xxxxxx", "      ", "      "}, uv.Pos(5, 0)},
		{"ICH", "abcdef\x1b[3G\x1b[" + huge + "@",
			[]string{"ab    ", "      ", "      "}, uv.Pos(2, 0)},
		{"DCH", "abcdef\x1b[3G\x1b[" + huge + "P",
			[]string{"ab    ", "      ", "      "}, uv.Pos(2, 0)},
		{"ECH", "abcdef\x1b[3G\x1b[" + huge + "X",
			[]string{"ab    ", "      ", "      "}, uv.Pos(2, 0)},
		{"IL", "a\r\nb\r\nc\x1b[2;1H\x1b[" + huge + "L",
			[]string{"a     ", "      ", "      "}, uv.Pos(0, 1)},
		{"DL", "a\r\nb\r\nc\x1b[2;1H\x1b[" + huge + "M",
			[]string{"a     ", "      ", "      "}, uv.Pos(0, 1)},
		{"SU", "a\r\nb\r\nc\x1b[" + huge + "S",
			[]string{"      ", "      ", "      "}, uv.Pos(1, 2)},
		{"SD", "a\r\nb\r\nc\x1b[" + huge + "T",
			[]string{"      ", "      ", "      "}, uv.Pos(1, 2)},
		{"CUF and CUD", "\x1b[" + huge + "C\x1b[" + huge + "Bz",
			[]string{"      ", "      ", "     z"}, uv.Pos(5, 2)},
		{"CUB and CUU", "\x1b[3;4H\x1b[" + huge + "D\x1b[" + huge + "Az",
			[]string{"z     ", "      ", "      "}, uv.Pos(1, 0)},
		{"CNL and CPL", "ab\x1b[" + huge + "Ec\x1b[" + huge + "Fd",
			[]string{"db    ", "      ", "c     "}, uv.Pos(1, 0)},
		{"CHA", "\x1b[" + huge + "Gz",
			[]string{"     z", "      ", "      "}, uv.Pos(5, 0)},
		{"CHT", "\x1b[" + huge + "Iz",
			[]string{"     z", "      ", "      "}, uv.Pos(5, 0)},
		{"CBT", "\x1b[5G\x1b[" + huge + "Zz",
			[]string{"z     ", "      ", "      "}, uv.Pos(1, 0)},
		{"HPA, VPA", "\x1b[" + huge + "`\x1b[" + huge + "dz",
			[]string{"      ", "      ", "     z"}, uv.Pos(5, 2)},
		{"HPR, VPR", "\x1b[" + huge + "a\x1b[" + huge + "ez",
			[]string{"      ", "      ", "     z"}, uv.Pos(5, 2)},
		{"CUP", "\x1b[" + huge + ";" + huge + "Hz",
			[]string{"      ", "      ", "     z"}, uv.Pos(5, 2)},
		{"tab stops set far right", "\x1b[" + huge + "G\x1bH\r\t\tz",
			[]string{"     z", "      ", "      "}, uv.Pos(5, 0)},
		{"DECSTBM with its bottom below the screen", "a\x1b[2;" + huge + "r\x1b[" + huge + "Bb\nc\x1b[2;1H\x1b[5L",
			[]string{"a     ", "      ", "      "}, uv.Pos(0, 1)},
		{"DECSLRM with its right margin past the screen", "\x1b[?69h\x1b[2;" + huge + "s\x1b[" + huge + "C\x1b[5@x\x1b[?69l",
			[]string{"     x", "      ", "      "}, uv.Pos(5, 0)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			term := newTestTerminal(t, 6, 3)
			hostileWrite(t, term, tt.input)
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

// REP with autowrap and a count past the screen leaves the screen and the
// cursor that printing the character that many times does.
func TestHostileREPMatchesPrinting(t *testing.T) {
	for _, n := range []int{99999999, 99999998, 123456789} {
		term := newTestTerminal(t, 6, 3)
		hostileWrite(t, term, "ab\x1b[3Gx\x1b["+itoa(n)+"b")
		// The state repeats every 6 characters once the screen is full:
		// print as many as the count modulo 6, past five screenfuls.
		plain := newTestTerminal(t, 6, 3)
		m := 5*6*3 + (n-5*6*3)%6
		plain.Write([]byte("ab\x1b[3G" + strings.Repeat("x", 1+m)))
		if got, want := termText(term), termText(plain); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("REP %d: screen %q, printing shows %q", n, got, want)
		}
		if got, want := term.CursorPosition(), plain.CursorPosition(); got != want {
			t.Errorf("REP %d: cursor at %v, printing leaves it at %v", n, got, want)
		}
		term.Write([]byte("z"))
		plain.Write([]byte("z"))
		if got, want := termText(term), termText(plain); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("REP %d then z: screen %q, printing shows %q (the pending wrap differs)", n, got, want)
		}
	}
}

func itoa(n int) string {
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// A character followed by a flood of combining marks keeps one cell of at
// most maxCluster bytes; ordinary clusters are whole.
func TestHostileCombiningMarks(t *testing.T) {
	term := newTestTerminal(t, 6, 3)
	marks := strings.Repeat("\u0301", 1<<19) // 1 MB
	hostileWrite(t, term, "e"+marks+"x👨‍👩‍👧‍👦y")
	c := term.CellAt(0, 0)
	if c == nil || !strings.HasPrefix(c.Content, "e\u0301\u0301") || len(c.Content) > maxCluster {
		t.Fatalf("cell 0 holds %d bytes starting %q; want e and its marks, at most %d bytes", len(c.Content), shorten(c.Content), maxCluster)
	}
	if got := termText(term)[0]; got != c.Content+"x👨‍👩‍👧‍👦y " {
		t.Fatalf("row 0 is %q…, want the capped cluster, x, the family emoji and y", shorten(got))
	}
}
