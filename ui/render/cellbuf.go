package render

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
)

// Buffer is the screen the widgets draw on: a grid of cells that Show
// copies to the real screen, cell by cell, only where it differs from what
// the last frame put there.
//
// tcell diffs cells itself, but it marks a cell for output as soon as its
// content changes within a frame: clearing the screen (or a box its
// background) and drawing the same text again sends every cell that is not
// blank, every frame. Drawn here first, a frame reaches tcell as its net
// change only, and an answer streaming into the chat does not repaint the
// editor, the terminal and the borders ~60 times a second.
type Buffer struct {
	tcell.Screen // the real screen: events, cursor, size, everything but content

	w, h  int
	cells []bcell // this frame
	shown []bcell // what the real screen was given; str "" where unknown

	// lo[y]..hi[y] are the columns of row y written since the last flush
	// (none when lo > hi). Elsewhere a cell is what the last flush gave
	// the real screen, unless shown does not know it: a frame that redraws
	// only the chat compares only the chat's cells.
	lo, hi []int
	// sent[y]: a flush has gone through row y since the real screen was
	// last cleared, so every cell of it the real screen needs is in shown
	// (a wide character's unknown right half is never sent while the wide
	// character stays). Such a row not written since is skipped whole.
	sent []bool

	// Partial: this frame is drawn over the last one's cells (a chat-only
	// frame) rather than on a cleared screen; frame counts the flushes.
	// A widget that knows what it drew in the last frame redraws only what
	// changed when Partial (MessageList keeps its rows).
	Partial bool
	frame   uint64

	// The cursor shape: tcell sends it with every frame that shows the
	// cursor (ESC [ 0 SP q and the like). The terminal keeps the last one,
	// so it is handed to tcell only when it changes.
	shape     tcell.CursorStyle // this frame's
	shapeSent tcell.CursorStyle // the terminal's; shapeUnknown after a Sync
	cursorOn  bool              // this frame shows the cursor (tcell sends the shape only then)

	// pal maps RGB colours to the palette of a terminal that takes no RGB
	// colours (nil otherwise); last and lastOn are the last style mapped.
	pal          *palette
	last, lastOn tcell.Style

	// styles are the styles cells refer to, ids their indices; lastStyle
	// and lastID are the last one looked up (a run of cells shares one).
	styles    []tcell.Style
	ids       map[tcell.Style]styleID
	lastStyle tcell.Style
	lastID    styleID

	// lastPut is the text of the last Put that was one whole cluster, and
	// lastWidth its width: the next Put of the same text skips the
	// grapheme segmentation.
	lastPut   string
	lastWidth int
}

func (f *Buffer) ShowCursor(x, y int) {
	f.cursorOn = x >= 0 && y >= 0 && x < f.w && y < f.h
	f.Screen.ShowCursor(x, y)
}

func (f *Buffer) HideCursor() {
	f.cursorOn = false
	f.Screen.HideCursor()
}

// shapeUnknown stands for a cursor shape the terminal may not have; tcell
// knows no sequence for it and so sends none.
const shapeUnknown tcell.CursorStyle = -1

// SetCursorStyle sets this frame's cursor shape (the colour is ignored:
// fawn sets none).
func (f *Buffer) SetCursorStyle(cs tcell.CursorStyle, _ ...tcell.Color) { f.shape = cs }

// bcell is a cell: its text, its width and its style as an index into the
// buffer's styles. A tcell.Style is 72 bytes; a cell 24, which is what a
// frame reads and compares, and what the collector scans.
type bcell struct {
	str   string
	width int32
	style styleID
}

// styleID is a style's index in Buffer.styles; 0 is tcell.StyleDefault.
type styleID uint32

// maxStyles is how many styles the buffer keeps before it drops those no
// cell uses any more (links make a style each).
const maxStyles = 4096

// NewBuffer is an empty buffer over s; on a terminal of 8 to 256 colours it
// maps RGB colours to the terminal's palette. Begin sizes it.
func NewBuffer(s tcell.Screen) *Buffer {
	f := &Buffer{Screen: s, shapeSent: shapeUnknown}
	f.resetStyles()
	if _, tty := s.Tty(); tty {
		// A terminal with a palette of 8 to 256 colours (tcell says 1<<24
		// for one that takes RGB, 0 for NO_COLOR).
		if n := s.Colors(); n >= 8 && n <= 256 {
			f.pal = newPalette(n)
		}
	}
	return f
}

// onScreen is the style tcell is given for s.
func (f *Buffer) onScreen(s tcell.Style) tcell.Style {
	if f.pal == nil {
		return s
	}
	if s != f.last {
		f.last, f.lastOn = s, f.pal.style(s)
	}
	return f.lastOn
}

// resetStyles starts the styles with the default one alone.
func (f *Buffer) resetStyles() {
	f.styles = []tcell.Style{tcell.StyleDefault}
	f.ids = map[tcell.Style]styleID{tcell.StyleDefault: 0}
	f.lastStyle, f.lastID = tcell.StyleDefault, 0
}

// id is style's index, added if new.
func (f *Buffer) id(style tcell.Style) styleID {
	if style == f.lastStyle {
		return f.lastID
	}
	id, ok := f.ids[style]
	if !ok {
		id = styleID(len(f.styles))
		f.styles = append(f.styles, style)
		f.ids[style] = id
	}
	f.lastStyle, f.lastID = style, id
	return id
}

// compactStyles keeps only the styles cells use, once there are more than
// maxStyles: a long session's links would otherwise each keep one.
func (f *Buffer) compactStyles() {
	if len(f.styles) <= maxStyles {
		return
	}
	old := f.styles
	f.resetStyles()
	remap := make(map[styleID]styleID)
	for _, cells := range [][]bcell{f.cells, f.shown} {
		for i := range cells {
			c := &cells[i]
			n, ok := remap[c.style]
			if !ok {
				n = f.id(old[c.style])
				remap[c.style] = n
			}
			c.style = n
		}
	}
}

// Begin starts a frame at the real screen's size.
func (f *Buffer) Begin() {
	f.compactStyles()
	if f.Resized() {
		f.w, f.h = f.Screen.Size()
		f.cells = make([]bcell, f.w*f.h)
		f.shown = make([]bcell, f.w*f.h)
		f.lo, f.hi = make([]int, f.h), make([]int, f.h)
		f.sent = make([]bool, f.h)
		for y := range f.h {
			f.wrote(y, 0, f.w-1)
		}
	}
}

// wrote notes that columns x0..x1 of row y were written.
func (f *Buffer) wrote(y, x0, x1 int) {
	f.lo[y] = min(f.lo[y], x0)
	f.hi[y] = max(f.hi[y], x1)
}

// Resized reports whether the real screen's size differs from the buffer's.
func (f *Buffer) Resized() bool {
	w, h := f.Screen.Size()
	return w != f.w || h != f.h
}

// FillRect fills a rectangle (clipped to the buffer) with r in style.
func (f *Buffer) FillRect(x, y, w, h int, r rune, style tcell.Style) {
	c := bcell{str: string(r), style: f.id(style), width: 1}
	x0, x1 := max(x, 0), min(x+w, f.w)
	for row := max(y, 0); row < min(y+h, f.h); row++ {
		for col := x0; col < x1; col++ {
			f.cells[row*f.w+col] = c
		}
		if x0 < x1 {
			f.wrote(row, x0, x1-1)
		}
	}
}

// Kept is what a widget drew in a frame, for a chat-only frame to skip
// drawing it again where it would draw the same (its cells are still in
// the buffer).
type Kept struct {
	frame uint64 // the frame it was drawn in, counted as Buffer.frame; 0: none
	rect  [4]int
	style tcell.Style
	a, b  Line
}

// Keep reports whether a widget that last drew k would draw the same
// again: this is a chat-only frame, the last frame drew k, and the rect,
// style and lines are k's. Either way k becomes this frame's drawing.
func Keep(screen tcell.Screen, k *Kept, rect [4]int, style tcell.Style, a, b Line) bool {
	f, ok := screen.(*Buffer)
	if !ok {
		return false
	}
	same := f.Partial && k.frame != 0 && k.frame == f.frame && k.rect == rect && k.style == style && k.a.Equal(a) && k.b.Equal(b)
	k.frame = f.frame + 1
	if !same {
		k.rect, k.style = rect, style
		k.a, k.b = append(k.a[:0], a...), append(k.b[:0], b...)
	}
	return same
}

// Invalidate forgets what the real screen holds, so the next Show sends
// every cell (after a resize or a Sync the real screen starts over).
func (f *Buffer) Invalidate() {
	clear(f.shown)
	clear(f.sent)
	f.shapeSent = shapeUnknown
}

func (f *Buffer) Size() (int, int) { return f.w, f.h }

// Frame counts the frames shown: a widget that notes it when it draws can
// tell in a partial frame whether its cells are still the last frame's.
func (f *Buffer) Frame() uint64 { return f.frame }

func (f *Buffer) at(x, y int) *bcell {
	if x < 0 || y < 0 || x >= f.w || y >= f.h {
		return nil
	}
	return &f.cells[y*f.w+x]
}

func (f *Buffer) Put(x, y int, str string, style tcell.Style) (string, int) {
	var cl string
	width := 0
	if str != "" && str == f.lastPut {
		// The same text as the last Put: one cluster (borders, rules).
		cl, width, str = f.lastPut, f.lastWidth, ""
	} else {
		whole := str
		state := -1
		for width == 0 && str != "" {
			g, rest, w, st := uniseg.FirstGraphemeClusterInString(str, state)
			if p, bad := safetext.Cell(g); bad {
				// A control character a caller forgot to show is a cell
				// of its own showing its picture, never sent raw: the
				// terminal would act on it.
				if cl == "" {
					cl, width, str = p, 1, rest
				}
				break
			}
			cl += g
			str, width, state = rest, w, st
			if g == "" {
				break
			}
		}
		if str == "" && width > 0 && cl == whole {
			f.lastPut, f.lastWidth = whole, width
		}
	}
	if c := f.at(x, y); c != nil {
		if cl == "" {
			cl = " "
		}
		n := bcell{str: cl, style: f.id(style), width: int32(max(width, 1))}
		if *c != n {
			*c = n
			f.wrote(y, x, x)
		}
		// Unchanged, the cell is left out of the row's written columns:
		// outside them a cell holds what the last flush gave the real
		// screen (or the real screen's is unknown), and that still holds.
		// A chat-only frame redraws the chat's border without widening
		// every row's columns to the chat's width.
	}
	return str, width
}

func (f *Buffer) SetContent(x, y int, primary rune, combining []rune, style tcell.Style) {
	if len(combining) == 0 && primary >= 0 && primary < utf8.RuneSelf {
		// tview's widgets draw a rune at a time: an ASCII one is cut from
		// a constant rather than made a string of its own each frame.
		f.Put(x, y, asciiRunes[primary:primary+1], style)
		return
	}
	if len(combining) == 0 {
		f.Put(x, y, string(primary), style)
		return
	}
	f.Put(x, y, string(append([]rune{primary}, combining...)), style)
}

// asciiRunes holds the ASCII characters in order, each a one-byte string.
const asciiRunes = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f"

func (f *Buffer) SetCell(x, y int, style tcell.Style, ch ...rune) {
	if len(ch) > 0 {
		f.SetContent(x, y, ch[0], ch[1:], style)
	}
}

func (f *Buffer) PutStr(x, y int, str string) { f.PutStrStyled(x, y, str, tcell.StyleDefault) }

func (f *Buffer) PutStrStyled(x, y int, str string, style tcell.Style) {
	for str != "" && x < f.w {
		var w int
		str, w = f.Put(x, y, str, style)
		if w == 0 {
			break
		}
		x += w
	}
}

func (f *Buffer) Get(x, y int) (string, tcell.Style, int) {
	c := f.at(x, y)
	if c == nil {
		return "", tcell.StyleDefault, 0
	}
	if c.str == "" {
		return " ", f.styles[c.style], 1
	}
	return c.str, f.styles[c.style], int(c.width)
}

func (f *Buffer) GetContent(x, y int) (rune, []rune, tcell.Style, int) {
	str, style, width := f.Get(x, y)
	rs := []rune(str)
	if len(rs) == 0 {
		return ' ', nil, style, width
	}
	return rs[0], rs[1:], style, width
}

func (f *Buffer) Fill(r rune, style tcell.Style) {
	c := bcell{str: string(r), style: f.id(style), width: 1}
	if p, bad := safetext.Cell(c.str); bad {
		c.str = p
	}
	for i := range f.cells {
		f.cells[i] = c
	}
	for y := range f.h {
		f.wrote(y, 0, f.w-1)
	}
}

func (f *Buffer) Clear() { f.Fill(' ', tcell.StyleDefault) }

// Show hands the real screen the cells that changed since the last frame,
// then shows it.
func (f *Buffer) Show() {
	f.flush()
	f.sendShape()
	f.Screen.Show()
}

// sendShape gives tcell the cursor shape if the terminal does not have it
// yet, and otherwise a shape tcell sends nothing for.
func (f *Buffer) sendShape() {
	if !f.cursorOn {
		return // nothing is sent with a hidden cursor
	}
	if f.shape == f.shapeSent {
		f.Screen.SetCursorStyle(shapeUnknown)
		return
	}
	f.Screen.SetCursorStyle(f.shape)
	f.shapeSent = f.shape
}

// Sync redraws the whole real screen.
func (f *Buffer) Sync() {
	f.Invalidate()
	f.flush()
	f.sendShape()
	f.Screen.Sync()
}

func (f *Buffer) flush() {
	for y := range f.h {
		lo, hi := f.lo[y], f.hi[y]
		if lo > hi && f.sent[y] {
			continue // as the last flush left it
		}
		for x := 0; x < f.w; x++ {
			i := y*f.w + x
			if (x < lo || x > hi) && f.shown[i].str != "" {
				// Not written since the last flush, which gave it to
				// the real screen: only a wide character's right half
				// needs its care.
				if f.cells[i].width > 1 && x < f.w-1 {
					x++
					f.shown[i+1] = bcell{}
				}
				continue
			}
			c := &f.cells[i]
			if c.str == "" {
				*c = bcell{str: " ", width: 1}
			}
			if f.shown[i] != *c {
				f.shown[i] = *c
				f.Screen.Put(x, y, c.str, f.onScreen(f.styles[c.style]))
			}
			if c.width > 1 && x < f.w-1 {
				// The right half of a wide character is not a cell of its
				// own; whatever comes there once it is gone must be sent.
				x++
				f.shown[i+1] = bcell{}
			}
		}
		f.sent[y] = true
		f.lo[y], f.hi[y] = f.w, -1
	}
	f.frame++
}
