package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// ttyScreen is a simulation screen that says it is a terminal, as a real
// one of 256 colours does.
type ttyScreen struct{ tcell.SimulationScreen }

func (ttyScreen) Tty() (tcell.Tty, bool) { return nil, true }

// TestFramesGiveAPaletteTerminalItsColours: on a terminal without RGB
// colours the cells reach tcell on its palette (what tcell would send);
// on a screen that is not a terminal they keep the theme's RGB colours.
func TestFramesGiveAPaletteTerminalItsColours(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var s tcell.Screen = simScreen(t, 100, 30)
		if tty {
			s = ttyScreen{s.(tcell.SimulationScreen)}
		}
		a, err := New(Options{Agent: newScriptAgent(), Screen: s, Root: "/proj"})
		if err != nil {
			t.Fatal(err)
		}
		a.draw()
		rgb, pal := 0, 0
		sim := s.(interface {
			GetContents() ([]tcell.SimCell, int, int)
		})
		cells, _, _ := sim.GetContents()
		for _, c := range cells {
			fg, bg, _ := c.Style.Decompose()
			for _, col := range []tcell.Color{fg, bg} {
				switch {
				case col.IsRGB():
					rgb++
				case col.Valid():
					pal++
				}
			}
		}
		if tty && (rgb != 0 || pal == 0) {
			t.Fatalf("a 256-colour terminal got %d RGB colours and %d of its palette", rgb, pal)
		}
		if !tty && rgb == 0 {
			t.Fatalf("a screen that is not a terminal got no RGB colours (%d of a palette)", pal)
		}
	}
}
