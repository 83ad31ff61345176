package render

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// simScreen returns an initialised simulation screen of w×h cells.
func simScreen(t testing.TB, w, h int) tcell.SimulationScreen {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	t.Cleanup(s.Fini)
	return s
}

// screenLines reads the screen back as text, one string per row, trailing
// spaces trimmed.
func screenLines(s tcell.SimulationScreen) []string {
	cells, w, h := s.GetContents()
	out := make([]string, h)
	for y := range h {
		var b strings.Builder
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				if x > 0 && uniseg.StringWidth(string(cells[y*w+x-1].Runes)) == 2 {
					continue // the second cell of a wide character
				}
				b.WriteByte(' ') // never drawn
				continue
			}
			b.WriteString(string(c.Runes))
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

func screenText(s tcell.SimulationScreen) string {
	return strings.Join(screenLines(s), "\n")
}
