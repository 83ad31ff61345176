package terminal

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// Hidden text (SGR 8) is drawn as blanks, on the screen and in the
// scrollback; the styles and colours of underlines (SGR 4:3, 4:2, 58) reach
// tcell, which draws them.
func TestHiddenTextAndUnderlineStyles(t *testing.T) {
	s := newTestScreen(t, 30, 3, 100)
	s.write([]byte("a\x1b[8msecret\x1b[28mb \x1b[4:3;58:5:1mcurly\x1b[4:2mdouble\x1b[m\r\n"))
	scr := simScreen(t, 30, 3)
	s.drawTo(scr, 0, 0, 30, 3, DrawOptions{})
	row, styles := rowAt(scr, 0)
	if row != "a      b curlydouble" {
		t.Fatalf("row %q: hidden text drawn", row)
	}
	if u := styles[9].GetUnderlineStyle(); u != tcell.UnderlineStyleCurly {
		t.Errorf("curly underline drawn as %v", u)
	}
	if c := styles[9].GetUnderlineColor(); c != tcell.PaletteColor(1) {
		t.Errorf("underline colour %v, want palette 1", c)
	}
	if u := styles[14].GetUnderlineStyle(); u != tcell.UnderlineStyleDouble {
		t.Errorf("double underline drawn as %v", u)
	}
	s.write([]byte("\r\n\r\n\r\n\r\n"))
	s.drawTo(scr, 0, 0, 30, 3, DrawOptions{ScrollBack: 100})
	rows := []string{}
	for y := 0; y < 3; y++ {
		r, _ := rowAt(scr, y)
		rows = append(rows, r)
	}
	if rows[0] != "a      b curlydouble" {
		t.Fatalf("scrollback %q: hidden text drawn", rows)
	}
}

// The urxvt mouse encoding (1015) is a mode the view encodes with.
func TestMouseURXVTMode(t *testing.T) {
	s := newTestScreen(t, 10, 2, 10)
	s.write([]byte("\x1b[?1000h\x1b[?1015h"))
	if m := s.getModes(); !m.MouseURXVT || m.Mouse != 1000 {
		t.Fatalf("modes %+v", m)
	}
	s.write([]byte("\x1b[?1015l"))
	if s.getModes().MouseURXVT {
		t.Fatal("1015 stays on")
	}
}

// "❤️" takes the one cell readline gives it, and is drawn without its VS16
// so tcell and the outer terminal draw it narrow: the x after it stays in
// the next column.
func TestEmojiWithVS16IsDrawnNarrow(t *testing.T) {
	s := newTestScreen(t, 10, 2, 10)
	s.write([]byte("❤️x"))
	scr := simScreen(t, 10, 2)
	s.drawTo(scr, 0, 0, 10, 2, DrawOptions{})
	scr.Show()
	cells, w, _ := scr.GetContents()
	if got := string(cells[0].Runes); got != "❤" {
		t.Errorf("cell 0 holds %q", got)
	}
	if got := string(cells[1].Runes); got != "x" {
		t.Errorf("cell 1 holds %q, want x (row: %v)", got, cells[:w])
	}
}
