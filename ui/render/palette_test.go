package render

import (
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/theme"
)

// TestPaletteMatchesTcell: for the themes' colours and thousands of others,
// the palette picks what tcell.FindColor picks for a terminal of 256, 16
// and 8 colours, so handing tcell the mapped colour changes nothing on the
// screen.
func TestPaletteMatchesTcell(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var colors []tcell.Color
	for _, name := range theme.Names {
		th := theme.Get(name)
		colors = append(colors, th.Foreground, th.Background, th.Paper, th.Dim, th.Accent, th.Border, th.Selection,
			th.CursorLine, th.Added, th.Removed, th.Changed, th.Error, th.Warning, th.Success, th.UserText, th.CodeBg)
	}
	for range 3000 {
		colors = append(colors, tcell.NewRGBColor(rng.Int32N(256), rng.Int32N(256), rng.Int32N(256)))
	}
	for _, n := range []int{256, 16, 8} {
		p := newPalette(n)
		var pal []tcell.Color
		for i := range n {
			pal = append(pal, tcell.PaletteColor(i))
		}
		for _, c := range colors {
			if !c.IsRGB() {
				continue // tcell maps only RGB colours (the theme's default background is not)
			}
			if got, want := p.nearest(c), tcell.FindColor(c, pal); got != want {
				t.Fatalf("%d colours: %06x → %v, tcell picks %v", n, c.Hex(), got, want)
			}
		}
		for _, c := range []tcell.Color{tcell.ColorDefault, tcell.ColorReset, tcell.PaletteColor(3)} {
			if got := p.nearest(c); got != c {
				t.Fatalf("%d colours: %v (not RGB) became %v", n, c, got)
			}
		}
	}
}
