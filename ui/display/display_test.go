package display

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/render"
)

// fakeTty is a terminal for tcell's real screen: it keeps what tcell
// writes and gives tcell the input the test sends.
type fakeTty struct {
	mu     sync.Mutex
	out    bytes.Buffer
	in     chan []byte
	closed chan struct{}
	once   sync.Once
	w, h   int
}

func newFakeTty(w, h int) *fakeTty {
	return &fakeTty{in: make(chan []byte, 8), closed: make(chan struct{}), w: w, h: h}
}

func (c *fakeTty) Start() error        { return nil }
func (c *fakeTty) Stop() error         { return nil }
func (c *fakeTty) Drain() error        { return c.Close() } // wakes Read
func (c *fakeTty) NotifyResize(func()) {}
func (c *fakeTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: c.w, Height: c.h}, nil
}
func (c *fakeTty) Close() error { c.once.Do(func() { close(c.closed) }); return nil }

func (c *fakeTty) Read(p []byte) (int, error) {
	select {
	case b := <-c.in:
		return copy(p, b), nil
	case <-c.closed:
		return 0, io.EOF
	}
}

func (c *fakeTty) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(b)
}

func (c *fakeTty) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

// realScreen is tcell's terminal screen, as Open makes it, over a fakeTty.
func realScreen(t *testing.T, w, h int) (tcell.Screen, *fakeTty) {
	t.Helper()
	t.Setenv("LC_ALL", "en_US.UTF-8")
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	tty := newFakeTty(w, h)
	s, err := open(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Fini)
	return s, tty
}

var hostileTexts = []string{
	"\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\a",
	"\x1b]0;PWNED\a",
	"\x1b[2J",
	"\u009b2J",
	"\u009d0;PWNED\u009c",
	"\u0301\x1b]52;c;eA==\a", // a control after a zero-width cluster
	"a\u0301\x1b[2J",         // after a combining mark
	"\u202eabc",
	"\xc2\x9b",
	"\x9b",
	"\x07",
	"\x7f",
	"\x1bP+q\x1b\\", // DCS
	"\x1b_apc\x1b\\",
	"日本\x1b]0;x\a",
}

// checkFrame fails t if the terminal got a control character from a cell:
// a BEL, an OSC 52 or a title of the attacker's, a DCS or APC, a C1 or a
// bidi control, or bytes that are not UTF-8.
func checkFrame(t *testing.T, out string) {
	t.Helper()
	for _, bad := range []string{"\a", "\x1b]52", "\x1b]0;", "PWNED\x1b", "\x7f", "\x1bP", "\x1b_"} {
		if strings.Contains(out, bad) {
			t.Errorf("the terminal got %q:\n%q", bad, out)
		}
	}
	if n, own := strings.Count(out, "\x1b[2J"), strings.Count(out, "\x1b[H\x1b[2J"); n != own {
		t.Errorf("the terminal got \\x1b[2J %d times, %d of them tcell's own clear:\n%q", n, own, out)
	}
	for i, r := range out {
		if (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) || (r == utf8.RuneError && !strings.HasPrefix(out[i:], "\ufffd")) {
			t.Errorf("the terminal got %U at %d:\n%q", r, i, out)
		}
	}
}

// TestControlsAreNeverWrittenRaw draws hostile texts on tcell's real
// terminal screen through every path fawn draws by: the screen's own
// methods, ui/render's Buffer (the App's frames, the terminal pane's
// cells) and tview's widgets (the trust prompt, the fawnedit command), and
// a hostile title. The terminal gets none of their controls, and the
// pictures instead.
func TestControlsAreNeverWrittenRaw(t *testing.T) {
	s, tty := realScreen(t, 100, 60)
	s.Fill('\x1b', tcell.StyleDefault)
	s.Show()
	row := 0
	for _, str := range hostileTexts {
		s.PutStr(0, row, str)
		s.PutStrStyled(30, row, str, tcell.StyleDefault.Bold(true))
		s.Put(60, row, str, tcell.StyleDefault)
		rs := []rune(str)
		s.SetContent(70, row, rs[0], rs[1:], tcell.StyleDefault)
		s.SetContent(72, row, 'a', rs, tcell.StyleDefault)
		s.SetCell(74, row, tcell.StyleDefault, rs...)
		row++
	}
	s.Show()
	// The Buffer draws the whole screen: its rows come after.
	buf := render.NewBuffer(s)
	buf.Begin()
	for _, str := range hostileTexts {
		buf.PutStrStyled(0, row, str, tcell.StyleDefault)
		buf.FillRect(40, row, 3, 1, '\x1b', tcell.StyleDefault)
		buf.FillRect(44, row, 3, 1, '\u009b', tcell.StyleDefault)
		row++
	}
	buf.Show()

	hostile := strings.Join(hostileTexts, "")
	text := tview.NewTextView().SetText(hostile)
	text.SetBorder(true).SetTitle(hostile)
	text.SetRect(0, row, 100, 4)
	text.Draw(s)
	row += 4
	input := tview.NewInputField().SetLabel(hostile).SetText(hostile)
	input.SetRect(0, row, 100, 1)
	input.Draw(s)
	row++
	list := tview.NewList().AddItem(hostile, hostile, 'a', nil)
	list.SetRect(0, row, 100, 3)
	list.Draw(s)
	modal := tview.NewModal().SetText(hostile).AddButtons([]string{hostile})
	modal.SetRect(0, 0, 100, 60)
	modal.Draw(s)

	s.SetTitle("fawn \x1b]52;c;eA==\a\u009b")
	s.RegisterRuneFallback('☃', "\x1b]0;PWNED\a")
	s.Show()
	out := tty.output()
	checkFrame(t, out)
	for _, want := range []string{"␛]52;c;Y3Vy", "␛]0;PWNED␇", "␛[2J", "\ufffd2J", "␡", "\x1b]2;fawn ␛]52;c;eA==␇"} {
		if !strings.Contains(out, want) {
			t.Errorf("the frame lacks %q:\n%q", want, out)
		}
	}
}

// FuzzGuardedCells: no text drawn on a guarded screen, by any of its
// methods, leaves a cell holding a control character, a C1 or bidi
// control or bytes that are not UTF-8.
func FuzzGuardedCells(f *testing.F) {
	for _, s := range append(hostileTexts, "plain", "e\u0301", "👍🏽x", "\r\n", "\t") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, str string) {
		sim := tcell.NewSimulationScreen("UTF-8")
		if err := sim.Init(); err != nil {
			t.Fatal(err)
		}
		defer sim.Fini()
		sim.SetSize(16, 4)
		s := Guard(sim)
		s.PutStr(0, 0, str)
		rest := str
		for x := 0; x < 16 && rest != ""; {
			var w int
			if rest, w = s.Put(x, 1, rest, tcell.StyleDefault); w == 0 {
				break
			}
			x += w
		}
		if rs := []rune(str); len(rs) > 0 {
			s.SetContent(0, 2, rs[0], rs[1:], tcell.StyleDefault)
			s.SetCell(2, 2, tcell.StyleDefault, rs...)
			s.Fill(rs[0], tcell.StyleDefault)
			s.PutStr(0, 3, str)
		}
		for y := range 4 {
			for x := range 16 {
				got, _, _ := s.Get(x, y)
				for i, r := range got {
					if r < 0x20 || (r >= 0x7f && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) ||
						(r == utf8.RuneError && !strings.HasPrefix(got[i:], "\ufffd")) {
						t.Fatalf("cell %d,%d holds %q", x, y, got)
					}
				}
			}
		}
	})
}

// TestGuardDrawsSafeTextAsTcellDoes: text without controls fills the same
// cells through the guard as on tcell's screen.
func TestGuardDrawsSafeTextAsTcellDoes(t *testing.T) {
	texts := []string{"hello, world", "e\u0301te\u0301", "日本語のテキスト", "👍🏽 ok", "a\u200db", "x\u0301\u0302y"}
	for _, str := range texts {
		plain, guarded := tcell.NewSimulationScreen("UTF-8"), tcell.NewSimulationScreen("UTF-8")
		for _, s := range []tcell.SimulationScreen{plain, guarded} {
			if err := s.Init(); err != nil {
				t.Fatal(err)
			}
			s.SetSize(20, 3)
		}
		g := Guard(guarded)
		plain.PutStr(0, 0, str)
		g.PutStr(0, 0, str)
		for _, s := range []tcell.Screen{plain, g} {
			rest := str
			for x := 0; x < 20 && rest != ""; {
				var w int
				if rest, w = s.Put(x, 1, rest, tcell.StyleDefault); w == 0 {
					break
				}
				x += w
			}
		}
		for y := range 2 {
			for x := range 20 {
				a, _, aw := plain.Get(x, y)
				b, _, bw := guarded.Get(x, y)
				if a != b || aw != bw {
					t.Errorf("%q: cell %d,%d is %q (%d) guarded, %q (%d) on tcell", str, x, y, b, bw, a, aw)
				}
			}
		}
		plain.Fini()
		guarded.Fini()
	}
}

// TestCtrlHIsNotBackspace: BS (what a terminal sends for Ctrl-H) reaches
// fawn as Ctrl-H (KeyBackspace with ModCtrl, which the terminal pane sends
// on as 0x08), DEL (the Backspace key) as Backspace.
func TestCtrlHIsNotBackspace(t *testing.T) {
	s, tty := realScreen(t, 40, 10)
	tty.in <- []byte("\x08\x7fa\x08")
	want := []struct {
		key tcell.Key
		mod tcell.ModMask
	}{{tcell.KeyBackspace, tcell.ModCtrl}, {tcell.KeyBackspace, 0}, {tcell.KeyRune, 0}, {tcell.KeyBackspace, tcell.ModCtrl}}
	deadline := time.After(20 * time.Second)
	for i := 0; i < len(want); {
		evs := make(chan tcell.Event, 1)
		go func() { evs <- s.PollEvent() }()
		select {
		case ev := <-evs:
			k, ok := ev.(*tcell.EventKey)
			if !ok {
				continue
			}
			if k.Key() != want[i].key || k.Modifiers() != want[i].mod {
				t.Fatalf("key %d is %v (mods %v), want %v (mods %v)", i, k.Name(), k.Modifiers(), tcell.KeyNames[want[i].key], want[i].mod)
			}
			i++
		case <-deadline:
			t.Fatalf("only %d keys arrived", i)
		}
	}
}

// TestLean: on xterm, sgr0 loses its charset reset (sent once on entering
// the screen instead), cnorm its blink reset, and the keypad stays in
// numeric mode; the database's entry is left as it was.
func TestLean(t *testing.T) {
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	attrOff, enterCA, smkx := ti.AttrOff, ti.EnterCA, ti.EnterKeypad
	lean := Lean(ti)
	if lean.AttrOff != "\x1b[m" || lean.ShowCursor != "\x1b[?25h" || lean.EnterCA != enterCA+"\x1b(B" || lean.EnterKeypad != "" || lean.ExitKeypad != "" {
		t.Fatalf("sgr0 %q, cnorm %q, smcup %q, smkx %q, rmkx %q", lean.AttrOff, lean.ShowCursor, lean.EnterCA, lean.EnterKeypad, lean.ExitKeypad)
	}
	if ti.AttrOff != attrOff || ti.EnterCA != enterCA || ti.EnterKeypad != smkx {
		t.Fatal("the terminfo database's entry was changed")
	}
	_, tty := realScreen(t, 40, 10)
	if out := tty.output(); strings.Contains(out, "\x1b=") {
		t.Fatalf("the keypad was put in application mode: %q", out)
	}
}

// TestOnlyDisplayOpensTheTerminal: every screen fawn draws on is Open's,
// guarded; no other package makes tcell's terminal screen itself.
func TestOnlyDisplayOpensTheTerminal(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "third_party", "testdata", "bin", "dist", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == filepath.Join(root, "ui", "display") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, call := range []string{"tcell.NewScreen(", "tcell.NewTerminfoScreen", "tview.NewApplication()"} {
			if bytes.Contains(src, []byte(call)) && !(call == "tview.NewApplication()" && bytes.Contains(src, []byte("SetScreen(screen)"))) {
				t.Errorf("%s calls %s: open the terminal with display.Open, which guards it", path, call)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
