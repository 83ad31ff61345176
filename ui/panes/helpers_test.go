package panes

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui/panes -run %s -update to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run with -update if the change is right)\n--- got:\n%s\n--- want:\n%s", name, got, want)
	}
}

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

// cellAt returns the text and style of the cell at x, y.
func cellAt(s tcell.SimulationScreen, x, y int) (string, tcell.Style) {
	cells, w, _ := s.GetContents()
	c := cells[y*w+x]
	return string(c.Runes), c.Style
}

// findText returns the position of the first occurrence of text, or -1, -1.
func findText(s tcell.SimulationScreen, text string) (int, int) {
	for y, l := range screenLines(s) {
		if i := strings.Index(l, text); i >= 0 {
			return len([]rune(l[:i])), y
		}
	}
	return -1, -1
}

func fgOf(st tcell.Style) tcell.Color {
	fg, _, _ := st.Decompose()
	return fg
}

func attrsOf(st tcell.Style) tcell.AttrMask {
	_, _, attr := st.Decompose()
	return attr
}
