package render

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
)

// Span is a run of text drawn in one style. Text never contains a newline.
type Span struct {
	Text  string
	Style tcell.Style
}

// Line is one screen row: spans drawn left to right.
type Line []Span

// Equal reports whether l and o are the same spans.
func (l Line) Equal(o Line) bool {
	if len(l) != len(o) {
		return false
	}
	for i := range l {
		if l[i] != o[i] {
			return false
		}
	}
	return true
}

// Width is the number of cells the line occupies.
func (l Line) Width() int {
	w := 0
	for _, s := range l {
		w += TextWidth(s.Text)
	}
	return w
}

// String is the line's text without styles.
func (l Line) String() string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Text)
	}
	return b.String()
}

// SafeLine is l with every span's text shown as safetext.Line shows it;
// l itself when nothing in it needs showing.
func SafeLine(l Line) Line {
	for i, s := range l {
		if !safetext.IsSafe(s.Text) {
			out := append(Line(nil), l...)
			for j := i; j < len(out); j++ {
				out[j].Text = safetext.Line(out[j].Text)
			}
			return out
		}
	}
	return l
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] < ' ' {
			return false
		}
	}
	return true
}

// TextWidth is the display width of s in cells, as tcell will draw it.
func TextWidth(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return uniseg.StringWidth(s)
}

// Sanitize makes one row of untrusted text safe to draw: tabs become
// spaces up to the next multiple of tabWidth, the CR of a CR LF line
// ending is dropped, and every other control character shows as
// safetext.Line shows it (ESC as ␛): drawn raw, an escape sequence would
// act on the terminal.
func Sanitize(s string, tabWidth int) string {
	if safetext.IsSafe(s) {
		return s
	}
	s = strings.TrimSuffix(s, "\r")
	if strings.IndexByte(s, '\t') >= 0 {
		var b strings.Builder
		col := 0
		for _, r := range s {
			if r == '\t' {
				n := tabWidth - col%tabWidth
				b.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			b.WriteRune(r)
			col++
		}
		s = b.String()
	}
	return safetext.Line(s)
}

// cell is one grapheme cluster placed during wrapping. src is the text g
// was cut from and off where: a row's run of clusters cut one after another
// from one text becomes its span as a substring of that text, not a copy
// (a streaming answer wraps its last paragraph every frame).
type cell struct {
	g     string
	w     int
	style tcell.Style
	src   string
	off   int
}

// wrapper breaks styled text into lines of at most width cells, at word
// boundaries where it can and inside a word where it must.
type wrapper struct {
	width  int
	hard   bool // break anywhere (code), not at word boundaries
	indent Line // drawn before every continuation line
	first  Line // drawn before the first line
	lines  []Line

	cur      []cell
	rest     []cell // scratch: what moves to the next row at a break
	curW     int
	prefixW  int
	breakAt  int // index in cur after which a break is allowed (-1 none)
	breakW   int // width of cur[:breakAt+1]
	hasFirst bool
}

// WrapLine wraps one logical line (spans without newlines) at width. first is
// drawn before the first row, indent before every following row; both count
// towards width.
func WrapLine(spans []Span, width int, first, indent Line) []Line {
	return WrapSpans(spans, width, first, indent, false)
}

// WrapSpans is WrapLine; hard breaks anywhere rather than at word
// boundaries, as code and paths want.
func WrapSpans(spans []Span, width int, first, indent Line, hard bool) []Line {
	w := wrapper{width: width, first: first, indent: indent, hard: hard}
	if sc, ok := wrapScratch.Get().(*[2][]cell); ok {
		w.cur, w.rest = sc[0][:0], sc[1][:0]
	}
	w.start()
	for _, s := range spans {
		w.add(s.Text, s.Style)
	}
	w.flush(true)
	clear(w.cur[:cap(w.cur)]) // let go of the clusters' strings
	clear(w.rest[:cap(w.rest)])
	wrapScratch.Put(&[2][]cell{w.cur, w.rest})
	return w.lines
}

// wrapScratch holds the row buffers of finished wraps: a streaming answer
// wraps its last paragraph every frame, and growing a row of cells anew
// each time was most of what a frame allocated.
var wrapScratch sync.Pool

func (w *wrapper) start() {
	p := w.indent
	if !w.hasFirst {
		p = w.first
		w.hasFirst = true
	}
	w.cur = w.cur[:0]
	for _, s := range p {
		w.push(s.Text, s.Style)
	}
	w.prefixW = w.curW
	w.breakAt = -1
	w.breakW = 0
}

// push appends text without considering breaks (prefixes).
func (w *wrapper) push(text string, style tcell.Style) {
	state := -1
	src, off := text, 0
	for text != "" {
		var g string
		var width int
		g, text, width, state = uniseg.FirstGraphemeClusterInString(text, state)
		w.cur = append(w.cur, cell{g, width, style, src, off})
		w.curW += width
		off += len(g)
	}
}

func (w *wrapper) add(text string, style tcell.Style) {
	if w.width <= 0 {
		return
	}
	if isASCII(text) {
		for i := 0; i < len(text); i++ {
			w.place(cell{text[i : i+1], 1, style, text, i}, text[i] == ' ' && !w.hard)
		}
		return
	}
	state := -1
	src, off := text, 0
	for text != "" {
		var g string
		var boundaries int
		g, text, boundaries, state = uniseg.StepString(text, state)
		width := boundaries >> uniseg.ShiftWidth
		canBreak := boundaries&uniseg.MaskLine != uniseg.LineDontBreak && !w.hard
		w.place(cell{g, width, style, src, off}, canBreak)
		off += len(g)
	}
}

// place adds one cluster; canBreak says a line may end after it.
func (w *wrapper) place(c cell, canBreak bool) {
	if w.curW+c.w > w.width && len(w.cur) > 0 {
		if c.g == " " && !w.hard {
			// A space that does not fit ends the row; it is not carried over.
			w.flush(false)
			return
		}
		if w.breakAt >= 0 {
			w.rest = append(w.rest[:0], w.cur[w.breakAt+1:]...)
			w.cur = w.cur[:w.breakAt+1]
			w.flush(false)
			for _, c := range w.rest {
				w.cur = append(w.cur, c)
				w.curW += c.w
			}
		} else if w.curW > w.prefixW {
			w.flush(false)
		}
	}
	w.cur = append(w.cur, c)
	w.curW += c.w
	if canBreak {
		w.breakAt = len(w.cur) - 1
		w.breakW = w.curW
	}
}

// flush ends the current row; last says no row follows.
func (w *wrapper) flush(last bool) {
	// Trailing spaces at a soft break are not drawn.
	n := len(w.cur)
	if !last && !w.hard {
		for n > 0 && w.cur[n-1].g == " " {
			n--
		}
	}
	w.lines = append(w.lines, cellsToLine(w.cur[:n]))
	w.curW = 0
	if !last {
		w.start()
	}
}

// cellsToLine is cells as a Line: a span per run of one style.
func cellsToLine(cells []cell) Line {
	if len(cells) == 0 {
		return nil
	}
	runs := 1
	for i := 1; i < len(cells); i++ {
		if cells[i].style != cells[i-1].style {
			runs++
		}
	}
	l := make(Line, 0, runs)
	for start := 0; start < len(cells); {
		end := start + 1
		for end < len(cells) && cells[end].style == cells[start].style {
			end++
		}
		l = append(l, Span{runText(cells[start:end]), cells[start].style})
		start = end
	}
	return l
}

// runText is the text of cells (at least one): a substring of the text
// they were cut from when they follow one another in it, else a copy.
func runText(cells []cell) string {
	first := cells[0]
	end := first.off + len(first.g)
	for _, c := range cells[1:] {
		if c.off != end || c.src != first.src {
			var b strings.Builder
			for _, c := range cells {
				b.WriteString(c.g)
			}
			return b.String()
		}
		end += len(c.g)
	}
	return first.src[first.off:end]
}

// WrapText wraps multi-line plain text in one style.
func WrapText(text string, style tcell.Style, width int, first, indent Line) []Line {
	var out []Line
	for i, l := range strings.Split(text, "\n") {
		f := indent
		if i == 0 {
			f = first
		}
		out = append(out, WrapLine([]Span{{Sanitize(l, 4), style}}, width, f, indent)...)
	}
	return out
}

// TruncateLine cuts l to at most width cells, ending in "…" when cut.
func TruncateLine(l Line, width int) Line {
	if l.Width() <= width {
		return l
	}
	if width <= 0 {
		return nil
	}
	var out Line
	left := width - 1
	for _, s := range l {
		if left <= 0 {
			break
		}
		sw := TextWidth(s.Text)
		if sw <= left {
			out = append(out, s)
			left -= sw
			continue
		}
		var b strings.Builder
		state := -1
		text := s.Text
		for text != "" {
			var g string
			var gw int
			g, text, gw, state = uniseg.FirstGraphemeClusterInString(text, state)
			if gw > left {
				break
			}
			b.WriteString(g)
			left -= gw
		}
		out = append(out, Span{b.String(), s.Style})
		left = 0
	}
	st := tcell.StyleDefault
	if len(l) > 0 {
		st = l[len(l)-1].Style
	}
	return append(out, Span{"…", st})
}

// DrawLine draws l at x, y, clipped to width cells. Cells the line does not
// reach keep what is already there.
func DrawLine(screen tcell.Screen, x, y, width int, l Line) int {
	end := x + width
	for _, s := range l {
		text := s.Text
		if !safetext.IsSafe(text) {
			// Text that was not made safe where it was laid out (sanitize,
			// WrapText) still shows its controls, and never raw.
			text = safetext.Line(text)
		}
		for text != "" && x < end {
			if text[0] < utf8.RuneSelf {
				screen.Put(x, y, text[:1], s.Style)
				text = text[1:]
				x++
				continue
			}
			g, rest, gw, _ := uniseg.FirstGraphemeClusterInString(text, -1)
			if x+gw > end {
				return x
			}
			screen.Put(x, y, g, s.Style)
			text = rest
			x += gw
		}
	}
	return x
}

// Fill paints a rectangle with spaces in style.
func Fill(screen tcell.Screen, x, y, w, h int, style tcell.Style) {
	for row := y; row < y+h; row++ {
		for col := x; col < x+w; col++ {
			screen.Put(col, row, " ", style)
		}
	}
}

// DrawText draws a plain string; a convenience over DrawLine.
func DrawText(screen tcell.Screen, x, y, width int, text string, style tcell.Style) int {
	return DrawLine(screen, x, y, width, Line{{text, style}})
}

// WrapCode breaks one line of code into rows of at most width cells: after
// the last space that fits (never inside the line's indentation), or inside
// a token only when no space is in reach. Nothing is dropped: the rows
// joined give the line back.
func WrapCode(spans []Span, width int, first, indent Line) []Line {
	var cells []cell
	for _, s := range spans {
		state := -1
		text, off := s.Text, 0
		for text != "" {
			var g string
			var w int
			g, text, w, state = uniseg.FirstGraphemeClusterInString(text, state)
			cells = append(cells, cell{g, w, s.Style, s.Text, off})
			off += len(g)
		}
	}
	lead := 0 // the indentation: no break inside it
	for lead < len(cells) && cells[lead].g == " " {
		lead++
	}
	var out []Line
	prefix := first
	for {
		avail := max(1, width-prefix.Width())
		n, w := 0, 0
		for n < len(cells) && w+cells[n].w <= avail {
			w += cells[n].w
			n++
		}
		if n == 0 && len(cells) > 0 {
			n = 1 // a cluster wider than the row still goes somewhere
		}
		if n < len(cells) {
			// Break after the last space that fits, past the indentation.
			for i := n - 1; i > lead; i-- {
				if cells[i].g == " " && cells[i-1].g != " " {
					n = i + 1
					break
				}
			}
		}
		row := append(Line(nil), prefix...)
		row = append(row, cellsToLine(cells[:n])...)
		out = append(out, row)
		cells = cells[n:]
		lead = 0
		if len(cells) == 0 {
			return out
		}
		prefix = indent
	}
}

// PadTo extends l with spaces in style up to width cells.
func PadTo(l Line, width int, style tcell.Style) Line {
	if w := l.Width(); w < width {
		l = append(l, Span{Text: strings.Repeat(" ", width-w), Style: style})
	}
	return l
}

// Spinner is a spinner's glyph at frame: a braille dot going round.
func Spinner(frame uint64) string {
	const frames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏" // ten glyphs of three bytes each
	i := frame % 10 * 3
	return frames[i : i+3]
}

// Kilo prints a count (of tokens) compactly: 950, 12.3k, 1.2M.
func Kilo(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
	}
}

// HumanDuration prints a duration the way a person reads it: 340ms, 2.1s,
// 1m05s.
func HumanDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	default:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// Clean makes one line of text from a server or a file safe and short
// enough to draw: newlines become spaces, control characters show, and
// past 120 characters it ends in "…".
func Clean(s string) string {
	s = Sanitize(strings.ReplaceAll(s, "\n", " "), 1)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// RelPath is p relative to root when p is inside it, else p as it is: how
// a path is shown.
func RelPath(root, p string) string {
	if p == "" || root == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// DrawBorder draws a rounded box; title is drawn into the top edge.
func DrawBorder(screen tcell.Screen, x, y, w, h int, style tcell.Style, title Line) {
	if w < 2 || h < 2 {
		return
	}
	for i := x + 1; i < x+w-1; i++ {
		screen.Put(i, y, "─", style)
		screen.Put(i, y+h-1, "─", style)
	}
	for j := y + 1; j < y+h-1; j++ {
		screen.Put(x, j, "│", style)
		screen.Put(x+w-1, j, "│", style)
	}
	screen.Put(x, y, "╭", style)
	screen.Put(x+w-1, y, "╮", style)
	screen.Put(x, y+h-1, "╰", style)
	screen.Put(x+w-1, y+h-1, "╯", style)
	if len(title) > 0 && w > 4 {
		DrawLine(screen, x+2, y, w-4, TruncateLine(title, w-4))
	}
}
