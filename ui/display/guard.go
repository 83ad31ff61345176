package display

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
)

// Guard returns s with every path to a cell, the title and the rune
// fallbacks sanitized: a control character, a C1 or bidi control, or
// bytes that are not UTF-8 never reach s's cells, whatever is drawn (see
// the package doc). A guarded screen is returned as it is.
func Guard(s tcell.Screen) tcell.Screen {
	if g, ok := s.(*guarded); ok {
		return g
	}
	return &guarded{Screen: s}
}

// guarded is a tcell.Screen whose cell writes all go through Put.
type guarded struct {
	tcell.Screen
}

// Put puts the first cell of str at x, y as tcell does, and returns the
// rest and the cell's width. A cluster holding a control is a cell of its
// own showing the control's picture (after the zero-width clusters before
// it, which tcell would join to it).
func (g *guarded) Put(x, y int, str string, style tcell.Style) (string, int) {
	if len(str) == 1 || len(str) > 1 && str[1] < utf8.RuneSelf {
		if c := str[0]; c >= 0x20 && c < 0x7f {
			// Printable ASCII before ASCII (or nothing): one cluster.
			return g.Screen.Put(x, y, str, style)
		}
	}
	state := -1
	rest := str
	for rest != "" {
		cl, after, w, st := uniseg.FirstGraphemeClusterInString(rest, state)
		if p, bad := safetext.Cell(cl); bad {
			cell := str[:len(str)-len(rest)] + p
			if _, w := g.Screen.Put(x, y, cell, style); w == 0 {
				return str, 0 // off the screen
			}
			return after, 1
		}
		rest, state = after, st
		if w > 0 {
			break
		}
	}
	// The first cell (up to len(str)-len(rest)) is safe: tcell takes it
	// alone, and the rest is left for the next Put.
	left, w := g.Screen.Put(x, y, str[:len(str)-len(rest)], style)
	return left + rest, w
}

func (g *guarded) PutStr(x, y int, str string) { g.PutStrStyled(x, y, str, tcell.StyleDefault) }

func (g *guarded) PutStrStyled(x, y int, str string, style tcell.Style) {
	if safetext.IsSafe(str) {
		g.Screen.PutStrStyled(x, y, str, style)
		return
	}
	cols, rows := g.Size()
	for str != "" && x < cols && y < rows {
		var w int
		if str, w = g.Put(x, y, str, style); w == 0 {
			break
		}
		x += w
	}
}

func (g *guarded) SetContent(x, y int, primary rune, combining []rune, style tcell.Style) {
	if len(combining) == 0 && primary >= 0x20 && primary < 0x7f {
		g.Screen.SetContent(x, y, primary, nil, style)
		return
	}
	g.Put(x, y, string(append([]rune{primary}, combining...)), style)
}

func (g *guarded) SetCell(x, y int, style tcell.Style, ch ...rune) {
	if len(ch) == 0 {
		g.Put(x, y, " ", style)
		return
	}
	g.Put(x, y, string(ch), style)
}

func (g *guarded) Fill(r rune, style tcell.Style) {
	if p, bad := safetext.Cell(string(r)); bad {
		r, _ = utf8.DecodeRuneInString(p)
	}
	g.Screen.Fill(r, style)
}

func (g *guarded) Clear() { g.Fill(' ', tcell.StyleDefault) }

// SetTitle sets the window's title with each control shown (tcell sends
// the title inside an OSC sequence, which a BEL or ESC would end).
func (g *guarded) SetTitle(title string) { g.Screen.SetTitle(safetext.Line(title)) }

// RegisterRuneFallback registers what tcell sends, as it is, for a rune
// the terminal cannot show: with each control shown.
func (g *guarded) RegisterRuneFallback(r rune, subst string) {
	g.Screen.RegisterRuneFallback(r, safetext.Line(subst))
}
