package editor

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/internal/safetext"
)

// rawGuard is a simulation screen that fails the test when a widget hands
// it a control character to draw: what it shows must already be visible.
type rawGuard struct {
	tcell.SimulationScreen
	t *testing.T
}

func (g rawGuard) Put(x, y int, str string, st tcell.Style) (string, int) {
	g.t.Helper()
	g.check(str)
	return g.SimulationScreen.Put(x, y, str, st)
}

func (g rawGuard) SetContent(x, y int, r rune, comb []rune, st tcell.Style) {
	g.t.Helper()
	g.check(string(append([]rune{r}, comb...)))
	g.SimulationScreen.SetContent(x, y, r, comb, st)
}

func (g rawGuard) check(str string) {
	g.t.Helper()
	// The first cluster is what a Put draws.
	if p, bad := safetext.Cell(firstCluster(str)); bad {
		g.t.Errorf("drawn raw: %q (%s)", str, p)
	}
}

func firstCluster(s string) string {
	var first string
	cells(s, 1, func(c cell) bool { first = s[c.off:c.end]; return false })
	return first
}

// hostileName holds OSC 52 (the clipboard), a C1 CSI and a bidi override.
const hostileName = "README\x1b]52;c;eA==\a\u009b2J\u202e.md"

// hostileShown is how it must show: every control as safetext shows it.
const hostileShown = "README␛]52;c;eA==␇<U+009B>2J<U+202E>.md"

// A file's name and its lines reach the screen with every control
// character shown, in the tab, on the status line, in the text and in
// the finder; none is ever handed to the screen raw.
func TestHostileNameAndContentShowVisibly(t *testing.T) {
	h := newHarness(t, 120, 12)
	h.write(hostileName, "a\x1b[2Jb\u009bc\u202ed\x7f\n")
	h.open(hostileName, 0)
	guard := rawGuard{h.screen, t}
	draw := func() {
		h.screen.Clear()
		h.tabs.Draw(guard)
		h.screen.Show()
	}
	draw()
	text := h.text()
	for _, want := range []string{
		" " + hostileShown + " │",   // the tab, its border where the name's width says
		"a␛[2Jb<U+009B>c<U+202E>d␡", // the line
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the screen lacks %q:\n%s", want, text)
		}
	}
	if got := strings.Count(text, hostileShown); got < 2 {
		t.Errorf("the name shows %d times, want the tab and the status line:\n%s", got, text)
	}

	h.ctrl('p')
	h.waitFor("the file list", func() bool { return h.tabs.finder != nil && !h.tabs.finder.loading })
	draw()
	if !strings.Contains(h.text(), hostileShown) {
		t.Errorf("the finder does not show the name:\n%s", h.text())
	}
}
