package terminal

import (
	"image/color"
	"time"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/gdamore/tcell/v2"
)

// DrawOptions says how DrawTo renders.
type DrawOptions struct {
	// ScrollBack is how many lines the view is scrolled back from the live
	// screen (0 shows the live screen). It is clamped to what exists.
	ScrollBack int
	// Anchor is the Drawn.Pushed of the draw ScrollBack was chosen at: the
	// lines pushed since are added, so a view scrolled back stays on the
	// same lines while output goes on.
	Anchor uint64
	// Style is used for cells in the terminal's default colours.
	Style tcell.Style
}

// Drawn reports what DrawTo drew.
type Drawn struct {
	// ScrollBack is the clamped scroll position actually drawn.
	ScrollBack int
	// Lines is how many scrollback lines there are to scroll through.
	Lines int
	// Pushed counts every line that ever entered the scrollback; a view
	// scrolled back adds the difference between two draws to stay put.
	Pushed uint64
	// CursorX, CursorY are relative to the drawn area; CursorVisible is
	// false when the program hid the cursor or the view is scrolled back.
	CursorX, CursorY int
	CursorVisible    bool
	// CursorShape is the shape the program asked for (DECSCUSR; vim's bar
	// in insert mode): tcell numbers them as DECSCUSR does.
	CursorShape tcell.CursorStyle
}

// cellSetter is what a frame is rendered into.
type cellSetter interface {
	SetContent(x, y int, primary rune, combining []rune, style tcell.Style)
}

// frame is the pane's area as last rendered from the emulator.
type frame struct {
	w, h  int
	cells []frameCell
	drawn Drawn
	opts  DrawOptions // what it was rendered with
	// What the UI last asked for, which the feeder renders when the UI
	// found the emulator busy.
	wantW, wantH int
	want         DrawOptions
}

type frameCell struct {
	r    rune
	comb []rune
	st   tcell.Style
}

func (f *frame) SetContent(x, y int, r rune, comb []rune, st tcell.Style) {
	if x >= 0 && y >= 0 && x < f.w && y < f.h {
		f.cells[y*f.w+x] = frameCell{r: r, comb: comb, st: st}
	}
}

// drawTo draws the emulator's cells into the w×h area at x, y of scr. It
// never waits for the emulator: when a write holds it, the last frame is
// drawn again and the feeder renders a new one once the write is over
// (and asks for a draw).
func (s *screen) drawTo(scr tcell.Screen, x, y, w, h int, o DrawOptions) Drawn {
	locked := s.mu.TryLock()
	s.frameMu.Lock()
	defer s.frameMu.Unlock()
	s.frame.wantW, s.frame.wantH, s.frame.want = w, h, o
	if locked {
		s.renderFrameLocked()
		s.mu.Unlock()
	} else {
		s.frameWanted.Store(true)
	}
	d := s.blit(scr, x, y, w, h, o.Style)
	if !locked && (s.frame.opts != o || s.frame.w != w || s.frame.h != h) {
		// A frame rendered for other options (the view scrolled, or was
		// resized, since): the view is told what it asked for, so that
		// the stale frame does not undo its scrolling.
		d.ScrollBack = o.ScrollBack
		if o.Anchor != 0 {
			d.Pushed = o.Anchor
		}
		d.Lines = max(d.Lines, o.ScrollBack)
		d.CursorVisible = false
	}
	return d
}

// renderFrame renders the frame the UI last asked for; s.mu is held.
func (s *screen) renderFrame() {
	s.frameMu.Lock()
	defer s.frameMu.Unlock()
	s.renderFrameLocked()
}

// renderFrameLocked renders the frame; s.mu and s.frameMu are held.
func (s *screen) renderFrameLocked() {
	f := &s.frame
	f.w, f.h = max(f.wantW, 0), max(f.wantH, 0)
	if n := f.w * f.h; cap(f.cells) >= n {
		f.cells = f.cells[:n]
	} else {
		f.cells = make([]frameCell, n)
	}
	f.drawn = s.render(f, f.w, f.h, f.want)
	f.opts = f.want
}

// blit draws the frame at x, y of scr, blank where it does not cover the
// w×h area; s.frameMu is held.
func (s *screen) blit(scr tcell.Screen, x, y, w, h int, base tcell.Style) Drawn {
	f := &s.frame
	for row := 0; row < h; row++ {
		for col := 0; col < w; col++ {
			if col < f.w && row < f.h {
				c := &f.cells[row*f.w+col]
				scr.SetContent(x+col, y+row, c.r, c.comb, c.st)
			} else {
				scr.SetContent(x+col, y+row, ' ', nil, base)
			}
		}
	}
	d := f.drawn
	if d.CursorX >= w || d.CursorY >= h {
		d.CursorVisible = false
	}
	return d
}

// render draws the emulator's cells into a w×h area of dst; s.mu is held.
func (s *screen) render(scr cellSetter, w, h int, o DrawOptions) Drawn {
	x, y := 0, 0
	e := s.emu
	sbLen := 0
	if !e.IsAltScreen() {
		sbLen = s.hist.len()
	}
	back := max(o.ScrollBack, 0)
	if back > 0 && o.Anchor != 0 && s.pushed > o.Anchor {
		back += int(s.pushed - o.Anchor)
	}
	back = min(back, sbLen)
	d := Drawn{ScrollBack: back, Lines: sbLen, Pushed: s.pushed, CursorShape: tcell.CursorStyle(s.shape)}
	baseFg, baseBg, _ := o.Style.Decompose()
	rows, cols := e.Height(), e.Width()
	if f := s.frozen; f != nil && (time.Since(f.since) > syncLimit || f.cols != cols || f.rows != rows) {
		s.frozen = nil // held too long, or resized since
	}
	cursor, cursorOff := e.CursorPosition(), s.cursorOff
	if f := s.frozen; f != nil {
		cursor, cursorOff = f.cursor, f.cursorOff
	}
	for row := 0; row < h; row++ {
		idx := row - back // < 0: a scrollback line
		if idx < 0 {
			s.drawHistLine(scr, x, y+row, w, s.hist.line(sbLen+idx), o.Style, baseFg, baseBg)
			continue
		}
		for col := 0; col < w; {
			var c *uv.Cell
			if idx < rows && col < cols {
				c = s.cellAt(col, idx)
			}
			if c == nil || (c.Content == "" && c.Width == 0) {
				scr.SetContent(x+col, y+row, ' ', nil, o.Style)
				col++
				continue
			}
			st := cellStyle(c, o.Style)
			if c.Link.URL != "" {
				st = st.Underline(true) // an OSC 8 hyperlink
			}
			r, comb := splitContent(c.Content)
			if c.Width == 1 {
				comb = narrowComb(comb)
			}
			if c.Style.Attrs&uv.AttrConceal != 0 {
				r, comb = ' ', nil // hidden (SGR 8): drawn as blanks, as xterm does
			}
			scr.SetContent(x+col, y+row, r, comb, st)
			width := max(c.Width, 1)
			for k := 1; k < width && col+k < w; k++ {
				// Covered by the wide character; tcell skips these.
				scr.SetContent(x+col+k, y+row, ' ', nil, st)
			}
			col += width
		}
	}
	if back == 0 && !cursorOff {
		if cursor.X < w && cursor.Y < h {
			d.CursorX, d.CursorY, d.CursorVisible = cursor.X, cursor.Y, true
		}
	}
	return d
}

func (s *screen) drawHistLine(scr cellSetter, x, y, w int, l *histLine, base tcell.Style, fg, bg tcell.Color) {
	n := 0
	if l != nil {
		n = l.cells()
	}
	run := 0
	for col := 0; col < w; {
		if col >= n {
			scr.SetContent(x+col, y, ' ', nil, base)
			col++
			continue
		}
		for run+1 < len(l.runs) && int(l.runs[run+1].col) <= col {
			run++
		}
		st := base
		if len(l.runs) > 0 {
			st = s.hist.styles[l.runs[run].style]
			if f, b, _ := st.Decompose(); f == tcell.ColorDefault || b == tcell.ColorDefault {
				if f == tcell.ColorDefault {
					st = st.Foreground(fg)
				}
				if b == tcell.ColorDefault {
					st = st.Background(bg)
				}
			}
		}
		content, width := l.cell(col)
		if content == "" {
			scr.SetContent(x+col, y, ' ', nil, st)
			col++
			continue
		}
		r, comb := splitContent(content)
		if width == 1 {
			comb = narrowComb(comb)
		}
		scr.SetContent(x+col, y, r, comb, st)
		for k := 1; k < width && col+k < w; k++ {
			scr.SetContent(x+col+k, y, ' ', nil, st)
		}
		col += max(width, 1)
	}
}

// narrowComb drops VS16 (U+FE0F) from the marks of a cell one column wide
// ("❤️", which the emulator gives the width readline assumes): with it,
// tcell and the outer terminal would draw the character two columns wide.
func narrowComb(comb []rune) []rune {
	for i, r := range comb {
		if r == 0xfe0f {
			out := append([]rune(nil), comb[:i]...)
			for _, r := range comb[i+1:] {
				if r != 0xfe0f {
					out = append(out, r)
				}
			}
			if len(out) == 0 {
				return nil
			}
			return out
		}
	}
	return comb
}

func splitContent(s string) (rune, []rune) {
	if s == "" {
		return ' ', nil
	}
	r, n := utf8.DecodeRuneInString(s)
	if n == len(s) {
		return r, nil
	}
	return r, []rune(s[n:])
}

// cellStyle turns a vt cell style into a tcell style on top of base, whose
// colours stand for the terminal's defaults.
func cellStyle(c *uv.Cell, base tcell.Style) tcell.Style {
	st := base
	cs := &c.Style
	if cs.Fg != nil {
		st = st.Foreground(tcellColor(cs.Fg))
	}
	if cs.Bg != nil {
		st = st.Background(tcellColor(cs.Bg))
	}
	if cs.Attrs != 0 {
		a := cs.Attrs
		st = st.Bold(a&uv.AttrBold != 0).Dim(a&uv.AttrFaint != 0).Italic(a&uv.AttrItalic != 0).
			Blink(a&(uv.AttrBlink|uv.AttrRapidBlink) != 0).Reverse(a&uv.AttrReverse != 0).
			StrikeThrough(a&uv.AttrStrikethrough != 0)
	}
	if u := underline(cs.Underline); u != tcell.UnderlineStyleNone {
		// tcell draws the styles and colours of underlines that
		// terminals which know them (kitty, WezTerm, foot, VTE) show.
		st = st.Underline(u)
		if cs.UnderlineColor != nil {
			st = st.Underline(tcellColor(cs.UnderlineColor))
		}
	}
	return st
}

// underline is tcell's underline style for vt's (SGR 4:n).
func underline(u uv.UnderlineStyle) tcell.UnderlineStyle {
	switch u {
	case uv.UnderlineStyleNone:
		return tcell.UnderlineStyleNone
	case uv.UnderlineStyleDouble:
		return tcell.UnderlineStyleDouble
	case uv.UnderlineStyleCurly:
		return tcell.UnderlineStyleCurly
	case uv.UnderlineStyleDotted:
		return tcell.UnderlineStyleDotted
	case uv.UnderlineStyleDashed:
		return tcell.UnderlineStyleDashed
	}
	return tcell.UnderlineStyleSolid
}

// tcellColor keeps palette colours as palette colours, so the user's
// terminal theme decides what "red" looks like; 24-bit colours pass as RGB.
func tcellColor(c color.Color) tcell.Color {
	switch v := c.(type) {
	case ansi.BasicColor:
		return tcell.PaletteColor(int(v))
	case ansi.IndexedColor:
		return tcell.PaletteColor(int(v))
	case ansi.TrueColor:
		return tcell.NewHexColor(int32(v))
	}
	r, g, b, a := c.RGBA()
	if a == 0 {
		return tcell.ColorDefault
	}
	return tcell.NewRGBColor(int32(r>>8), int32(g>>8), int32(b>>8))
}
