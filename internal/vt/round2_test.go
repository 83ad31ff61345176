package vt

import (
	"image/color"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The erasing and scrolling functions fill with the pen's background, as
// xterm does (background colour erase): printf '\e[44m\e[2J' leaves a blue
// screen.
func TestBackgroundColourErase(t *testing.T) {
	blue := ansi.BasicColor(4)
	for _, tt := range []struct{ name, input string }{
		{"ED 2", "\x1b[44m\x1b[2J"},
		{"ED 0", "\x1b[44m\x1b[H\x1b[J"},
		{"ED 3", "\x1b[44m\x1b[3J"},
		{"EL 2", "\x1b[44m\x1b[2;1H\x1b[2K"},
		{"ECH", "\x1b[44m\x1b[2;1H\x1b[4X"},
		{"ICH", "xxxx\r\nxxxx\x1b[44m\x1b[2;1H\x1b[@"},
		{"DCH", "xxxx\r\nxxxx\x1b[44m\x1b[2;1H\x1b[P"},
		{"IL", "\x1b[44m\x1b[2;1H\x1b[L"},
		{"DL", "\x1b[44m\x1b[2;1H\x1b[M"},
		{"SU", "\x1b[44m\x1b[S\x1b[S\x1b[S"},
		{"a line feed at the bottom", "\x1b[44m\x1b[3;1H\n\n\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			term := newTestTerminal(t, 4, 3)
			term.Write([]byte(tt.input))
			var x, y int
			switch tt.name {
			case "ICH", "ECH", "IL", "EL 2":
				x, y = 0, 1
			case "DCH":
				x, y = 3, 1
			case "a line feed at the bottom", "SU", "DL":
				x, y = 0, 2
			}
			c := term.CellAt(x, y)
			if c == nil || !sameColor(c.Style.Bg, blue) {
				var bg color.Color
				if c != nil {
					bg = c.Style.Bg
				}
				t.Fatalf("cell %d,%d has background %v, want blue", x, y, bg)
			}
		})
	}
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// SO and SI are C0 controls (0x0e, 0x0f): SO invokes G1, SI G0 again.
func TestShiftOutShiftIn(t *testing.T) {
	term := newTestTerminal(t, 4, 1)
	term.Write([]byte("\x1b)0q\x0eq\x0fq"))
	if got := termText(term)[0]; got != "q─q " {
		t.Fatalf("screen %q, want %q", got, "q─q ")
	}
}

// The British set (ESC ( A) maps # to £; $ stays.
func TestBritishSetMapsHash(t *testing.T) {
	term := newTestTerminal(t, 4, 1)
	term.Write([]byte("\x1b(A#$\x1b(B#"))
	if got := termText(term)[0]; got != "£$# " {
		t.Fatalf("screen %q, want %q", got, "£$# ")
	}
}

// REP repeats the character just before it, and nothing once a control
// function came between (as tmux and xterm).
func TestREPOnlyAfterAGraphicCharacter(t *testing.T) {
	term := newTestTerminal(t, 8, 2)
	term.Write([]byte("a\x1b[2b\r\n\x1b[2b\x1b[1mb\x1b[m\x1b[2b"))
	got := termText(term)
	if got[0] != "aaa     " || got[1] != "b       " {
		t.Fatalf("screen %q", got)
	}
}

// reply writes input and returns what the emulator answers.
func reply(t *testing.T, term *Emulator, input string) string {
	t.Helper()
	out := make(chan string, 1)
	go func() {
		buf := make([]byte, 256)
		n, _ := term.Read(buf)
		out <- string(buf[:n])
	}()
	term.Write([]byte(input))
	select {
	case s := <-out:
		return s
	case <-time.After(10 * time.Second):
		t.Fatalf("no answer to %q", input)
		return ""
	}
}

// The answers vttest and programs ask for: DSR 5 in the ANSI form, DECRQM
// for synchronized output (which a host of this emulator carries out),
// XTVERSION, the text area's size (CSI 18 t) and the screen's (CSI 19 t).
func TestReports(t *testing.T) {
	for _, tt := range []struct{ name, input, want string }{
		{"DSR 5", "\x1b[5n", "\x1b[0n"},
		{"DECRQM 2026", "\x1b[?2026$p", "\x1b[?2026;2$y"},
		{"DECRQM 2026 set", "\x1b[?2026h\x1b[?2026$p", "\x1b[?2026;1$y"},
		{"DECRQM 1015", "\x1b[?1015$p", "\x1b[?1015;2$y"},
		{"XTVERSION", "\x1b[>0q", "\x1bP>|x/vt\x1b\\"},
		{"CSI 18 t", "\x1b[18t", "\x1b[8;24;80t"},
		{"CSI 19 t", "\x1b[19t", "\x1b[9;24;80t"},
		{"CPR in origin mode", "\x1b[5;20r\x1b[?6h\x1b[3;7H\x1b[6n", "\x1b[3;7R"},
		{"DA3", "\x1b[=c", "\x1bP!|00000000\x1b\\"},
		{"DECREQTPARM 0", "\x1b[x", "\x1b[2;1;1;128;128;1;0x"},
		{"DECREQTPARM 1", "\x1b[1x", "\x1b[3;1;1;128;128;1;0x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			term := newTestTerminal(t, 80, 24)
			if got := reply(t, term, tt.input); got != tt.want {
				t.Fatalf("answered %q, want %q", got, tt.want)
			}
		})
	}
	term := newTestTerminal(t, 80, 24)
	term.SetTerminalName("fawn 1.2")
	if got := reply(t, term, "\x1b[>q"); got != "\x1bP>|fawn 1.2\x1b\\" {
		t.Fatalf("XTVERSION answered %q", got)
	}
}

// A character made an emoji by VS16 keeps its own width, as readline's
// wcwidth and tmux give it: "❤️" and "1️⃣" take one cell, "😀" two.
func TestVS16KeepsTheCharactersWidth(t *testing.T) {
	for _, tt := range []struct {
		in    string
		width int
	}{
		{"❤️", 1},
		{"1️⃣", 1},
		{"😀", 2},
		{"😀️", 2},
		{"e\u0301", 1},
		{"👍🏽", 2},
	} {
		term := newTestTerminal(t, 10, 1)
		term.Write([]byte(tt.in + "x"))
		c := term.CellAt(0, 0)
		if c == nil || c.Content != tt.in || c.Width != tt.width {
			t.Errorf("%q: cell %+v, want width %d", tt.in, c, tt.width)
		}
		if x := term.CursorPosition().X; x != tt.width+1 {
			t.Errorf("%q: cursor at %d, want %d", tt.in, x, tt.width+1)
		}
	}
}

// ESC - A designates ISO Latin-1's upper half to G1 (a 96-character set,
// not the British set): with SO, A shows Á.
func TestLatin1SupplementalSet(t *testing.T) {
	term := newTestTerminal(t, 6, 1)
	term.Write([]byte("\x1b)A\x1b-A\x0e#A\x0f#A"))
	if got := termText(term)[0]; got != "£Á#A  " {
		t.Fatalf("screen %q, want %q", got, "£Á#A  ")
	}
}

// The 7-bit single shifts ESC N and ESC O take the next character from G2
// or G3.
func TestSevenBitSingleShifts(t *testing.T) {
	term := newTestTerminal(t, 6, 1)
	term.Write([]byte("\x1b*A\x1b+0\x1bN##\x1bOq"))
	if got := termText(term)[0]; got != "£#─   " {
		t.Fatalf("screen %q, want %q", got, "£#─   ")
	}
}
