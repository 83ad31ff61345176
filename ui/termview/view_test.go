package termview

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/ui/theme"
)

// harness is a View over a real shell, drawn on a simulation screen.
type harness struct {
	t    *testing.T
	term *terminal.Terminal
	view *View
	scr  tcell.SimulationScreen
}

// newHarness: keys, when given, are the view's tables.
func newHarness(t *testing.T, w, h int, keys ...*Keys) *harness {
	t.Helper()
	home := t.TempDir()
	// A short prompt keeps lines from wrapping.
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("PS1='$ '\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term, err := terminal.Start(terminal.Options{Dir: t.TempDir(), Env: []string{"HOME=" + home}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(w, h)
	var ks *Keys
	if len(keys) > 0 {
		ks = keys[0]
	}
	v := New(term, theme.Get("dark"), ks)
	v.SetRect(0, 0, w, h)
	v.Focus(func(tview.Primitive) {})
	hs := &harness{t: t, term: term, view: v, scr: scr}
	hs.waitLine("$")
	return hs
}

// rows draws the view and returns the screen's rows as text.
func (h *harness) rows() []string {
	h.view.Draw(h.scr)
	h.scr.Show()
	cells, w, ht := h.scr.GetContents()
	rows := make([]string, ht)
	for y := 0; y < ht; y++ {
		var sb strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				sb.WriteByte(' ')
			} else {
				sb.WriteString(string(c.Runes))
			}
		}
		rows[y] = strings.TrimRight(sb.String(), " ")
	}
	return rows
}

// inner returns the rows inside the border, without the border columns.
func (h *harness) inner() []string {
	rows := h.rows()
	x, y, w, ht := h.view.GetInnerRect()
	out := make([]string, 0, ht)
	for _, r := range rows[y : y+ht] {
		rs := []rune(r + strings.Repeat(" ", x+w))
		out = append(out, strings.TrimRight(string(rs[x:x+w]), " "))
	}
	return out
}

func (h *harness) text() string { return strings.Join(h.inner(), "\n") }

// waitFor redraws until cond holds for the inner rows, or fails after a
// generous deadline.
func (h *harness) waitFor(what string, cond func(rows []string) bool) []string {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		rows := h.inner()
		if cond(rows) {
			return rows
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s; the pane shows:\n%s", what, strings.Join(rows, "\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (h *harness) waitText(s string) {
	h.t.Helper()
	h.waitFor(s, func(rows []string) bool { return strings.Contains(strings.Join(rows, "\n"), s) })
}

func (h *harness) waitNoText(s string) {
	h.t.Helper()
	h.waitFor("no "+s, func(rows []string) bool { return !strings.Contains(strings.Join(rows, "\n"), s) })
}

// waitLine waits for a row that is exactly s.
func (h *harness) waitLine(s string) {
	h.t.Helper()
	h.waitFor("a line "+s, func(rows []string) bool {
		for _, r := range rows {
			if r == s {
				return true
			}
		}
		return false
	})
}

func (h *harness) key(k tcell.Key, r rune, mods tcell.ModMask) {
	h.view.InputHandler()(tcell.NewEventKey(k, r, mods), func(tview.Primitive) {})
}

// typeText types s; "\n" presses Enter.
func (h *harness) typeText(s string) {
	for _, r := range s {
		if r == '\n' {
			h.key(tcell.KeyEnter, 0, tcell.ModNone)
		} else {
			h.key(tcell.KeyRune, r, tcell.ModNone)
		}
	}
}

func (h *harness) mouse(action tview.MouseAction, x, y int, btn tcell.ButtonMask) {
	h.view.MouseHandler()(action, tcell.NewEventMouse(x, y, btn, tcell.ModNone), func(tview.Primitive) {})
}

func need(t *testing.T, prog string) {
	if _, err := exec.LookPath(prog); err != nil {
		t.Skipf("%s is not installed (apt-get install -y %s)", prog, prog)
	}
}

func TestTypedKeysEcho(t *testing.T) {
	h := newHarness(t, 80, 20)
	h.typeText("echo typed in the pane")
	h.waitText("$ echo typed in the pane")
	// The cursor follows the typing.
	x, y, _, _ := h.view.GetInnerRect()
	cx, cy, visible := h.scr.GetCursor()
	if !visible || cy < y || cx != x+len("$ echo typed in the pane") {
		t.Fatalf("cursor at %d,%d (visible %v)", cx, cy, visible)
	}
	h.typeText("\n")
	h.waitLine("typed in the pane")
	// Editing keys reach readline: Backspace, Left, Ctrl-A.
	h.typeText("echo abd")
	h.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	h.typeText("c")
	h.key(tcell.KeyLeft, 0, tcell.ModNone)
	h.key(tcell.KeyLeft, 0, tcell.ModNone)
	h.typeText("X")
	h.key(tcell.KeyCtrlA, 'a', tcell.ModCtrl)
	h.typeText(" ")
	h.typeText("\n")
	h.waitLine("aXbc")
}

func TestVimEditsAndRestoresTheScreen(t *testing.T) {
	need(t, "vim")
	h := newHarness(t, 90, 24)
	h.typeText("echo before-vim\n")
	h.waitLine("before-vim")
	h.typeText("vim -u NONE -i NONE -N -n notes.txt\n")
	h.waitText("notes.txt")
	h.waitLine("~")

	insert := func(keys func()) {
		keys()
		h.waitText("-- INSERT --")
	}
	normal := func() {
		h.key(tcell.KeyEsc, 0, tcell.ModNone)
		h.waitNoText("-- INSERT --")
	}
	insert(func() { h.typeText("i") })
	h.typeText("hello world")
	normal()
	insert(func() { h.typeText("o") })
	h.typeText("second line")
	normal()
	// Arrow keys, in normal mode and in insert mode.
	h.key(tcell.KeyUp, 0, tcell.ModNone)
	insert(func() { h.typeText("A") })
	h.typeText("!")
	h.key(tcell.KeyLeft, 0, tcell.ModNone)
	h.typeText("?")
	normal()
	h.waitLine("hello world?!")
	h.typeText(":wq\n")

	// Back in the shell, the screen is what it was before vim.
	h.waitNoText("~")
	h.waitLine("before-vim")
	data, err := os.ReadFile(filepath.Join(h.term.Root(), "notes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "hello world?!\nsecond line\n" {
		t.Fatalf("notes.txt = %q", data)
	}
}

func TestLessScrollsWithKeysAndWheel(t *testing.T) {
	need(t, "less")
	h := newHarness(t, 60, 14)
	h.typeText("seq 1 300 | less\n")
	top := func(want string) {
		h.t.Helper()
		h.waitFor("line "+want+" at the top", func(rows []string) bool { return rows[0] == want })
	}
	top("1")
	h.key(tcell.KeyDown, 0, tcell.ModNone)
	top("2")
	h.typeText("j")
	top("3")
	// less runs in the alternate screen: the wheel sends arrow keys.
	x, y, _, _ := h.view.GetInnerRect()
	h.mouse(tview.MouseScrollDown, x+2, y+2, tcell.WheelDown)
	top("6")
	h.mouse(tview.MouseScrollUp, x+2, y+2, tcell.WheelUp)
	top("3")
	h.typeText("q")
	h.waitText("$ seq 1 300 | less")
}

func TestResizeReachesStty(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.view.SetRect(0, 0, 70, 20)
	h.rows()
	h.typeText("stty size\n")
	h.waitLine("18 68")
	h.view.SetRect(0, 0, 50, 12)
	h.scr.SetSize(50, 12)
	h.rows()
	h.typeText("stty size\n")
	h.waitLine("10 48")
}

func TestColoursRender(t *testing.T) {
	h := newHarness(t, 80, 16)
	h.typeText(`printf '\e[31mRED\e[0m \e[38;5;208mORANGE\e[0m \e[38;2;10;200;30mTRUE\e[0m \e[1;44mBOLD\e[0m \e[7mREV\e[0m plain\n'` + "\n")
	h.waitText("RED ORANGE TRUE BOLD REV plain")
	cells, w, _ := h.scr.GetContents()
	ix, iy, iw, ih := h.view.GetInnerRect()
	find := func(word string) tcell.Style {
		for y := iy; y < iy+ih; y++ {
			var sb strings.Builder
			for x := ix; x < ix+iw; x++ {
				if r := cells[y*w+x].Runes; len(r) > 0 {
					sb.WriteRune(r[0])
				} else {
					sb.WriteByte(' ')
				}
			}
			line := sb.String()
			// The output line, not the echoed command.
			if strings.HasPrefix(line, "RED ") {
				if i := strings.Index(line, word); i >= 0 {
					return cells[y*w+ix+len([]rune(line[:i]))].Style
				}
			}
		}
		t.Fatalf("%s not on screen", word)
		return tcell.StyleDefault
	}
	th := theme.Get("dark")
	checks := []struct {
		word   string
		fg, bg tcell.Color
		attr   tcell.AttrMask
	}{
		{"RED", tcell.PaletteColor(1), th.Background, 0},
		{"ORANGE", tcell.PaletteColor(208), th.Background, 0},
		{"TRUE", tcell.NewRGBColor(10, 200, 30), th.Background, 0},
		{"BOLD", th.Foreground, tcell.PaletteColor(4), tcell.AttrBold},
		{"REV", th.Foreground, th.Background, tcell.AttrReverse},
		{"plain", th.Foreground, th.Background, 0},
	}
	for _, c := range checks {
		fg, bg, attr := find(c.word).Decompose()
		if fg != c.fg || bg != c.bg || attr != c.attr {
			t.Errorf("%s: fg %v bg %v attr %v, want fg %v bg %v attr %v", c.word, fg, bg, attr, c.fg, c.bg, c.attr)
		}
	}
}

func TestScrollback(t *testing.T) {
	h := newHarness(t, 60, 14)
	h.typeText("seq 1 500\n")
	h.waitLine("500")
	h.key(tcell.KeyPgUp, 0, tcell.ModShift)
	rows := h.inner()
	if !strings.Contains(rows[0], "↑") || rows[len(rows)-1] == "$" {
		t.Fatalf("not scrolled back:\n%s", strings.Join(rows, "\n"))
	}
	// Older lines are visible, and the view stays put while output goes on.
	h.waitLine("488")
	h.key(tcell.KeyPgUp, 0, tcell.ModShift)
	h.waitLine("476")
	h.term.Write([]byte("seq 1000 1005\r"))
	h.waitLine("476")
	// The wheel scrolls the main screen's scrollback.
	x, y, _, _ := h.view.GetInnerRect()
	h.mouse(tview.MouseScrollDown, x+2, y+2, tcell.WheelDown)
	h.waitLine("479")
	h.key(tcell.KeyPgDn, 0, tcell.ModShift)
	h.key(tcell.KeyPgDn, 0, tcell.ModShift)
	h.key(tcell.KeyPgDn, 0, tcell.ModShift)
	h.waitLine("1005")
	h.waitNoText("↑")
	// Typing goes back to the live screen.
	h.key(tcell.KeyPgUp, 0, tcell.ModShift)
	h.waitText("↑")
	h.typeText("x")
	h.waitNoText("↑")
}

func TestTitleSaysWhatTheAgentRuns(t *testing.T) {
	h := newHarness(t, 80, 16)
	if got := h.view.Title(); got != "Terminal" {
		t.Fatalf("idle title %q", got)
	}
	done := make(chan terminal.Result)
	go func() {
		res, err := h.term.Run(context.Background(), terminal.Command{Text: "go_test_stand_in() { sleep 1; }; go_test_stand_in", Timeout: time.Minute}, nil)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	h.waitFor("the running title", func([]string) bool {
		return strings.HasPrefix(h.view.Title(), "Terminal — running: go_test_stand_in() { sleep 1; }")
	})
	rows := h.rows()
	if !strings.Contains(rows[0], "Terminal — running: go_test_stand_in") {
		t.Fatalf("border title: %q", rows[0])
	}
	<-done
	if got := h.view.Title(); got != "Terminal" {
		t.Fatalf("title after %q", got)
	}
	// A program's own title shows when the agent runs nothing.
	h.typeText(`printf '\e]0;my title\a'` + "\n")
	h.waitFor("the program's title", func([]string) bool { return h.view.Title() == "Terminal — my title" })
}

func TestCtrlCGoesToTheShell(t *testing.T) {
	h := newHarness(t, 80, 16)
	// Typed ahead while readline has the terminal in raw mode, input would
	// reach cat unprocessed; "ready" shows that bash gave it back.
	h.typeText("echo ready; cat\n")
	h.waitLine("ready")
	h.typeText("ping\n")
	// Echoed by the terminal, then printed by cat: cat runs.
	h.waitFor("cat's echo", func(rows []string) bool {
		return strings.Count(strings.Join(rows, "\n"), "\nping") == 2
	})
	h.key(tcell.KeyCtrlC, 'c', tcell.ModCtrl)
	// The terminal drops what was typed before the prompt is back.
	h.waitFor("the prompt after ^C", func(rows []string) bool {
		joined := strings.TrimRight(strings.Join(rows, "\n"), "\n")
		return strings.Contains(joined, "^C") && strings.HasSuffix(joined, "\n$")
	})
	h.typeText("echo after-ctrl-c\n")
	h.waitLine("after-ctrl-c")
}

func TestCtrlQIsNotSent(t *testing.T) {
	h := newHarness(t, 80, 16)
	h.typeText("stty -ixon; echo ready; cat -v\n")
	h.waitLine("ready")
	h.key(tcell.KeyCtrlQ, 'q', tcell.ModCtrl)
	h.key(tcell.KeyRune, 'q', tcell.ModCtrl)
	h.typeText("x\n")
	h.waitFor("cat's echo", func(rows []string) bool {
		return strings.Count(strings.Join(rows, "\n"), "\nx") == 2
	})
	if strings.Contains(h.text(), "^Q") {
		t.Fatalf("Ctrl-Q reached the shell:\n%s", h.text())
	}
	h.key(tcell.KeyCtrlD, 'd', tcell.ModCtrl)
}

func TestPasteIsBracketed(t *testing.T) {
	h := newHarness(t, 80, 16)
	h.view.PasteHandler()("echo pasted-one\necho pasted-two", func(tview.Primitive) {})
	// Readline takes a bracketed paste as text: nothing runs before Enter.
	h.waitText("echo pasted-two")
	if strings.Contains(h.text(), "\npasted-one") {
		t.Fatal("the paste ran before Enter")
	}
	h.typeText("\n")
	h.waitLine("pasted-one")
	h.waitLine("pasted-two")
}

func TestMouseReportsToPrograms(t *testing.T) {
	h := newHarness(t, 80, 16)
	h.typeText(`stty -echo; printf '\e[?1000h\e[?1006h'; IFS= read -r -d M m; printf '\e[?1000l\e[?1006l'; stty echo; echo "mouse:${m#*<}"` + "\n")
	h.waitFor("mouse tracking", func([]string) bool { return h.term.Modes().Mouse == 1000 })
	x, y, _, _ := h.view.GetInnerRect()
	h.mouse(tview.MouseLeftDown, x+5, y+3, tcell.Button1)
	h.waitLine("mouse:0;6;4")
	h.mouse(tview.MouseLeftUp, x+5, y+3, tcell.ButtonNone)
}

// With button-event tracking (1002) in SGR form, every button's press and
// release, the wheel and a drag (on past the pane's edge, which is
// clamped) reach the program; a click adds nothing to its down and up,
// motion with no button held is not reported, and the pane holds the mouse
// from a press to its release.
func TestMouseReportsEveryButton(t *testing.T) {
	h := newHarness(t, 80, 16)
	x, y, w, _ := h.view.GetInnerRect()
	bx, _, bw, _ := h.view.GetRect()
	out := filepath.Join(t.TempDir(), "mouse")
	type ev struct {
		action  tview.MouseAction
		x, y    int
		mods    tcell.ModMask
		capture bool   // the pane keeps the mouse after it
		sent    string // what the program reads
	}
	evs := []ev{
		{tview.MouseLeftDown, x + 5, y + 3, tcell.ModNone, true, "\x1b[<0;6;4M"},
		{tview.MouseMove, x + 6, y + 3, tcell.ModNone, true, "\x1b[<32;7;4M"},
		{tview.MouseMove, bx + bw + 3, y + 3, tcell.ModNone, true, fmt.Sprintf("\x1b[<32;%d;4M", w)},
		{tview.MouseLeftUp, x + 5, y + 3, tcell.ModNone, false, "\x1b[<0;6;4m"},
		{tview.MouseLeftClick, x + 5, y + 3, tcell.ModNone, false, ""},
		{tview.MouseMove, x + 7, y + 3, tcell.ModNone, false, ""},
		{tview.MouseMiddleDown, x + 1, y + 1, tcell.ModNone, true, "\x1b[<1;2;2M"},
		{tview.MouseMiddleUp, x + 1, y + 1, tcell.ModNone, false, "\x1b[<1;2;2m"},
		{tview.MouseRightDown, x + 2, y + 1, tcell.ModAlt, true, "\x1b[<10;3;2M"},
		{tview.MouseRightUp, x + 2, y + 1, tcell.ModAlt, false, "\x1b[<10;3;2m"},
		{tview.MouseScrollUp, x, y, tcell.ModNone, false, "\x1b[<64;1;1M"},
		{tview.MouseScrollDown, x, y, tcell.ModNone, false, "\x1b[<65;1;1M"},
		{tview.MouseScrollLeft, x, y, tcell.ModNone, false, "\x1b[<66;1;1M"},
		{tview.MouseScrollRight, x, y, tcell.ModNone, false, "\x1b[<67;1;1M"},
		{tview.MouseLeftUp, x + 3, y + 2, tcell.ModNone, false, "\x1b[<0;4;3m"}, // a release with nothing held
	}
	var want strings.Builder
	for _, e := range evs {
		want.WriteString(e.sent)
	}
	h.typeText(fmt.Sprintf(`stty raw -echo; printf '\e[?1002h\e[?1006h'; dd bs=1 count=%d of=%s 2>/dev/null; printf '\e[?1002l\e[?1006l'; stty sane; echo mouse-done`, want.Len(), out) + "\n")
	h.waitFor("mouse tracking", func([]string) bool { m := h.term.Modes(); return m.Mouse == 1002 && m.MouseSGR })
	for _, e := range evs {
		_, capture := h.view.MouseHandler()(e.action, tcell.NewEventMouse(e.x, e.y, tcell.ButtonNone, e.mods), func(tview.Primitive) {})
		if (capture != nil) != e.capture {
			t.Errorf("after %v at %d,%d: the pane holds the mouse %v, want %v", e.action, e.x, e.y, capture != nil, e.capture)
		}
	}
	h.waitLine("mouse-done")
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Fatalf("the program read %q, want %q", got, want.String())
	}
}

// Every full-screen program gets the alternate screen, not just the first:
// each round waits in the alternate screen for Enter.
func TestAlternateScreenEveryTime(t *testing.T) {
	h := newHarness(t, 60, 12)
	h.typeText("clear\n")
	h.typeText(`for i in 1 2 3; do printf '\e[?1049hX%s\r\n1\r\n2\r\n' $i; read -r; printf '\e[?1049l'; done; echo all-done` + "\n")
	for i := 1; i <= 3; i++ {
		want := fmt.Sprintf("X%d", i)
		// The round's three lines may arrive in more than one read: the
		// screen is judged once all three are there.
		rows := h.waitFor(want+" at the top of the alternate screen", func(rows []string) bool {
			return rows[0] == want && rows[1] == "1" && rows[2] == "2"
		})
		if !h.term.Modes().AltScreen {
			t.Fatalf("round %d: the pane shows\n%s", i, strings.Join(rows, "\n"))
		}
		h.typeText("\n")
	}
	h.waitLine("all-done")
	for _, l := range h.term.ScrollbackText() {
		if strings.HasPrefix(l, "X") {
			t.Fatalf("a program's page went into the scrollback: %q", h.term.ScrollbackText())
		}
	}
}

// less on a long file after another full-screen program (vim) shows its
// first page at once, in the alternate screen, and leaves nothing behind.
func TestLessAfterVim(t *testing.T) {
	need(t, "vim")
	need(t, "less")
	h := newHarness(t, 70, 16)
	h.typeText("seq 1 2000 > long.txt; clear\n")
	h.typeText("vim -u NONE -i NONE -N -n long.txt\n")
	h.waitLine("1")
	h.typeText(":q\n")
	// Typing ":" already takes vim's "long.txt" 2000L message away: wait
	// for vim to have left the alternate screen and the shell to show the
	// command again, or less would be typed into vim.
	h.waitFor("vim to quit", func(rows []string) bool {
		return !h.term.Modes().AltScreen && strings.Contains(strings.Join(rows, "\n"), "$ vim -u NONE")
	})
	h.typeText("less long.txt\n")
	rows := h.waitFor("less's first page", func(rows []string) bool { return rows[0] == "1" && rows[12] == "13" })
	if !h.term.Modes().AltScreen {
		t.Fatalf("less is not in the alternate screen:\n%s", strings.Join(rows, "\n"))
	}
	h.typeText("G")
	h.waitFor("the end of the file", func(rows []string) bool { return rows[12] == "2000" })
	h.typeText("q")
	h.waitText("$ less long.txt")
	for _, l := range h.term.ScrollbackText() {
		if l == "1990" {
			t.Fatal("less's page went into the scrollback")
		}
	}
}

// A bell rung while the pane did not have focus marks its title until the
// pane gets focus; one rung while it has focus does not.
func TestBellMarksTheTitleUntilFocused(t *testing.T) {
	h := newHarness(t, 60, 8)
	h.view.Blur()
	h.run(`printf 'ding\a\n'`)
	h.waitFor("the bell mark", func(rows []string) bool { return strings.Contains(h.view.Title(), BellMark) })
	if !strings.Contains(h.rows()[0], BellMark) {
		t.Errorf("the drawn title has no bell: %q", h.rows()[0])
	}
	h.view.Focus(func(tview.Primitive) {})
	h.rows()
	if strings.Contains(h.view.Title(), BellMark) {
		t.Fatalf("the bell mark stays once the pane has focus: %q", h.view.Title())
	}
	// Rung while focused: seen at once.
	h.typeText("printf '\\a'\r")
	h.waitFor("the command to run", func(rows []string) bool { return h.term.Bells() >= 2 })
	h.rows()
	h.view.Blur()
	if strings.Contains(h.view.Title(), BellMark) {
		t.Fatalf("a bell rung while focused marks the title: %q", h.view.Title())
	}
}

// cellBg is the background of the first cell of the pane showing text.
func (h *harness) cellBg(text string) (tcell.Color, bool) {
	x0, y0, _, _ := h.view.GetInnerRect()
	for i, row := range h.inner() {
		if j := strings.Index(row, text); j >= 0 {
			_, _, st, _ := h.scr.GetContent(x0+len([]rune(row[:j])), y0+i)
			_, bg, _ := st.Decompose()
			return bg, true
		}
	}
	return 0, false
}

// Alt-/ searches the scrollback: the newest match first, scrolled into
// view and marked; n and N step through the others; Esc closes.
func TestFindInTheScrollback(t *testing.T) {
	h := newHarness(t, 60, 10)
	res, err := h.term.Run(context.Background(), terminal.Command{Text: `for i in $(seq 1 300); do echo "row $i of the FL""OOD"; done; echo "row $((40+2)) again"`, Timeout: time.Minute}, nil)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	h.waitText("row 42 again")
	h.key(tcell.KeyRune, '/', tcell.ModAlt)
	h.waitText("find:")
	h.typeText("row 42 ")
	rows := h.waitFor("the search bar", func(rows []string) bool {
		return strings.Contains(rows[len(rows)-1], "find: row 42") && strings.Contains(rows[len(rows)-1], "2 of 2")
	})
	if bg, ok := h.cellBg("row 42 again"); !ok || bg != h.view.theme.Warning {
		t.Fatalf("the newest match is not marked (%v %v):\n%s", bg, ok, strings.Join(rows, "\n"))
	}
	h.key(tcell.KeyEnter, 0, tcell.ModNone)
	h.key(tcell.KeyRune, 'n', tcell.ModNone)
	rows = h.waitFor("the older match", func(rows []string) bool {
		return strings.Contains(strings.Join(rows, "\n"), "row 42 of the FLOOD") && strings.Contains(rows[len(rows)-1], "1 of 2")
	})
	if bg, ok := h.cellBg("row 42 of the FLOOD"); !ok || bg != h.view.theme.Warning {
		t.Fatalf("the older match is not marked:\n%s", strings.Join(rows, "\n"))
	}
	// Smart case: capitals must match.
	h.typeText("/")
	for range "row 42 " {
		h.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	}
	h.typeText("flood")
	h.waitFor("300 case-blind matches", func(rows []string) bool { return strings.Contains(rows[len(rows)-1], "300 of 300") })
	h.typeText("X")
	h.waitFor("no match", func(rows []string) bool { return strings.Contains(rows[len(rows)-1], "no match") })
	h.key(tcell.KeyEscape, 0, tcell.ModNone)
	h.waitNoText("find:")
	// Keys go to the shell again.
	h.typeText("echo back\n")
	h.waitLine("back")
}

// run runs text as an agent command in the pane's shell; the test fails
// unless it succeeds.
func (h *harness) run(text string) {
	h.t.Helper()
	res, err := h.term.Run(context.Background(), terminal.Command{Text: text, Timeout: 10 * time.Second}, nil)
	if err != nil || res.ExitCode != 0 {
		h.t.Fatalf("%s: %+v %v", text, res, err)
	}
}

// rowsOf waits until the pane has a row reading exactly each of texts, at
// once, and returns their rows (the last one of each): read from one
// drawing, since the shell may still be redrawing its prompt between two.
func (h *harness) rowsOf(texts ...string) []int {
	h.t.Helper()
	ys := make([]int, len(texts))
	h.waitFor(fmt.Sprintf("rows %q", texts), func(rows []string) bool {
		for i, text := range texts {
			ys[i] = -1
			for y, row := range rows {
				if row == text {
					ys[i] = y
				}
			}
			if ys[i] < 0 {
				return false
			}
		}
		return true
	})
	return ys
}

// rowIs is the pane row whose text is exactly text (column 0).
func (h *harness) rowIs(text string) (x, y int) {
	for i, row := range h.inner() {
		if row == text {
			return 0, i
		}
	}
	h.t.Fatalf("no row %q in the pane:\n%s", text, h.text())
	return 0, 0
}

// Dragging the mouse over the pane selects text, marks it and copies it
// on release; a double click copies a word, a third click the line; Shift
// takes the mouse back from a program that asked for it.
func TestMouseSelectsAndCopies(t *testing.T) {
	h := newHarness(t, 60, 10)
	var copied []string
	h.view.SetOnCopy(func(s string) { copied = append(copied, s) })
	h.run(`printf 'alpha beta gamma\ndelta epsilon\n'`)
	h.waitLine("delta epsilon")
	ix, iy, _, _ := h.view.GetInnerRect()
	// The output rows, not the command line that printed them.
	bx, by := h.rowIs("alpha beta gamma")
	bx += len("alpha ")
	dx, dy := h.rowIs("delta epsilon")
	// From "beta" to "delta", across the line end.
	h.mouse(tview.MouseLeftDown, ix+bx, iy+by, tcell.Button1)
	h.mouse(tview.MouseMove, ix+dx+2, iy+dy, tcell.Button1)
	h.mouse(tview.MouseLeftUp, ix+dx+4, iy+dy, tcell.ButtonNone)
	if len(copied) != 1 || copied[0] != "beta gamma\ndelta" {
		t.Fatalf("copied %q", copied)
	}
	h.rows() // draw
	for _, c := range []struct {
		x, y int
		want bool
	}{{bx, by, true}, {bx + 7, by, true}, {dx + 4, dy, true}, {bx - 1, by, false}, {dx + 6, dy, false}} {
		_, _, st, _ := h.scr.GetContent(ix+c.x, iy+c.y)
		if _, bg, _ := st.Decompose(); (bg == h.view.theme.Selection) != c.want {
			t.Errorf("cell %d,%d: background %v, selected %v", c.x, c.y, bg, c.want)
		}
	}
	// A double click: the word; a click soon after: the line.
	h.mouse(tview.MouseLeftDoubleClick, ix+dx+7, iy+dy, tcell.ButtonNone)
	h.mouse(tview.MouseLeftDown, ix+dx+7, iy+dy, tcell.Button1)
	if len(copied) != 3 || copied[1] != "epsilon" || copied[2] != "delta epsilon" {
		t.Fatalf("copied %q", copied)
	}
	h.mouse(tview.MouseLeftUp, ix+dx+7, iy+dy, tcell.ButtonNone)
	// A program that wants the mouse gets it; with Shift, the user selects.
	h.typeText("printf '\\e[?1000h'; cat -v\n")
	h.waitFor("mouse mode", func([]string) bool { return h.term.Modes().Mouse != 0 })
	h.mouse(tview.MouseLeftDown, ix+bx, iy+by, tcell.Button1)
	h.mouse(tview.MouseLeftUp, ix+bx+3, iy+by, tcell.ButtonNone)
	h.waitText("^[[M")
	if len(copied) != 3 {
		t.Fatalf("a click given to the program copied %q", copied[3:])
	}
	h.view.MouseHandler()(tview.MouseLeftDown, tcell.NewEventMouse(ix+bx, iy+by, tcell.Button1, tcell.ModShift), func(tview.Primitive) {})
	h.view.MouseHandler()(tview.MouseLeftUp, tcell.NewEventMouse(ix+bx+3, iy+by, tcell.ButtonNone, tcell.ModShift), func(tview.Primitive) {})
	if len(copied) != 4 || copied[3] != "beta" {
		t.Fatalf("Shift-drag copied %q", copied)
	}
	h.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
}

// A hyperlink (OSC 8) is underlined; Alt-L opens the last one on the
// screen, Ctrl-click the one clicked.
func TestHyperlinksAreShownAndOpened(t *testing.T) {
	h := newHarness(t, 60, 10)
	var opened []string
	h.view.SetOnLink(func(u string) { opened = append(opened, u) })
	h.run(`printf '\e]8;;https://example.com/a\e\\first\e]8;;\e\\ plain\n\e]8;;file:///tmp/b.go\e\\second\e]8;;\e\\\n'`)
	h.waitLine("first plain")
	ix, iy, _, _ := h.view.GetInnerRect()
	_, fy := h.rowIs("first plain")
	for _, c := range []struct {
		x    int
		want bool
	}{{0, true}, {4, true}, {6, false}} {
		_, _, st, _ := h.scr.GetContent(ix+c.x, iy+fy)
		if got := st.GetUnderlineStyle() != tcell.UnderlineStyleNone; got != c.want {
			t.Errorf("cell %d of 'first plain': underlined %v, want %v", c.x, got, c.want)
		}
	}
	h.key(tcell.KeyRune, 'l', tcell.ModAlt)
	h.view.MouseHandler()(tview.MouseLeftDown, tcell.NewEventMouse(ix+2, iy+fy, tcell.Button1, tcell.ModCtrl), func(tview.Primitive) {})
	if strings.Join(opened, " ") != "file:///tmp/b.go https://example.com/a" {
		t.Fatalf("opened %q", opened)
	}
}

// While the emulator is busy parsing output (held here as a long write
// holds it), the pane still draws, from its last frame, and keys still
// reach the shell: the UI never waits for the emulator.
func TestDrawsAndTakesKeysWhileTheEmulatorIsBusy(t *testing.T) {
	h := newHarness(t, 40, 10)
	h.typeText("echo before-the-hold\n")
	h.waitLine("before-the-hold")
	release := h.term.HoldEmulator()
	held := true
	defer func() {
		if held {
			release()
		}
	}()
	done := make(chan []string, 1)
	go func() {
		h.view.InputHandler()(tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone), func(tview.Primitive) {})
		h.view.SetRect(0, 0, 36, 9) // a resize too: carried out later
		done <- h.rows()
	}()
	select {
	case rows := <-done:
		if !strings.Contains(strings.Join(rows, "\n"), "before-the-hold") {
			t.Fatalf("the draw during the hold lost the last frame:\n%s", strings.Join(rows, "\n"))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a key and a draw waited for the emulator")
	}
	release()
	held = false
	h.typeText(" ; echo after-the-hold\n") // after the x typed during the hold
	h.waitLine("after-the-hold")
}

func TestTitleSaysTheSandbox(t *testing.T) {
	h := newHarness(t, 80, 16)
	state := "sandboxed: project, no network"
	h.view.SetTag(func() string { return state })
	if rows := h.rows(); !strings.Contains(rows[0], "Terminal · sandboxed: project, no network") {
		t.Fatalf("border title: %q", rows[0])
	}
	state = "" // nothing to say: the name alone
	if got := h.view.Title(); got != "Terminal" {
		t.Fatalf("title %q", got)
	}
}
