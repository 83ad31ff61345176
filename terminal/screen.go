package terminal

import (
	"image/color"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/gdamore/tcell/v2"
)

// screen wraps the terminal emulator (charmbracelet/x/vt) behind one mutex,
// so it can be swapped for another emulator without touching the rest.
//
// vt answers the queries programs send (device attributes, cursor position,
// colours) through a synchronous pipe; a goroutine drains it into the pty's
// writer queue, or the first query (vim sends several) would block the
// feeder forever.
type screen struct {
	mu        sync.Mutex
	emu       *vt.Emulator
	sbMax     int // scrollback lines kept
	sbSlack   int // extra lines vt may hold before trim cuts them
	pushed    uint64
	modes     Modes
	title     string
	cursorOff bool

	replyDone chan struct{}
}

// Modes are the emulator states that decide how input is encoded.
type Modes struct {
	AppCursor      bool // DECCKM: arrows send ESC O A
	AppKeypad      bool // DECKPAM
	BracketedPaste bool
	AltScreen      bool
	// Mouse is the tracking the program asked for: 0 none, 9 X10 (press
	// only), 1000 press/release, 1002 + drag, 1003 any motion.
	Mouse    int
	MouseSGR bool // SGR (1006) encoding instead of X10 bytes
	Focus    bool // focus in/out reports (1004)
}

func newScreen(cols, rows, scrollback int, reply func([]byte)) *screen {
	s := &screen{
		emu:       vt.NewEmulator(cols, rows),
		sbMax:     scrollback,
		sbSlack:   feedPiece + 64, // a write adds at most one line per byte
		replyDone: make(chan struct{}),
	}
	// vt drops its oldest scrollback line by shifting the whole buffer, one
	// copy per line: slow once full. It is given room for sbSlack more lines
	// and trimmed (a reslice) after every write instead.
	s.emu.SetScrollbackSize(s.sbMax + s.sbSlack)
	s.emu.SetCallbacks(vt.Callbacks{
		Title:            func(t string) { s.title = t },
		AltScreen:        func(on bool) { s.modes.AltScreen = on },
		CursorVisibility: func(visible bool) { s.cursorOff = !visible },
		EnableMode:       func(m ansi.Mode) { s.setMode(m, true) },
		DisableMode:      func(m ansi.Mode) { s.setMode(m, false) },
	})
	go func() {
		defer close(s.replyDone)
		buf := make([]byte, 4096)
		for {
			n, err := s.emu.Read(buf)
			if n > 0 {
				reply(append([]byte(nil), buf[:n]...))
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// setMode tracks the modes input encoding depends on; it runs inside
// emu.Write, with s.mu held.
func (s *screen) setMode(m ansi.Mode, on bool) {
	dm, ok := m.(ansi.DECMode)
	if !ok {
		return
	}
	switch dm {
	case ansi.ModeCursorKeys:
		s.modes.AppCursor = on
	case ansi.ModeNumericKeypad:
		s.modes.AppKeypad = on
	case ansi.ModeBracketedPaste:
		s.modes.BracketedPaste = on
	case ansi.ModeMouseX10, ansi.ModeMouseNormal, ansi.ModeMouseButtonEvent, ansi.ModeMouseAnyEvent:
		if on {
			s.modes.Mouse = int(dm)
		} else if s.modes.Mouse == int(dm) {
			s.modes.Mouse = 0
		}
	case ansi.ModeMouseExtSgr:
		s.modes.MouseSGR = on
	case ansi.ModeFocusEvent:
		s.modes.Focus = on
	}
}

// close stops the reply goroutine.
func (s *screen) close() {
	// Closing the pipe directly rather than through emu.Close keeps the
	// emulator's closed flag untouched, which its Read reads unlocked.
	if pw, ok := s.emu.InputPipe().(*io.PipeWriter); ok {
		_ = pw.Close()
	}
	<-s.replyDone
}

// write feeds output to the emulator.
func (s *screen) write(p []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	before := s.emu.ScrollbackLen()
	_, _ = s.emu.Write(p)
	after := s.emu.ScrollbackLen()
	if after > before {
		s.pushed += uint64(after - before)
	}
	if after > s.sbMax {
		sb := s.emu.Scrollback()
		sb.SetMaxLines(s.sbMax)
		sb.SetMaxLines(s.sbMax + s.sbSlack)
	}
}

// resize changes the emulator's size. When the screen gets shorter, the
// lines above the cursor scroll into the scrollback the way xterm does it,
// so the prompt stays in view instead of being cut off.
func (s *screen) resize(cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cols == s.emu.Width() && rows == s.emu.Height() {
		return
	}
	if !s.emu.IsAltScreen() {
		if y := s.emu.CursorPosition().Y; y >= rows {
			n := y - rows + 1
			// SU scrolls the region up, keeping the cursor; CUU follows it.
			_, _ = s.emu.WriteString("\x1b[" + strconv.Itoa(n) + "S\x1b[" + strconv.Itoa(n) + "A")
		}
	}
	s.emu.Resize(cols, rows)
}

func (s *screen) size() (cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.Width(), s.emu.Height()
}

func (s *screen) getModes() Modes {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.modes
	m.AltScreen = s.emu.IsAltScreen()
	return m
}

func (s *screen) getTitle() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.title
}

// text returns the visible screen as plain text, trailing spaces trimmed.
func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sb strings.Builder
	for y := 0; y < s.emu.Height(); y++ {
		var line strings.Builder
		for x := 0; x < s.emu.Width(); x++ {
			c := s.emu.CellAt(x, y)
			if c == nil {
				line.WriteByte(' ')
				continue
			}
			if c.Width == 0 && c.Content == "" {
				continue // the second half of a wide character
			}
			if c.Content == "" {
				line.WriteByte(' ')
			} else {
				line.WriteString(c.Content)
			}
		}
		sb.WriteString(strings.TrimRight(line.String(), " "))
		sb.WriteByte('\n')
	}
	return strings.TrimRight(sb.String(), "\n")
}

// scrollbackText returns the scrollback lines as plain text, oldest first.
func (s *screen) scrollbackText() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.emu.Scrollback()
	if sb == nil {
		return nil
	}
	n := min(sb.Len(), s.sbMax)
	out := make([]string, 0, n)
	for i := sb.Len() - n; i < sb.Len(); i++ {
		var line strings.Builder
		for _, c := range sb.Line(i) {
			if c.Width == 0 && c.Content == "" {
				continue
			}
			if c.Content == "" {
				line.WriteByte(' ')
			} else {
				line.WriteString(c.Content)
			}
		}
		out = append(out, strings.TrimRight(line.String(), " "))
	}
	return out
}

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
}

// drawTo draws the emulator's cells into the w×h area at x, y of scr.
func (s *screen) drawTo(scr tcell.Screen, x, y, w, h int, o DrawOptions) Drawn {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.emu
	var sb *vt.Scrollback
	sbLen := 0
	if !e.IsAltScreen() {
		sb = e.Scrollback()
		sbLen = min(sb.Len(), s.sbMax)
	}
	back := max(o.ScrollBack, 0)
	if back > 0 && o.Anchor != 0 && s.pushed > o.Anchor {
		back += int(s.pushed - o.Anchor)
	}
	back = min(back, sbLen)
	d := Drawn{ScrollBack: back, Lines: sbLen, Pushed: s.pushed}
	rows, cols := e.Height(), e.Width()
	for row := 0; row < h; row++ {
		idx := row - back // < 0: a scrollback line
		var line uv.Line
		var onScreen bool
		switch {
		case idx < 0:
			if sb != nil {
				line = sb.Line(sb.Len() + idx)
			}
		case idx < rows:
			onScreen = true
		}
		for col := 0; col < w; {
			var c *uv.Cell
			if onScreen {
				if col < cols {
					c = e.CellAt(col, idx)
				}
			} else if col < len(line) {
				c = &line[col]
			}
			if c == nil || (c.Content == "" && c.Width == 0) {
				scr.SetContent(x+col, y+row, ' ', nil, o.Style)
				col++
				continue
			}
			st := cellStyle(c, o.Style)
			r, comb := splitContent(c.Content)
			scr.SetContent(x+col, y+row, r, comb, st)
			width := max(c.Width, 1)
			for k := 1; k < width && col+k < w; k++ {
				// Covered by the wide character; tcell skips these.
				scr.SetContent(x+col+k, y+row, ' ', nil, st)
			}
			col += width
		}
	}
	if back == 0 && !s.cursorOff {
		p := e.CursorPosition()
		if p.X < w && p.Y < h {
			d.CursorX, d.CursorY, d.CursorVisible = p.X, p.Y, true
		}
	}
	return d
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
		if a&uv.AttrConceal != 0 {
			_, bg, _ := st.Decompose()
			st = st.Foreground(bg)
		}
	}
	if cs.Underline != uv.UnderlineStyleNone {
		st = st.Underline(true)
	}
	return st
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
