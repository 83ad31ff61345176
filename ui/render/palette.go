package render

import (
	"math"

	"github.com/gdamore/tcell/v2"
	colorful "github.com/lucasb-eyer/go-colorful"
)

// palette maps the RGB colours of fawn's themes to a terminal's palette
// (256, 16 or 8 colours) when the terminal does not take RGB colours.
//
// tcell does the same mapping itself, with the same result, but it
// converts every one of the palette's colours to CIE L*a*b* again for
// each new colour (512 conversions, each with powers and cube roots):
// the two dozen colours of the first frame cost more than the rest of
// tcell's work on it. Here the palette is converted once, and tcell is
// handed colours it finds in its own table.
type palette struct {
	n    int // palette size
	lab  [][3]float64
	seen map[tcell.Color]tcell.Color
}

func newPalette(n int) *palette {
	p := &palette{n: n, lab: make([][3]float64, n), seen: map[tcell.Color]tcell.Color{}}
	for i := range n {
		p.lab[i] = labOf(tcell.PaletteColor(i))
	}
	return p
}

func labOf(c tcell.Color) [3]float64 {
	r, g, b := c.RGB()
	l, a, bb := colorful.Color{R: float64(r) / 255.0, G: float64(g) / 255.0, B: float64(b) / 255.0}.Lab()
	return [3]float64{l, a, bb}
}

// nearest is the palette colour closest to c (CIE76, the first of equals,
// as tcell.FindColor picks), or c itself when it is not an RGB colour.
func (p *palette) nearest(c tcell.Color) tcell.Color {
	if !c.IsRGB() {
		return c
	}
	if v, ok := p.seen[c]; ok {
		return v
	}
	want := labOf(c)
	best, dist := 0, math.Inf(1)
	for i, l := range p.lab {
		d := math.Sqrt(sq(want[0]-l[0]) + sq(want[1]-l[1]) + sq(want[2]-l[2]))
		if d < dist {
			best, dist = i, d
		}
	}
	v := tcell.PaletteColor(best)
	p.seen[c] = v
	return v
}

func sq(v float64) float64 { return v * v }

// style is s with its foreground and background on the palette. (An
// underline's colour is left to tcell: a terminal may take RGB underline
// colours while its text colours are a palette's.)
func (p *palette) style(s tcell.Style) tcell.Style {
	fg, bg, _ := s.Decompose()
	if nf := p.nearest(fg); nf != fg {
		s = s.Foreground(nf)
	}
	if nb := p.nearest(bg); nb != bg {
		s = s.Background(nb)
	}
	return s
}
