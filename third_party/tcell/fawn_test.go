package tcell

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/vt"
	"github.com/rivo/uniseg"

	"github.com/gdamore/tcell/v2/terminfo"
)

// captureTty is a terminal that keeps what is written to it: the real
// tScreen draws on it as on a pty.
type captureTty struct {
	size   WindowSize
	mu     sync.Mutex
	out    bytes.Buffer
	writes int
	closed chan struct{}
	once   sync.Once
}

func newCaptureTty(w, h int) *captureTty {
	return &captureTty{size: WindowSize{Width: w, Height: h}, closed: make(chan struct{})}
}
func (c *captureTty) Start() error                    { return nil }
func (c *captureTty) Stop() error                     { return nil }
func (c *captureTty) Drain() error                    { return c.Close() } // wakes Read
func (c *captureTty) NotifyResize(func())             {}
func (c *captureTty) WindowSize() (WindowSize, error) { return c.size, nil }
func (c *captureTty) Read([]byte) (int, error)        { <-c.closed; return 0, io.EOF }
func (c *captureTty) Close() error                    { c.once.Do(func() { close(c.closed) }); return nil }
func (c *captureTty) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes++
	return c.out.Write(b)
}

// cellTexts are the cells the fast path must write as encodeStr does:
// ASCII, wide and combined characters, an emoji sequence, invalid UTF-8,
// SUB, and a cluster longer than encodeStr's buffer.
var cellTexts = []string{"a", " ", "─", "é", "e\u0301", "世", "👩‍💻", "\xff", "a\xffb", "\x1a", strings.Repeat("e\u0301", 70)}

// TestPlainUTF8IsWhatEncodeStrGives: wherever plainUTF8 lets a cell skip
// encodeStr, encodeStr would have given the cell's text back unchanged.
func TestPlainUTF8IsWhatEncodeStrGives(t *testing.T) {
	t.Setenv("LC_ALL", "en_US.UTF-8")
	_, s := drawCells(t, true, 40, 4)
	fast := 0
	for _, str := range cellTexts {
		if s.plainUTF8(str) {
			fast++
			if got := string(s.encodeStr(str)); got != str {
				t.Fatalf("plainUTF8(%q) but encodeStr gives %q", str, got)
			}
		}
	}
	if fast < 6 {
		t.Fatalf("only %d of the texts take the fast path", fast)
	}
	for _, str := range []string{"\xff", "\x1a", "", strings.Repeat("é", 65)} {
		if s.plainUTF8(str) {
			t.Fatalf("plainUTF8(%q): this must go through encodeStr", str)
		}
	}
}

// TestFrameBytesAreTheEncodersBytes: a frame of those cells reaches the
// terminal byte for byte as it does through the encoder, in UTF-8 and (with
// no fast path at all) in ASCII.
func TestFrameBytesAreTheEncodersBytes(t *testing.T) {
	for _, locale := range []string{"en_US.UTF-8", "C"} {
		t.Setenv("LC_ALL", locale)
		fast, slow := frameBytes(t, true), frameBytes(t, false)
		if fast != slow {
			t.Fatalf("%s: the fast path wrote\n%q\nthe encoder\n%q", locale, fast, slow)
		}
		if locale != "C" && !strings.Contains(fast, "👩‍💻") {
			t.Fatalf("the frame lacks the emoji: %q", fast)
		}
	}
}

func drawCells(t *testing.T, fastPath bool, w, h int) (Screen, *tScreen) {
	t.Helper()
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	scr, err := NewTerminfoScreenFromTtyTerminfo(newCaptureTty(w, h), ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	ts := scr.(*baseScreen).screenImpl.(*tScreen)
	if !fastPath {
		ts.utf8 = false
	}
	return scr, ts
}

func frameBytes(t *testing.T, fastPath bool) string {
	t.Helper()
	scr, ts := drawCells(t, fastPath, 40, 4)
	tty := ts.tty.(*captureTty)
	tty.mu.Lock()
	tty.out.Reset()
	tty.mu.Unlock()
	x := 0
	for i, str := range cellTexts {
		scr.Put(x, i%4, str, StyleDefault.Foreground(PaletteColor(i)))
		x += 3
	}
	scr.Show()
	tty.mu.Lock()
	defer tty.mu.Unlock()
	return tty.out.String()
}

// TestStyleDeltasLeaveTheTerminalAsFullResetsDo: frames of random styles
// (palette and default colours, every attribute, underlines, hyperlinks)
// in random rows, drawn over one another, leave a real terminal emulator
// (fawn's vt) with the text the last frame put there, and the same cells,
// styles and links as upstream's reset-then-set does, in fewer bytes.
func TestStyleDeltasLeaveTheTerminalAsFullResetsDo(t *testing.T) {
	t.Setenv("LC_ALL", "en_US.UTF-8")
	const w, h = 30, 6
	rng := rand.New(rand.NewPCG(7, 11))
	colors := []Color{ColorDefault, PaletteColor(1), PaletteColor(12), PaletteColor(188), PaletteColor(236), ColorReset}
	attrs := []AttrMask{AttrBold, AttrDim, AttrItalic, AttrReverse, AttrBlink, AttrStrikeThrough}
	randomStyle := func() Style {
		s := StyleDefault.Foreground(colors[rng.IntN(len(colors))]).Background(colors[rng.IntN(len(colors))])
		for _, a := range attrs {
			if rng.IntN(4) == 0 {
				s = s.Attributes(s.attrs | a)
			}
		}
		switch rng.IntN(10) {
		case 0:
			s = s.Underline(true)
		case 1:
			s = s.Underline(UnderlineStyleCurly, PaletteColor(9))
		case 2:
			s = s.Url("https://example.com/a")
		}
		return s
	}
	// Each frame changes a third of the cells of some of the rows: the
	// others are not sent at all.
	var frames [][]Style
	for range 40 {
		f := make([]Style, w*h)
		changed := make([]bool, h)
		for y := range changed {
			changed[y] = rng.IntN(2) == 0
		}
		for i := range f {
			if len(frames) == 0 || (changed[i/w] && rng.IntN(3) == 0) {
				f[i] = randomStyle()
			} else {
				f[i] = frames[len(frames)-1][i] // unchanged cells are not sent
			}
		}
		frames = append(frames, f)
	}
	text := func(n, i int) string {
		if n > 0 && frames[n][i] == frames[n-1][i] {
			n-- // an unchanged cell keeps its text too
			for n > 0 && frames[n][i] == frames[n-1][i] {
				n--
			}
		}
		return string(rune('a' + (i+n)%26))
	}
	run := func(noDelta bool) (*vt.Emulator, int) {
		scr, ts := drawCells(t, true, w, h)
		ts.noDelta = noDelta
		tty := ts.tty.(*captureTty)
		em := vt.NewEmulator(w, h)
		total := 0
		for n, f := range frames {
			for i, st := range f {
				scr.Put(i%w, i/w, text(n, i), st)
			}
			scr.Show()
			tty.mu.Lock()
			out := tty.out.Bytes()
			total += len(out)
			em.Write(out)
			tty.out.Reset()
			tty.mu.Unlock()

		}
		return em, total
	}
	want, full := run(true)
	got, delta := run(false)
	for y := range h {
		for x := range w {
			g, e := got.CellAt(x, y), want.CellAt(x, y)
			if g.Content != e.Content || !g.Style.Equal(&e.Style) || g.Link != e.Link {
				t.Fatalf("cell %d,%d: %+v, with full resets %+v", x, y, *g, *e)
			}
			if want := text(len(frames)-1, y*w+x); g.Content != want {
				t.Fatalf("cell %d,%d shows %q, the last frame put %q there", x, y, g.Content, want)
			}
		}
	}
	if delta >= full {
		t.Fatalf("the deltas took %d bytes, full resets %d", delta, full)
	}
	t.Logf("%d bytes with deltas, %d with full resets", delta, full)
}

// TestPrintableASCIIIsWhatUnisegSays: the fast path of CellBuffer.Put
// takes a printable ASCII character as one cluster one cell wide, as
// uniseg does.
func TestPrintableASCIIIsWhatUnisegSays(t *testing.T) {
	for b := byte(0x20); b < 0x7f; b++ {
		str := string([]byte{b})
		g, rest, width, _ := uniseg.FirstGraphemeClusterInString(str, -1)
		if g != str || rest != "" || width != 1 {
			t.Fatalf("uniseg: %q is %q, rest %q, width %d", str, g, rest, width)
		}
		var cb CellBuffer
		cb.Resize(2, 1)
		if rest, w := cb.Put(0, 0, str, StyleDefault); rest != "" || w != 1 {
			t.Fatalf("Put(%q) = %q, %d", str, rest, w)
		}
		if got, _, w := cb.Get(0, 0); got != str || w != 1 {
			t.Fatalf("after Put(%q) the cell is %q, width %d", str, got, w)
		}
	}
}

// TestAFrameIsOneWrite: a frame reaches the terminal in one write, the
// end of synchronized output included, and only once.
func TestAFrameIsOneWrite(t *testing.T) {
	scr, ts := drawCells(t, true, 20, 3)
	if ts.startSyncOut == "" {
		t.Fatal("xterm-256color: no synchronized output")
	}
	tty := ts.tty.(*captureTty)
	for i := range 3 {
		tty.mu.Lock()
		tty.out.Reset()
		tty.writes = 0
		tty.mu.Unlock()
		scr.Put(i, 1, "x", StyleDefault.Bold(true))
		scr.Show()
		tty.mu.Lock()
		out, writes := tty.out.String(), tty.writes
		tty.mu.Unlock()
		if writes != 1 || !strings.HasPrefix(out, ts.startSyncOut) || !strings.HasSuffix(out, ts.endSyncOut) ||
			strings.Count(out, ts.endSyncOut) != 1 {
			t.Fatalf("frame %d: %d writes of %q", i, writes, out)
		}
	}
}

// TestChangedColumnsDrawAsWholeRows: a frame goes through only the
// columns of a row where cells were put, unless the row may hold a wide
// character. Over 60 frames of a few cells each (ASCII, wide, combined and
// emoji characters, in random places, some over a wide character's halves,
// some unchanged), then a resize, a fill and more frames, the terminal
// shows what it shows when every frame goes through whole rows, as
// upstream does.
func TestChangedColumnsDrawAsWholeRows(t *testing.T) {
	t.Setenv("LC_ALL", "en_US.UTF-8")
	const w, h = 24, 5
	glyphs := []string{"a", "b", " ", "世", "界", "e\u0301", "👩‍💻", "─"}
	styles := []Style{StyleDefault, StyleDefault.Bold(true), StyleDefault.Foreground(PaletteColor(3))}
	run := func(wholeRows bool) *vt.Emulator {
		rng := rand.New(rand.NewPCG(5, 9))
		scr, ts := drawCells(t, true, w, h)
		ts.wholeRows = wholeRows
		tty := ts.tty.(*captureTty)
		em := vt.NewEmulator(w, h)
		show := func() {
			scr.Show()
			tty.mu.Lock()
			em.Write(tty.out.Bytes())
			tty.out.Reset()
			tty.mu.Unlock()
		}
		frames := func(n int) {
			for range n {
				for range 1 + rng.IntN(5) {
					scr.Put(rng.IntN(w), rng.IntN(h), glyphs[rng.IntN(len(glyphs))], styles[rng.IntN(len(styles))])
				}
				show()
			}
		}
		show()
		frames(60)
		ts.cells.Resize(w-4, h) // as a smaller terminal would
		ts.cells.Resize(w, h)
		show()
		frames(20)
		scr.Fill(' ', StyleDefault)
		show()
		frames(20)
		return em
	}
	want, got := run(true), run(false)
	for y := range h {
		for x := range w {
			g, e := got.CellAt(x, y), want.CellAt(x, y)
			if g.Content != e.Content || g.Width != e.Width || !g.Style.Equal(&e.Style) {
				t.Fatalf("cell %d,%d: %+v, going through whole rows %+v", x, y, *g, *e)
			}
		}
	}
}

// hostileTexts are cell texts that, written raw, would write the
// clipboard, set the title, clear the screen or reorder what follows.
var hostileTexts = []string{
	"\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\a",
	"\x1b]0;PWNED\a",
	"\x1b[2J",
	"\u009b2J",
	"\u009d0;PWNED\u009c",
	"\u0301\x1b]52;c;eA==\a", // a control after a zero-width cluster
	"\u202eabc",
	"\xc2\x9b",
	"\x9b",
	"\x07",
	"\x7f",
}

// TestControlsAreNeverWrittenRaw: whatever text a cell is given, a
// control character never reaches the terminal: the frame holds no BEL,
// no OSC 52 or OSC 0, no C1 control and no bidi override, and the cell
// shows the control's picture.
func TestControlsAreNeverWrittenRaw(t *testing.T) {
	t.Setenv("LC_ALL", "en_US.UTF-8")
	scr, ts := drawCells(t, true, 60, len(hostileTexts)+2)
	tty := ts.tty.(*captureTty)
	for y, str := range hostileTexts {
		scr.PutStr(0, y, str)
		scr.Put(50, y, str, StyleDefault)
	}
	scr.SetTitle("fawn \x1b]52;c;eA==\a\u009b")
	scr.Show()
	tty.mu.Lock()
	out := tty.out.String()
	tty.mu.Unlock()
	for _, bad := range []string{"\a", "\x1b]52", "\x1b]0;", "PWNED\x1b", "\x7f"} {
		if strings.Contains(out, bad) {
			t.Errorf("the terminal got %q:\n%q", bad, out)
		}
	}
	for i, r := range out {
		if (r >= 0x80 && r < 0xa0) || r == '\u202e' || (r == utf8.RuneError && !strings.HasPrefix(out[i:], "\ufffd")) {
			t.Errorf("the terminal got %U at %d:\n%q", r, i, out)
		}
	}
	for _, want := range []string{"␛]52;c;Y3Vy", "␛]0;PWNED␇", "␛[2J", "\ufffd2J", "␡"} {
		if !strings.Contains(out, want) {
			t.Errorf("the frame lacks %q:\n%q", want, out)
		}
	}

	sim := NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(20, 2)
	sim.PutStr(0, 0, "a\x1b]b")
	sim.Fill('\x1b', StyleDefault)
	sim.PutStr(0, 1, "a\x1b]b")
	for x, want := range []string{"a", "␛", "]", "b", "␛"} {
		if got, _, _ := sim.Get(x, 1); got != want {
			t.Errorf("cell %d shows %q, want %q", x, got, want)
		}
	}
}

// FuzzCellText: no text put in a cell comes back from it holding a
// control character, a C1 control, a bidi control or bytes that are not
// UTF-8.
func FuzzCellText(f *testing.F) {
	for _, s := range append(hostileTexts, cellTexts...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var cb CellBuffer
		cb.Resize(8, 1)
		for x := 0; x < 8 && s != ""; x++ {
			var w int
			s, w = cb.Put(x, 0, s, StyleDefault)
			if w == 0 && s != "" {
				continue
			}
		}
		for x := range 8 {
			got, _, _ := cb.Get(x, 0)
			for i, r := range got {
				if r < 0x20 || (r >= 0x7f && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) ||
					(r == utf8.RuneError && !strings.HasPrefix(got[i:], "\ufffd")) {
					t.Fatalf("cell %d holds %q", x, got)
				}
			}
		}
	})
}
