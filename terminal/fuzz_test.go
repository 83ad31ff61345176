package terminal

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// FuzzScreen feeds fawn's screen (the emulator with fawn's handlers, its
// scrollback, its reflow and its draw) random output on a small screen
// whose size the input's first two bytes choose, and checks that it never
// panics (a panic the screen recovers from counts: the display must not
// have to restart), that the work it takes is bounded per byte by the
// screen's size whatever the counts say (cells written, moved or visited:
// a deterministic measure, not a clock), and that so is what it allocates.
//
// `make test` runs the seeds; `make fuzz` fuzzes (FUZZTIME, default 2m).
func FuzzScreen(f *testing.F) {
	for _, seed := range []string{
		// The hostile counts.
		"x\x1b[99999999b", "x\x1b[9999999999999999999999999b", "\x1b[?7lx\x1b[99999999b",
		"abc\x1b[99999999@", "abc\x1b[99999999P", "abc\x1b[99999999X", "\x1b[99999999L", "\x1b[99999999M",
		"\x1b[99999999S", "\x1b[99999999T", "\x1b[99999999C\x1b[99999999B", "\x1b[99999999D\x1b[99999999A",
		"\x1b[99999999E\x1b[99999999F", "\x1b[99999999G", "\x1b[99999999I", "\x1b[99999999Z", "\x1b[99999999`\x1b[99999999d",
		"\x1b[99999999a\x1b[99999999e", "\x1b[99999999;99999999H", "\x1b[2;99999999r\x1b[99999999B\n\n\x1b[5L",
		"\x1b[?69h\x1b[2;99999999s\x1b[99999999C\x1b[5@x", "\x1b[99999999G\x1bH\r\t\t\x1b[3g\x1b[0g",
		"e" + strings.Repeat("\u0301", 4096) + "x", strings.Repeat("👨‍👩‍👧‍👦", 200),
		"\x1b]0;" + strings.Repeat("t", 70000) + "\a", "\x1b]8;;http://x/" + strings.Repeat("u", 1000) + "\alink\x1b]8;;\a",
		"\x1bP" + strings.Repeat("q#0;2;0;0;0", 1000) + "\x1b\\", "\x1b_G" + strings.Repeat("A", 5000) + "\x1b\\",
		// vim: the alternate screen, margins, colours, a synchronized update.
		"\x1b[?1049h\x1b[22;0;0t\x1b[?1h\x1b=\x1b[H\x1b[2J\x1b[?2026h\x1b[1;23r\x1b[38;5;12m~\x1b[m\r\n\x1b[1;1H\x1b[?2026l\x1b[?25l\x1b[?1049l",
		// htop: positioned colour runs and erases.
		"\x1b[?1049h\x1b[1;1H\x1b[30;42m  PID\x1b[K\x1b[2;1H\x1b[0;1m  1\x1b[0m root \x1b[1;31m99.0\x1b[m\x1b[24;1H\x1b[J\x1b[?1049l",
		// vttest-like: DECALN, origin mode, wide lines, tab stops, charsets.
		"\x1b#8\x1b[3;10r\x1b[?6h\x1b[1;1HA\x1b[?6l\x1b(0lqqk\x1b(B\x1b[3g\x1bH\x1b[?3h\x1b[?3l\x1b7\x1b8\x1bc",
		"\x1b[4hIRM\x1b[4l\x1b[?5h\x1b[?5l\x1bE\x1bD\x1bM\x1b[6n\x1b[c\x1b[>c\x1b[?996n\x1b[0 q\x1b[5 q",
		// fawn's shell marks with no nonce set, and a bare ESC at the end.
		"\x1b]6973;x;P\a\x1b]6973;x;D;0;/\a\x1b",
	} {
		f.Add([]byte{40, 12}, []byte(seed))
		f.Add([]byte{5, 3}, []byte(seed))
	}
	ins, _ := filepath.Glob(filepath.Join("testdata", "vttest", "*.in"))
	for _, in := range ins[:min(len(ins), 8)] {
		if p, err := os.ReadFile(in); err == nil {
			f.Add([]byte{80, 24}, p[:min(len(p), 8<<10)])
		}
	}
	f.Fuzz(func(t *testing.T, size, data []byte) {
		w, h := 10, 4
		if len(size) >= 2 {
			w, h = 1+int(size[0])%80, 1+int(size[1])%24
		}
		// A generous deadline turns a hang (a deadlock, or work the bound
		// below would catch only at the end) into a crash the fuzzer
		// keeps as a failing input.
		watchdog := time.AfterFunc(time.Minute, func() {
			panic(fmt.Sprintf("FuzzScreen: %d bytes on %d×%d still running after a minute: %q", len(data), w, h, data))
		})
		defer watchdog.Stop()
		s := newScreen(w, h, 50, Colors{}, func([]byte) {})
		defer s.close()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		alloc0 := ms.TotalAlloc
		var work uint64
		// In pieces, as the feeder writes, so sequences are cut too.
		for p := data; len(p) > 0; {
			n := min(len(p), 97)
			work += s.write(p[:n])
			p = p[n:]
		}
		// A resize (reflow) and a draw, then the input again on the
		// new size.
		scr := tcell.NewSimulationScreen("UTF-8")
		if err := scr.Init(); err != nil {
			t.Fatal(err)
		}
		defer scr.Fini()
		scr.SetSize(h+2, w+2)
		s.resize(h+1, w+1)
		s.drawTo(scr, 0, 0, h+2, w+2, DrawOptions{ScrollBack: 3})
		work += s.write(data)
		s.drawTo(scr, 0, 0, h+2, w+2, DrawOptions{})

		s.mu.Lock()
		restarts := s.restarts
		s.mu.Unlock()
		if restarts > 0 {
			t.Fatalf("the emulator panicked on %q and the display restarted", data)
		}
		area := uint64(max(w, h+1) * max(h, w+1))
		rows := uint64(max(h, w+1))
		bound := 2 * uint64(len(data)+1) * area * (rows + 3)
		if work > bound {
			t.Fatalf("%d bytes on %d×%d took %d cells of work, more than %d", len(data), w, h, work, bound)
		}
		runtime.ReadMemStats(&ms)
		if alloc, limit := ms.TotalAlloc-alloc0, 16<<20+256*bound; alloc > limit {
			t.Fatalf("%d bytes on %d×%d allocated %d bytes, more than %d", len(data), w, h, alloc, limit)
		}
	})
}
