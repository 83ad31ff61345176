package terminal

import (
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/gdamore/tcell/v2"
)

// history is the scrollback, kept compactly: a ring of lines, each its
// text, where its cells start (only for lines that are not plain ASCII),
// and its style runs.
type history struct {
	max   int
	lines []histLine
	head  int // index of the oldest line once the ring is full

	// Styles are interned: a run is a column and an index here. Past
	// maxStyles distinct styles (a truecolor rainbow), new ones are drawn
	// in the default style.
	styles   []tcell.Style
	styleIdx map[tcell.Style]uint16
}

const maxStyles = 4096

type histLine struct {
	text  string
	offs  []uint32 // cell i is text[offs[i]:offs[i+1]]; nil: one byte per cell
	wide  []uint8  // cell widths when offs is set
	runs  []styleRun
	ncell int
	// wrapped: the line was filled and its text goes on in the next line
	// (autowrap); reflow rejoins them.
	wrapped bool
}

type styleRun struct {
	col   uint16
	style uint16 // index into history.styles
}

func (h *history) styleID(st tcell.Style) uint16 {
	if id, ok := h.styleIdx[st]; ok {
		return id
	}
	if h.styleIdx == nil {
		h.styles = []tcell.Style{tcell.StyleDefault}
		h.styleIdx = map[tcell.Style]uint16{tcell.StyleDefault: 0}
		if st == tcell.StyleDefault {
			return 0
		}
	}
	if len(h.styles) >= maxStyles {
		return 0
	}
	id := uint16(len(h.styles))
	h.styles = append(h.styles, st)
	h.styleIdx[st] = id
	return id
}

func (h *history) push(l histLine) {
	if h.max <= 0 {
		return
	}
	if len(h.lines) < h.max {
		h.lines = append(h.lines, l)
		return
	}
	h.lines[h.head] = l
	h.head = (h.head + 1) % h.max
}

func (h *history) len() int { return len(h.lines) }

// line returns line i, 0 being the oldest.
func (h *history) line(i int) *histLine {
	if i < 0 || i >= len(h.lines) {
		return nil
	}
	return &h.lines[(h.head+i)%len(h.lines)]
}

func (h *history) clear() {
	h.lines, h.head = nil, 0
}

func (l *histLine) cells() int { return l.ncell }

// cell returns cell i's content ("" for the second half of a wide
// character) and width.
func (l *histLine) cell(i int) (string, int) {
	if l.offs == nil {
		return l.text[i : i+1], 1
	}
	return l.text[l.offs[i]:l.offs[i+1]], int(l.wide[i])
}

// compact copies a vt line (trailing blanks already trimmed by vt) into a
// histLine.
func (h *history) compact(line uv.Line) histLine {
	line = line[:min(len(line), 1<<16-1)]
	l := histLine{ncell: len(line)}
	var sb strings.Builder
	ascii := true
	size := 0
	for i := range line {
		c := &line[i]
		size += len(c.Content)
		if c.Width != 1 || len(c.Content) != 1 || c.Content[0] >= 0x80 {
			ascii = false
		}
	}
	sb.Grow(size)
	if !ascii {
		l.offs = make([]uint32, len(line)+1)
		l.wide = make([]uint8, len(line))
	}
	var last tcell.Style
	for i := range line {
		c := &line[i]
		content := c.Content
		if c.Style.Attrs&uv.AttrConceal != 0 && content != "" {
			content = " " // hidden (SGR 8): kept as a blank, as drawn
		}
		if !ascii {
			l.offs[i] = uint32(sb.Len())
			l.wide[i] = uint8(min(c.Width, 255))
		}
		sb.WriteString(content)
		st := cellStyle(c, tcell.StyleDefault)
		if i == 0 || st != last {
			l.runs = append(l.runs, styleRun{col: uint16(i), style: h.styleID(st)})
			last = st
		}
	}
	if !ascii {
		l.offs[len(line)] = uint32(sb.Len())
	}
	l.text = sb.String()
	if len(l.runs) == 1 && l.runs[0].style == 0 {
		l.runs = nil
	}
	return l
}
