package render

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/render/screentest"
)

// The screen helpers the ui tests share (ui/render/screentest).
func simScreen(t testing.TB, w, h int) tcell.SimulationScreen { return screentest.New(t, w, h) }
func screenLines(s tcell.SimulationScreen) []string           { return screentest.Lines(s) }
func screenText(s tcell.SimulationScreen) string              { return screentest.Text(s) }
