// Package screentest holds what the ui packages' tests share for reading a
// tcell simulation screen back: a screen of a given size, its rows as text,
// a cell, a text's position and golden files. Only tests import it; it
// imports tcell and uniseg, nothing of fawn.
package screentest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// update is -update: golden files are rewritten instead of compared.
var update = flag.Bool("update", false, "rewrite the golden files")

// New returns an initialised simulation screen of w×h cells, finished when
// the test ends.
func New(t testing.TB, w, h int) tcell.SimulationScreen {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	t.Cleanup(s.Fini)
	return s
}

// Lines reads the screen back as text, one string per row, trailing spaces
// trimmed.
func Lines(s tcell.SimulationScreen) []string {
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

// Text is Lines joined by newlines.
func Text(s tcell.SimulationScreen) string { return strings.Join(Lines(s), "\n") }

// CellAt returns the text and style of the cell at x, y.
func CellAt(s tcell.SimulationScreen, x, y int) (string, tcell.Style) {
	cells, w, _ := s.GetContents()
	c := cells[y*w+x]
	return string(c.Runes), c.Style
}

// Find returns the position of the first occurrence of text, or -1, -1.
func Find(s tcell.SimulationScreen, text string) (int, int) {
	for y, l := range Lines(s) {
		if i := strings.Index(l, text); i >= 0 {
			return len([]rune(l[:i])), y
		}
	}
	return -1, -1
}

// Golden compares got with testdata/name in the test's package, or
// rewrites it when the tests run with -update.
func Golden(t *testing.T, name, got string) {
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
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run with -update if the change is right)\n--- got:\n%s\n--- want:\n%s", name, got, want)
	}
}

// Fg is a style's foreground colour.
func Fg(st tcell.Style) tcell.Color {
	fg, _, _ := st.Decompose()
	return fg
}

// Attrs is a style's attributes (bold, italic, …).
func Attrs(st tcell.Style) tcell.AttrMask {
	_, _, attr := st.Decompose()
	return attr
}

// LinesText joins lines' text with newlines, each without its trailing
// blanks, for comparing and printing what a widget rendered.
func LinesText[L fmt.Stringer](lines []L) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
	}
	return b.String()
}

// GoSource is n lines of Go source: functions with comments, strings, a
// raw string over several lines and a block comment.
func GoSource(n int) string {
	var b strings.Builder
	b.WriteString("package demo\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "// step%d joins the parts of a line, the %d-th of them.\n", i, i)
		fmt.Fprintf(&b, "func step%d(parts []string, width int) (string, error) {\n", i)
		b.WriteString("\tif width <= 0 {\n\t\treturn \"\", fmt.Errorf(\"width %d: too small\", width)\n\t}\n")
		b.WriteString("\tvar out strings.Builder\n\tfor i, p := range parts {\n\t\tif i > 0 {\n\t\t\tout.WriteByte(' ')\n\t\t}\n\t\tout.WriteString(p)\n\t}\n")
		if i%3 == 0 {
			b.WriteString("\t/* The usage text,\n\t   kept as written. */\n\tconst usage = `usage: step [-w width]\n\n  joins its arguments`\n\t_ = usage\n")
		}
		b.WriteString("\treturn out.String(), nil\n}\n\n")
	}
	return b.String()
}
