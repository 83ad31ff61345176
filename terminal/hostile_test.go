package terminal

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// withDeadline runs f in a goroutine and fails the test when it has not
// returned within a generous deadline.
func withDeadline(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s waited for the emulator", what)
	}
}

// While the emulator is busy parsing (held here as a long write holds
// it), what the UI calls on every frame and every key returns: the draw
// shows the last frame, and a resize is carried out once the write is
// over.
func TestTheUINeverWaitsForTheEmulator(t *testing.T) {
	term := startTerm(t, Options{Cols: 40, Rows: 10})
	waitIdle(t, term)
	_, _ = term.Write([]byte("seq 1 30; echo before-the-hold\r"))
	waitScreen(t, term, "before-the-hold\n")
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(40, 10)
	// The last frame is scrolled back; the view then goes back to the
	// live screen while the emulator is busy.
	term.DrawTo(scr, 0, 0, 40, 10, DrawOptions{ScrollBack: 3})
	term.DrawTo(scr, 0, 0, 40, 10, DrawOptions{})

	release := term.HoldEmulator()
	held := true
	defer func() {
		if held {
			release()
		}
	}()
	scr.Clear()
	withDeadline(t, "DrawTo", func() { term.DrawTo(scr, 0, 0, 40, 10, DrawOptions{}) })
	scr.Show()
	var d Drawn
	withDeadline(t, "DrawTo scrolled back", func() { d = term.DrawTo(scr, 0, 0, 40, 10, DrawOptions{ScrollBack: 3}) })
	if d.ScrollBack != 3 {
		t.Fatalf("a draw from the last frame told the view it is %d lines back, not the 3 it asked for", d.ScrollBack)
	}
	withDeadline(t, "DrawTo", func() { d = term.DrawTo(scr, 0, 0, 40, 10, DrawOptions{}) })
	if d.ScrollBack != 0 {
		t.Fatalf("a draw from the last frame told the view it is %d lines back, not at the live screen", d.ScrollBack)
	}
	withDeadline(t, "Modes, Title, Bells, Size", func() {
		_, _, _ = term.Modes(), term.Title(), term.Bells()
		_, _ = term.Size()
	})
	withDeadline(t, "Resize", func() { term.Resize(30, 8) })
	// The output is not the command line as typed: readline redraws that
	// line, wrapped, for the resize, so only the output proves it ran.
	withDeadline(t, "Write", func() { _, _ = term.Write([]byte("echo after-the-$((1+1))-hold\r")) })
	if !strings.Contains(simText(scr), "before-the-hold") {
		t.Fatalf("the draw during the hold did not show the last frame:\n%s", simText(scr))
	}
	release()
	held = false
	waitFor(t, "the resize once the emulator is free", func() bool {
		c, r := term.Size()
		return c == 30 && r == 8
	})
	waitScreen(t, term, "after-the-2-hold")
}

func simText(scr tcell.SimulationScreen) string {
	cells, w, h := scr.GetContents()
	var sb strings.Builder
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if r := cells[y*w+x].Runes; len(r) > 0 {
				sb.WriteString(string(r))
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// A panic in the emulator while it parses the shell's output does not
// take fawn down: the display restarts with a notice and the shell, which
// never noticed, goes on.
func TestAPanicWhileParsingRestartsTheDisplay(t *testing.T) {
	term := startTerm(t, Options{Cols: 100, Rows: 10})
	waitIdle(t, term)
	term.scr.mu.Lock()
	// A stand-in for a bug in the emulator, on a sequence no program sends.
	term.scr.emu.RegisterOscHandler(7777, func([]byte) bool { panic("boom") })
	term.scr.mu.Unlock()
	mustRun(t, term, `printf 'x\e]7777;y\ax\n'`)
	waitScreen(t, term, "[fawn: the terminal display failed (boom) and was reset")
	if res := mustRun(t, term, "echo still-$((40+2))"); !strings.Contains(res.Output, "still-42") {
		t.Fatalf("the shell after the restart said %q", res.Output)
	}
	waitScreen(t, term, "still-42")
}

// The counts of the hostile sequences, through fawn's own screen, leave a
// screen that shows what follows them.
func TestHostileCountsThroughTheScreen(t *testing.T) {
	s := newTestScreen(t, 20, 5, 100)
	for _, seq := range []string{"x\x1b[99999999b", "\x1b[99999999@", "\x1b[99999999X", "\x1b[99999999L",
		"\x1b[99999999S", "\x1b[99999999I", "\x1b[99999999Z", "\x1b[2;99999999r", "e" + strings.Repeat("\u0301", 1<<16)} {
		var work uint64
		withDeadline(t, "writing "+strconv.Quote(seq[:min(len(seq), 20)]), func() { work = s.write([]byte(seq)) })
		if bound := uint64(len(seq)+1) * 20 * 5 * 8; work > bound {
			t.Fatalf("%q took %d cells of work, more than %d", seq[:min(len(seq), 20)], work, bound)
		}
	}
	s.write([]byte("\x1b[r\x1b[2J\x1b[Hvisible"))
	if got := s.text(); !strings.HasPrefix(got, "visible") {
		t.Fatalf("screen after the hostile counts:\n%s", got)
	}
}

// A piece of hostile output stops once it took its budget of work, at a
// place where no character is cut, and the rest, fed after, leaves the
// screen that feeding it whole does: the emulator is held for about a
// budget of work at a time, never for the whole piece.
func TestAPieceStopsAtItsBudget(t *testing.T) {
	p := []byte(strings.Repeat("x\x1b[99999999b\x1b[50S日本\x1b[2J", 40) + "the end")
	whole := newTestScreen(t, 100, 30, 100)
	whole.write(p)
	s := newTestScreen(t, 100, 30, 100)
	const budget = 1 << 18
	pieces := 0
	for rest := p; len(rest) > 0; pieces++ {
		n, work := s.writeSome(rest, budget)
		if n == 0 {
			t.Fatal("a piece fed nothing")
		}
		// One chunk's worst case past the budget: every byte a REP that
		// fills (h+2) rows, each scrolling the screen.
		if limit := uint64(budget + chunk*100*32*31); work > limit {
			t.Fatalf("a piece took %d cells of work, more than %d", work, limit)
		}
		rest = rest[n:]
	}
	if pieces < 5 {
		t.Fatalf("%d bytes of hostile output went in %d pieces", len(p), pieces)
	}
	if got, want := s.text(), whole.text(); got != want {
		t.Fatalf("fed in pieces the screen is\n%s\nfed whole\n%s", got, want)
	}
}

// A pane bigger than any screen gets an emulator of at most maxCols ×
// maxRows cells (two screens of ~100 bytes a cell are allocated for it).
func TestAHugeResizeIsCapped(t *testing.T) {
	term := startTerm(t, Options{Cols: 1 << 20, Rows: 1 << 20})
	if c, r := term.Size(); c != maxCols || r != maxRows {
		t.Fatalf("started at %d×%d", c, r)
	}
	// A resize waits for the emulator when the shell's output holds it,
	// so the size is waited for, not read at once.
	term.Resize(80, 24)
	waitFor(t, "the 80×24 resize", func() bool { c, r := term.Size(); return c == 80 && r == 24 })
	term.Resize(1<<30, 1<<30)
	waitFor(t, "the capped resize", func() bool { c, r := term.Size(); return c == maxCols && r == maxRows })
	if c, r := term.Size(); c != maxCols || r != maxRows {
		t.Fatalf("resized to %d×%d", c, r)
	}
}
