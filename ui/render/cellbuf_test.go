package render

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/internal/safetext"
)

// TestPartialFramesReachTheScreenAsWholeOnes: frames that write only some
// rectangles of the buffer (as a frame that redraws only the chat does),
// with wide characters coming and going at the rectangles' edges, leave
// the real screen with what a frame compared cell by cell leaves: the
// buffer's content. Cells outside the written rectangles are not handed
// to tcell again.
func TestPartialFramesReachTheScreenAsWholeOnes(t *testing.T) {
	const w, h = 24, 6
	real := simScreen(t, w, h)
	f := NewBuffer(real)
	rng := rand.New(rand.NewPCG(3, 5))
	glyphs := []string{"a", "b", "世", "界", " ", "é"}
	styles := []tcell.Style{tcell.StyleDefault, tcell.StyleDefault.Bold(true), tcell.StyleDefault.Foreground(tcell.PaletteColor(3))}
	f.Begin()
	f.Fill(' ', tcell.StyleDefault)
	f.Show()
	for n := range 300 {
		// One rectangle per frame, filled then written with a few glyphs.
		x0, y0 := rng.IntN(w), rng.IntN(h)
		rw, rh := 1+rng.IntN(w-x0), 1+rng.IntN(h-y0)
		if n%7 == 0 {
			f.FillRect(x0, y0, rw, rh, ' ', styles[rng.IntN(len(styles))])
		}
		for range 1 + rng.IntN(8) {
			x, y := x0+rng.IntN(rw), y0+rng.IntN(rh)
			f.Put(x, y, glyphs[rng.IntN(len(glyphs))], styles[rng.IntN(len(styles))])
		}
		f.Show()
		// What a whole comparison would give: the buffer, left to right,
		// a wide character covering the next cell.
		cells, _, _ := real.GetContents()
		for y := range h {
			for x := 0; x < w; x++ {
				str, style, width := f.Get(x, y)
				got := cells[y*w+x]
				if width > 1 && x == w-1 {
					continue // a wide character does not fit in the last column
				}
				if string(got.Runes) != str || got.Style != style {
					t.Fatalf("frame %d: cell %d,%d is %q %v on the screen, %q %v in the buffer\n%s",
						n, x, y, string(got.Runes), got.Style, str, style, screenText(real))
				}
				if width > 1 {
					x++
				}
			}
		}
	}
}

// TestStylesAreDroppedWhenNoCellUsesThem: cells keep their styles as
// indices into the buffer's table; once the table holds more than
// maxStyles (every link is a style of its own), a frame starts by keeping
// only the styles cells use. The first row keeps its cells for many frames
// and now and then gets a few from a small set of styles; the other rows
// get new links every frame. Every cell, in the buffer and on the screen,
// has the style last put in it, before and after the table shrinks.
func TestStylesAreDroppedWhenNoCellUsesThem(t *testing.T) {
	const w, h = 20, 4
	real := simScreen(t, w, h)
	f := NewBuffer(real)
	rng := rand.New(rand.NewPCG(1, 2))
	link := func(n int) tcell.Style {
		return tcell.StyleDefault.Foreground(tcell.PaletteColor(n % 200)).Url(fmt.Sprintf("https://example.com/%d", n))
	}
	few := []tcell.Style{tcell.StyleDefault, tcell.StyleDefault.Bold(true), link(1), link(2), link(3)}
	want := make([]tcell.Style, w*h)
	n, compactions := 0, 0
	for frame := range 4 * maxStyles / (w * (h - 1)) {
		before := len(f.styles)
		f.Begin()
		if len(f.styles) < before {
			compactions++
		}
		for y := range h {
			for x := range w {
				i := y*w + x
				switch {
				case y == 0 && frame == 0:
					want[i] = link(100000 + x)
				case y == 0 && rng.IntN(8) == 0:
					want[i] = few[rng.IntN(len(few))]
				case y == 0:
					continue // kept from an earlier frame
				default:
					want[i] = link(n)
					n++
				}
				f.Put(x, y, "x", want[i])
			}
		}
		f.Show()
		if len(f.styles) > maxStyles+w*h+2 {
			t.Fatalf("frame %d: %d styles kept", frame, len(f.styles))
		}
		cells, _, _ := real.GetContents()
		for i := range w * h {
			if _, style, _ := f.Get(i%w, i/w); style != want[i] {
				t.Fatalf("frame %d: cell %d is %v in the buffer, want %v", frame, i, style, want[i])
			}
			if cells[i].Style != want[i] {
				t.Fatalf("frame %d: cell %d is %v on the screen, want %v", frame, i, cells[i].Style, want[i])
			}
		}
	}
	if compactions < 2 {
		t.Fatalf("the styles were dropped %d times", compactions)
	}
}

// recordingScreen is a simulation screen that keeps every text handed to it.
type recordingScreen struct {
	tcell.SimulationScreen
	texts []string
}

func (r *recordingScreen) Put(x, y int, str string, style tcell.Style) (string, int) {
	r.texts = append(r.texts, str)
	return r.SimulationScreen.Put(x, y, str, style)
}

// TestCellBufferNeverHandsOnAControl: text a widget forgot to make safe
// reaches the real screen with each control character as a cell of its
// own showing its picture, even after a zero-width character and when the
// same text is put twice (the buffer remembers the last one).
func TestCellBufferNeverHandsOnAControl(t *testing.T) {
	real := &recordingScreen{SimulationScreen: simScreen(t, 40, 3)}
	f := NewBuffer(real)
	f.Begin()
	f.PutStrStyled(0, 0, "a\x1b]52;c;eA==\a", tcell.StyleDefault)
	f.PutStrStyled(0, 1, "e\u0301\x1b[2J\u009b1m\u202ex", tcell.StyleDefault)
	f.Put(0, 2, "\x1b", tcell.StyleDefault)
	f.Put(1, 2, "\x1b", tcell.StyleDefault)
	f.Put(5, 2, "\u0301\x1b]0;title\a", tcell.StyleDefault)
	f.Show()
	for _, s := range real.texts {
		if p, bad := safetext.Cell(s); bad {
			t.Errorf("the real screen was handed %q (%q)", s, p)
		}
	}
	lines := screenLines(real.SimulationScreen)
	for i, want := range []string{"a␛]52;c;eA==␇", "e\u0301␛[2J\ufffd1m\ufffdx", "␛␛"} {
		if !strings.HasPrefix(strings.TrimLeft(lines[i], " "), want) {
			t.Errorf("row %d shows %q, want %q", i, lines[i], want)
		}
	}
}

// shapeScreen records the cursor shapes handed to it.
type shapeScreen struct {
	tcell.SimulationScreen
	got []tcell.CursorStyle
}

func (s *shapeScreen) SetCursorStyle(cs tcell.CursorStyle, _ ...tcell.Color) {
	s.got = append(s.got, cs)
}

// The cursor shape reaches tcell (which sends it with every frame) only
// when it changes, while the cursor shows, and again after a Sync.
func TestCursorShapeIsSentOnChange(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(10, 3)
	rec := &shapeScreen{SimulationScreen: sim}
	f := NewBuffer(rec)
	frame := func(shape tcell.CursorStyle, shown bool) {
		f.Begin()
		f.HideCursor()
		f.SetCursorStyle(shape)
		if shown {
			f.ShowCursor(1, 1)
		}
		f.Show()
	}
	frame(tcell.CursorStyleDefault, true)
	frame(tcell.CursorStyleDefault, true)
	frame(tcell.CursorStyleSteadyBar, false) // hidden: nothing sent
	frame(tcell.CursorStyleSteadyBar, true)
	frame(tcell.CursorStyleSteadyBar, true)
	f.Sync()
	want := []tcell.CursorStyle{tcell.CursorStyleDefault, shapeUnknown, tcell.CursorStyleSteadyBar, shapeUnknown, tcell.CursorStyleSteadyBar}
	if len(rec.got) != len(want) {
		t.Fatalf("shapes handed to tcell %v, want %v", rec.got, want)
	}
	for i := range want {
		if rec.got[i] != want[i] {
			t.Fatalf("shapes handed to tcell %v, want %v", rec.got, want)
		}
	}
}

// An ASCII rune drawn with SetContent (tview's widgets draw a rune at a
// time) is a cell cut from a constant, not a string made each frame.
func TestSetContentCutsASCIIFromAConstant(t *testing.T) {
	if len(asciiRunes) != 128 {
		t.Fatalf("asciiRunes holds %d bytes, want 128", len(asciiRunes))
	}
	for r := range 128 {
		if asciiRunes[r] != byte(r) {
			t.Fatalf("asciiRunes[%#x] is %#x", r, asciiRunes[r])
		}
	}
	f := NewBuffer(simScreen(t, 4, 1))
	f.Begin()
	f.SetContent(0, 0, 'a', nil, tcell.StyleDefault)
	f.SetContent(1, 0, 'é', nil, tcell.StyleDefault)
	f.SetContent(2, 0, '\x07', nil, tcell.StyleDefault)
	if str, _, _ := f.Get(0, 0); str != "a" || !within(str, asciiRunes) {
		t.Errorf("cell 0 is %q, not cut from asciiRunes", str)
	}
	if str, _, _ := f.Get(1, 0); str != "é" {
		t.Errorf("cell 1 is %q, want é", str)
	}
	if str, _, _ := f.Get(2, 0); str != safetext.Line("\x07") {
		t.Errorf("a BEL drawn with SetContent is %q, want its picture %q", str, safetext.Line("\x07"))
	}
}
