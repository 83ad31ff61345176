package editor

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

const problemSource = "package main\n\nfunc main() {\n\tx := undefinedThing\n\tprintln(1)\n\tvar unused int\n}\n"

// problemsHarness opens main.go with an error on line 4 (undefinedThing)
// and a warning on line 6 (unused).
func problemsHarness(t *testing.T) (*harness, string) {
	h := newHarness(t, 80, 12)
	p := h.write("main.go", problemSource)
	h.open("main.go", 1)
	h.tabs.SetProblems(p, []Problem{
		{Line: 5, Col: 5, EndLine: 5, EndCol: 11, Severity: 2, Message: "declared and not used: unused", Source: "compiler"},
		{Line: 3, Col: 6, EndLine: 3, EndCol: 20, Severity: 1, Message: "undefined:\n  undefinedThing", Source: "compiler"},
	})
	h.highlighted()
	return h, p
}

func (h *harness) cursorLine() int { return h.tabs.current().view.cursor.Line }

// cellOf finds the first cell of row y holding r; x is -1 when none does.
func (h *harness) cellOf(y int, r rune) (x int, st tcell.Style) {
	cells, w, _ := h.screen.GetContents()
	for x := 0; x < w; x++ {
		if c := cells[y*w+x]; len(c.Runes) > 0 && c.Runes[0] == r {
			return x, c.Style
		}
	}
	return -1, tcell.StyleDefault
}

// rowOf is the screen row showing text, or -1.
func (h *harness) rowOf(text string) int {
	for y, row := range strings.Split(h.text(), "\n") {
		if strings.Contains(row, text) {
			return y
		}
	}
	return -1
}

func TestProblemsMarkGutterTabAndRange(t *testing.T) {
	h, _ := problemsHarness(t)
	h.draw()
	if strip := h.row(0); !strings.Contains(strip, "main.go ✖2") {
		t.Errorf("the tab does not count the problems: %q", strip)
	}
	th := h.tabs.th
	for _, c := range []struct {
		text  string
		color tcell.Color
	}{{"x := undefinedThing", th.Error}, {"var unused int", th.Warning}} {
		y := h.rowOf(c.text)
		x, st := h.cellOf(y, markProblem)
		if x < 0 {
			t.Fatalf("no gutter mark on the row of %q:\n%s", c.text, h.text())
		}
		if fg, _, _ := st.Decompose(); fg != c.color {
			t.Errorf("the mark of %q is %v, want %v", c.text, fg, c.color)
		}
	}
	if x, _ := h.cellOf(h.rowOf("println(1)"), markProblem); x >= 0 {
		t.Errorf("a clean line is marked:\n%s", h.text())
	}
	// The error's range (undefinedThing) is underlined, curly, in the
	// error colour; the text before it is not.
	y := h.rowOf("x := undefinedThing")
	ux, _ := h.cellOf(y, 'u')
	_, st := h.cellOf(y, 'x')
	if ul := st.GetUnderlineStyle(); ul != tcell.UnderlineStyleNone {
		t.Errorf("x is underlined (%v)", ul)
	}
	cells, w, _ := h.screen.GetContents()
	for i := 0; i < len("undefinedThing"); i++ {
		st := cells[y*w+ux+i].Style
		if st.GetUnderlineStyle() != tcell.UnderlineStyleCurly || st.GetUnderlineColor() != th.Error {
			t.Fatalf("cell %d of undefinedThing is not curly-underlined in the error colour: %v %v", i, st.GetUnderlineStyle(), st.GetUnderlineColor())
		}
	}
	// Cleared problems leave no marks.
	h.tabs.SetProblems(h.tabs.current().path, nil)
	h.draw()
	if strings.Contains(h.text(), "✖") {
		t.Errorf("marks stay after the problems went:\n%s", h.text())
	}
}

func TestF8StepsThroughProblemsAndTheStatusLineSaysThem(t *testing.T) {
	h, _ := problemsHarness(t)
	h.key(tcell.KeyF8, 0, 0)
	h.draw()
	if got := h.cursorLine(); got != 3 {
		t.Fatalf("F8 went to line %d, want 3 (the error)", got+1)
	}
	if !strings.Contains(h.text(), "problem 1 of 2 (1 error, 1 warning)") {
		t.Errorf("F8 does not say where it went:\n%s", h.text())
	}
	h.key(tcell.KeyF8, 0, 0)
	if got := h.cursorLine(); got != 5 {
		t.Fatalf("the second F8 went to line %d, want 6", got+1)
	}
	h.key(tcell.KeyF8, 0, 0)
	if got := h.cursorLine(); got != 3 {
		t.Fatalf("F8 does not wrap around: line %d", got+1)
	}
	h.key(tcell.KeyF8, 0, tcell.ModShift)
	if got := h.cursorLine(); got != 5 {
		t.Fatalf("Shift-F8 from the first problem went to line %d, want 6 (around the start)", got+1)
	}
	// Once the flash is gone, the status line shows the cursor line's
	// problem, its lines joined.
	h.key(tcell.KeyUp, 0, 0)
	h.key(tcell.KeyUp, 0, 0)
	h.draw()
	if !strings.Contains(h.text(), "error: undefined: undefinedThing (compiler)") {
		t.Errorf("the status line does not show the cursor line's error:\n%s", h.text())
	}
	// No problems: F8 says so.
	h.tabs.SetProblems(h.tabs.current().path, nil)
	h.key(tcell.KeyF8, 0, 0)
	h.draw()
	if !strings.Contains(h.text(), "no problems reported in this file") {
		t.Errorf("F8 without problems says nothing:\n%s", h.text())
	}
}

func TestF12AndAltIAskTheLanguageServer(t *testing.T) {
	h, p := problemsHarness(t)
	var asked []string
	h.tabs.SetCodeNav(func(what, path string, line, col int) {
		asked = append(asked, what)
		if path != p || line != 4 || col != 7 {
			t.Errorf("%s asked at %s:%d:%d, want %s:4:7", what, path, line, col, p)
		}
	})
	h.key(tcell.KeyF8, 0, 0) // to line 4, column 7 (undefinedThing)
	h.key(tcell.KeyF12, 0, 0)
	h.alt('i')
	if strings.Join(asked, " ") != "definition hover" {
		t.Fatalf("F12 and Alt-I asked %v", asked)
	}
}

func TestTypingReachesTheLanguageServerWhenItPauses(t *testing.T) {
	h, p := problemsHarness(t)
	type sent struct{ path, text string }
	got := make(chan sent, 10)
	h.tabs.SetOnType(func(path, text string) { got <- sent{path, text} })
	var files []string
	h.tabs.SetOnFile(func(path string) { files = append(files, path) })
	h.key(tcell.KeyF8, 0, 0)
	h.typeText("fixed")
	var s sent
	deadline := time.After(20 * time.Second)
	for s.path == "" {
		h.draw() // runs what the pause posted
		select {
		case s = <-got:
		case <-h.redraw:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatal("the typed text never reached the language server")
		}
	}
	if s.path != p || !strings.Contains(s.text, "x := fixedundefinedThing") {
		t.Fatalf("sent %s: %q", s.path, s.text)
	}
	select {
	case more := <-got:
		t.Fatalf("one pause sent twice: %q", more.text)
	default:
	}
	// Closing without saving: the server gets the file's own text back.
	h.ctrl('w')
	h.draw()
	h.key(tcell.KeyRune, 'd', 0)
	if len(files) != 1 || files[0] != p {
		t.Fatalf("discarding the typing did not send the file again: %v", files)
	}
}

// A file replaced on disk from outside the editor (a /rewind, a revert, a
// command) loses the problems the server gave for its old text, and the
// server is asked about the new text.
func TestProblemsDropWhenTheFileIsReplacedOnDisk(t *testing.T) {
	h, p := problemsHarness(t)
	var asked []string
	h.tabs.SetOnFile(func(path string) { asked = append(asked, path) })
	h.draw()
	if strip := h.row(0); !strings.Contains(strip, "main.go ✖2") {
		t.Fatalf("the tab does not count the problems: %q", strip)
	}
	h.write("main.go", "package main\n\nfunc main() {\n\tprintln(1)\n}\n")
	h.waitFor("the silent reload", func() bool { return !strings.Contains(h.text(), "undefinedThing") })
	h.draw()
	if strip := h.row(0); strings.Contains(strip, "✖") {
		t.Errorf("the old text's problems stay after the reload: %q", strip)
	}
	if n := len(h.tabs.current().view.problems); n != 0 {
		t.Errorf("the view still marks %d problems", n)
	}
	if len(asked) != 1 || asked[0] != p {
		t.Errorf("the language server was told %q; want %q once", asked, p)
	}
}
