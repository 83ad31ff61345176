package terminal

import (
	"fmt"
	"image/color"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func newTestScreen(t *testing.T, cols, rows, sb int) *screen {
	t.Helper()
	s := newScreen(cols, rows, sb, Colors{}, func([]byte) {})
	t.Cleanup(s.close)
	return s
}

// resize is resizeLocked for tests, which do not hold s.mu.
func (s *screen) resize(cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resizeLocked(cols, rows)
}

func simScreen(t *testing.T, w, h int) tcell.SimulationScreen {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(w, h)
	return scr
}

// cellsAt returns row y of scr as text and its styles.
func rowAt(scr tcell.SimulationScreen, y int) (string, []tcell.Style) {
	scr.Show()
	cells, w, _ := scr.GetContents()
	var sb strings.Builder
	var styles []tcell.Style
	for x := 0; x < w; x++ {
		c := cells[y*w+x]
		if len(c.Runes) > 0 {
			sb.WriteString(string(c.Runes))
		} else {
			sb.WriteByte(' ')
		}
		styles = append(styles, c.Style)
	}
	return strings.TrimRight(sb.String(), " "), styles
}

func TestScrollbackKeepsTextAndStyles(t *testing.T) {
	s := newTestScreen(t, 30, 4, 100)
	s.write([]byte("\x1b[31mred\x1b[0m plain \x1b[1;44mbold\x1b[0m\r\n"))
	s.write([]byte("wide 日本 and e\u0301 é\r\n"))
	for i := 0; i < 10; i++ {
		fmt.Fprintf(writerFunc(s.write), "filler %d\r\n", i)
	}
	lines := s.scrollbackText()
	if len(lines) != 9 || lines[0] != "red plain bold" || lines[1] != "wide 日本 and e\u0301 é" {
		t.Fatalf("scrollback %q", lines)
	}
	base := tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(tcell.ColorBlack)
	scr := simScreen(t, 30, 4)
	d := s.drawTo(scr, 0, 0, 30, 4, DrawOptions{ScrollBack: 9, Style: base})
	if d.ScrollBack != 9 || d.Lines != 9 || d.CursorVisible {
		t.Fatalf("drawn %+v", d)
	}
	text, styles := rowAt(scr, 0)
	if text != "red plain bold" {
		t.Fatalf("row 0 %q", text)
	}
	if fg, bg, _ := styles[0].Decompose(); fg != tcell.PaletteColor(1) || bg != tcell.ColorBlack {
		t.Errorf("red: fg %v bg %v", fg, bg)
	}
	if fg, bg, _ := styles[4].Decompose(); fg != tcell.ColorWhite || bg != tcell.ColorBlack {
		t.Errorf("plain: fg %v bg %v", fg, bg)
	}
	if _, bg, attr := styles[10].Decompose(); bg != tcell.PaletteColor(4) || attr&tcell.AttrBold == 0 {
		t.Errorf("bold: bg %v attr %v", bg, attr)
	}
	// Each wide character takes two columns; the simulation screen shows
	// the second as a blank.
	if text, _ := rowAt(scr, 1); text != "wide 日 本  and e\u0301 é" {
		t.Fatalf("row 1 %q", text)
	}
	// Scrolled back by 9 of 9, the live screen's first rows follow.
	if text, _ := rowAt(scr, 2); text != "filler 0" {
		t.Fatalf("row 2 %q", text)
	}
}

type writerFunc func([]byte) uint64

func (f writerFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

func TestScrollbackIsBoundedAndAnchored(t *testing.T) {
	s := newTestScreen(t, 20, 3, 50)
	for i := 0; i < 200; i++ {
		fmt.Fprintf(writerFunc(s.write), "line %d\r\n", i)
	}
	lines := s.scrollbackText()
	if len(lines) != 50 || lines[0] != "line 148" || lines[49] != "line 197" {
		t.Fatalf("%d lines, %q … %q", len(lines), lines[0], lines[len(lines)-1])
	}
	scr := simScreen(t, 20, 3)
	d := s.drawTo(scr, 0, 0, 20, 3, DrawOptions{ScrollBack: 10})
	if text, _ := rowAt(scr, 0); text != "line 188" {
		t.Fatalf("row 0 %q", text)
	}
	// More output: with the anchor, the view stays on the same lines.
	for i := 200; i < 205; i++ {
		fmt.Fprintf(writerFunc(s.write), "line %d\r\n", i)
	}
	d = s.drawTo(scr, 0, 0, 20, 3, DrawOptions{ScrollBack: d.ScrollBack, Anchor: d.Pushed})
	if text, _ := rowAt(scr, 0); text != "line 188" || d.ScrollBack != 15 {
		t.Fatalf("row 0 %q, back %d", text, d.ScrollBack)
	}
}

func TestClearScrollbackAndAltScreen(t *testing.T) {
	s := newTestScreen(t, 20, 3, 50)
	for i := 0; i < 10; i++ {
		fmt.Fprintf(writerFunc(s.write), "line %d\r\n", i)
	}
	if len(s.scrollbackText()) == 0 {
		t.Fatal("no scrollback")
	}
	// A full-screen program scrolling in the alternate screen adds nothing.
	before := len(s.scrollbackText())
	s.write([]byte("\x1b[?1049h"))
	for i := 0; i < 20; i++ {
		fmt.Fprintf(writerFunc(s.write), "alt %d\r\n", i)
	}
	if !s.getModes().AltScreen || len(s.scrollbackText()) != before {
		t.Fatalf("alt screen changed the scrollback: %d lines", len(s.scrollbackText()))
	}
	s.write([]byte("\x1b[?1049l"))
	if s.getModes().AltScreen || len(s.scrollbackText()) != before || !strings.Contains(s.text(), "line 9") {
		t.Fatalf("leaving the alternate screen: %q", s.text())
	}
	// clear(1) sends ED 3.
	s.write([]byte("\x1b[H\x1b[2J\x1b[3J"))
	if n := len(s.scrollbackText()); n != 0 {
		t.Fatalf("%d lines after ED 3", n)
	}
}

func TestShrinkKeepsTheCursorLine(t *testing.T) {
	s := newTestScreen(t, 20, 10, 50)
	for i := 0; i < 9; i++ {
		fmt.Fprintf(writerFunc(s.write), "line %d\r\n", i)
	}
	s.write([]byte("$ prompt"))
	s.resize(20, 4)
	if got := s.text(); got != "line 6\nline 7\nline 8\n$ prompt" {
		t.Fatalf("after shrinking:\n%s", got)
	}
	if lines := s.scrollbackText(); len(lines) != 6 || lines[5] != "line 5" {
		t.Fatalf("scrollback %q", lines)
	}
}

// A full-screen program after a first one still gets the alternate screen:
// the clean-up fawn does after the first left it must not throw later ones
// back onto the normal screen.
func TestAlternateScreenAfterTheFirstProgram(t *testing.T) {
	s := newTestScreen(t, 20, 6, 50)
	s.write([]byte("$ prompt\r\n"))
	for round := 1; round <= 3; round++ {
		s.write([]byte("\x1b[?1049hX\r\n1\r\n"))
		s.write([]byte("2\r\n3\r\n"))
		if got := s.text(); !s.getModes().AltScreen || got != "X\n1\n2\n3" {
			t.Fatalf("round %d: in the alternate screen (%v):\n%s", round, s.getModes().AltScreen, got)
		}
		s.write([]byte("\x1b[?1049l"))
		if got := s.text(); s.getModes().AltScreen || got != "$ prompt" {
			t.Fatalf("round %d: after leaving (%v):\n%s", round, s.getModes().AltScreen, got)
		}
		if sb := s.scrollbackText(); len(sb) != 0 {
			t.Fatalf("round %d: the program's page went into the scrollback: %q", round, sb)
		}
	}
}

// replies collects what a screen answers to queries.
type replies struct {
	mu  sync.Mutex
	got strings.Builder
}

func (r *replies) add(p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got.Write(p)
}

func (r *replies) wait(t *testing.T, want string) {
	t.Helper()
	waitFor(t, fmt.Sprintf("the reply %q", want), func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return strings.Contains(r.got.String(), want)
	})
}

// Programs that ask for the colours or the colour scheme hear the
// theme's: vim picks its background from the answer.
func TestColourQueriesAnswerTheTheme(t *testing.T) {
	for _, c := range []struct {
		name   string
		colors Colors
		scheme string
		bg     string
	}{
		{"dark", Colors{Foreground: color.RGBA{0xd8, 0xd8, 0xd8, 0xff}, Background: color.RGBA{0x1c, 0x1c, 0x1c, 0xff}}, "\x1b[?997;1n", "rgb:1c1c/1c1c/1c1c"},
		{"light", Colors{Foreground: color.RGBA{0x1c, 0x1c, 0x1c, 0xff}, Background: color.RGBA{0xff, 0xff, 0xff, 0xff}}, "\x1b[?997;2n", "rgb:ffff/ffff/ffff"},
		{"unset", Colors{}, "\x1b[?997;1n", "rgb:0000/0000/0000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &replies{}
			s := newScreen(80, 24, 100, c.colors, r.add)
			t.Cleanup(s.close)
			s.write([]byte("\x1b[?996n"))
			r.wait(t, c.scheme)
			s.write([]byte("\x1b]11;?\x07"))
			r.wait(t, c.bg)
			// The other status reports are still vt's.
			s.write([]byte("\x1b[?6n"))
			r.wait(t, "\x1b[?1;1")
		})
	}
}

// The cursor shape a program sets (vim's bar in insert mode) is kept as
// sent, the user's own (0) included, for the view to show.
func TestCursorShapeIsKept(t *testing.T) {
	s := newTestScreen(t, 20, 5, 10)
	scr := simScreen(t, 20, 5)
	for _, c := range []struct {
		seq  string
		want tcell.CursorStyle
	}{
		{"", tcell.CursorStyleDefault},
		{"\x1b[5 q", tcell.CursorStyleBlinkingBar},
		{"\x1b[2 q", tcell.CursorStyleSteadyBlock},
		{"\x1b[4 q", tcell.CursorStyleSteadyUnderline},
		{"\x1b[0 q", tcell.CursorStyleDefault},
		{"\x1b[6 q", tcell.CursorStyleSteadyBar},
		{"\x1b[ q", tcell.CursorStyleDefault},
	} {
		s.write([]byte(c.seq))
		if d := s.drawTo(scr, 0, 0, 20, 5, DrawOptions{}); d.CursorShape != c.want {
			t.Errorf("after %q the shape is %d, want %d", c.seq, d.CursorShape, c.want)
		}
	}
}

// A synchronized update (mode 2026) drawn in pieces is shown whole: the
// screen as it was until the update ends.
func TestSynchronizedUpdateIsShownWhole(t *testing.T) {
	s := newTestScreen(t, 20, 3, 10)
	scr := simScreen(t, 20, 3)
	s.write([]byte("old frame"))
	s.write([]byte("\x1b[?2026h\x1b[H\x1b[2Jnew "))
	s.drawTo(scr, 0, 0, 20, 3, DrawOptions{})
	if got, _ := rowAt(scr, 0); strings.TrimRight(got, " ") != "old frame" {
		t.Fatalf("half an update is shown: %q", got)
	}
	s.write([]byte("frame\x1b[?2026l"))
	s.drawTo(scr, 0, 0, 20, 3, DrawOptions{})
	if got, _ := rowAt(scr, 0); strings.TrimRight(got, " ") != "new frame" {
		t.Fatalf("the finished update is not shown: %q", got)
	}
	// An update that never ends holds the screen only syncLimit.
	old := syncLimit
	syncLimit = 0
	t.Cleanup(func() { syncLimit = old })
	s.write([]byte("\x1b[?2026h\x1b[Hstuck"))
	s.drawTo(scr, 0, 0, 20, 3, DrawOptions{})
	if got, _ := rowAt(scr, 0); strings.TrimRight(got, " ") != "stuckrame" {
		t.Fatalf("an update past the limit still holds the screen: %q", got)
	}
}

// allText is the scrollback and the screen as lines of text.
func (s *screen) allText() []string {
	s.mu.Lock()
	var out []string
	for i := 0; i < s.hist.len(); i++ {
		out = append(out, strings.TrimRight(s.hist.line(i).text, " "))
	}
	s.mu.Unlock()
	return append(out, strings.Split(s.text(), "\n")...)
}

// Scrolling past a flood's middle leaves the scrollback and the screen as
// printing it would have: every line, wrapped at the width, in order.
func TestScrollPastLeavesWhatPrintingWould(t *testing.T) {
	var region strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&region, "\x1b[3%dmline %d\x1b[0m of the flood\n", i%8, i)
		switch i {
		case 50:
			region.WriteString("a line much longer than the twenty columns of this screen, wrapped\n")
		case 60:
			// (Not wrapped: vt drops a wide character that does not fit
			// at the end of a row; wrapCells is tested on its own.)
			region.WriteString("wide: 世界世界\n")
		case 70:
			region.WriteString("tab\there\tand\tthere\n")
		case 80:
			region.WriteString("progress 10%\rprogress 100%\x1b[K\n")
		case 90:
			region.WriteString("\n\n")
		}
	}
	for _, sb := range []int{1000, 30} { // all of it kept; only the last 30 lines
		t.Run(fmt.Sprint(sb), func(t *testing.T) {
			printed := newTestScreen(t, 20, 6, sb)
			fast := newTestScreen(t, 20, 6, sb)
			for _, s := range []*screen{printed, fast} {
				s.write([]byte("$ old line\r\n$ flood\r\n"))
			}
			printed.write([]byte(strings.ReplaceAll(region.String(), "\n", "\r\n")))
			if !fast.scrollPast([]byte(region.String())) {
				t.Fatal("scrollPast declined on a plain screen")
			}
			for _, s := range []*screen{printed, fast} {
				s.write([]byte("tail 1\r\ntail 2\r\n$ "))
			}
			want, got := printed.allText(), fast.allText()
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("scrolled past:\n%s\n\nprinted:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// In the alternate screen, or with scroll margins, scrollPast declines.
func TestScrollPastDeclinesWhereItWouldNotBeFaithful(t *testing.T) {
	s := newTestScreen(t, 20, 6, 100)
	s.write([]byte("\x1b[2;5r"))
	if s.scrollPast([]byte("x\n")) {
		t.Fatal("scrolled past with margins set")
	}
	s.write([]byte("\x1b[r\x1b[?1049h"))
	if s.scrollPast([]byte("x\n")) {
		t.Fatal("scrolled past in the alternate screen")
	}
	s.write([]byte("\x1b[?1049l"))
	if !s.scrollPast([]byte("x\n")) {
		t.Fatal("declined once the margins and the alternate screen are gone")
	}
}

// A wide character that does not fit at the end of a row goes to the next
// one, as xterm does.
func TestWrapCellsMovesAWideCharacterToTheNextRow(t *testing.T) {
	rows := wrapCells([]byte("abcd世界e"), 5)
	var got []string
	for _, r := range rows {
		got = append(got, string(r))
	}
	if strings.Join(got, "|") != "abcd|世界e" {
		t.Fatalf("rows %q", got)
	}
	if got := wrapCells(nil, 5); len(got) != 1 || len(got[0]) != 0 {
		t.Fatalf("an empty line is %q", got)
	}
}

// DECALN (ESC # 8) fills the screen with E and homes the cursor, as vttest
// expects.
func TestAlignmentFill(t *testing.T) {
	s := newTestScreen(t, 6, 3, 10)
	s.write([]byte("\x1b[2;3rabc\x1b#8X"))
	if got := s.text(); got != "XEEEEE\nEEEEEE\nEEEEEE" {
		t.Fatalf("screen %q", got)
	}
	// Split across writes: the fill still happens.
	s.write([]byte("\x1b[2J\x1b"))
	s.write([]byte("#8"))
	if got := s.text(); got != "EEEEEE\nEEEEEE\nEEEEEE" {
		t.Fatalf("split: screen %q", got)
	}
}
