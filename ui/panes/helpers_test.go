package panes

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/render/screentest"
)

func fgOf(st tcell.Style) tcell.Color       { return screentest.Fg(st) }
func attrsOf(st tcell.Style) tcell.AttrMask { return screentest.Attrs(st) }

// The screen helpers the ui tests share (ui/render/screentest).
func simScreen(t testing.TB, w, h int) tcell.SimulationScreen { return screentest.New(t, w, h) }
func screenLines(s tcell.SimulationScreen) []string           { return screentest.Lines(s) }
func screenText(s tcell.SimulationScreen) string              { return screentest.Text(s) }
func cellAt(s tcell.SimulationScreen, x, y int) (string, tcell.Style) {
	return screentest.CellAt(s, x, y)
}
func findText(s tcell.SimulationScreen, text string) (int, int) { return screentest.Find(s, text) }
func golden(t *testing.T, name, got string)                     { t.Helper(); screentest.Golden(t, name, got) }
