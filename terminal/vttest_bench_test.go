package terminal

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/vt"
)

// vtDriver is a terminal running vttest at 80×24 that the comparison
// drives: keys in, the screen's text out.
type vtDriver interface {
	send(keys string)
	screen() string
}

// fawnVT is vttest in fawn's terminal.
type fawnVT struct{ t *Terminal }

func (f fawnVT) send(keys string) { _, _ = f.t.Write([]byte(keys)) }
func (f fawnVT) screen() string   { return f.t.ScreenText() }

// tmuxVT is vttest in a detached tmux session of its own server.
type tmuxVT struct{ sock, name string }

func (m tmuxVT) send(keys string) {
	for _, k := range strings.SplitAfter(keys, "\r") {
		text, enter := strings.CutSuffix(k, "\r")
		if text != "" {
			_ = exec.Command("tmux", "-L", m.sock, "send-keys", "-t", m.name, "-l", text).Run()
		}
		if enter {
			_ = exec.Command("tmux", "-L", m.sock, "send-keys", "-t", m.name, "Enter").Run()
		}
	}
}

func (m tmuxVT) screen() string {
	out, _ := exec.Command("tmux", "-L", m.sock, "capture-pane", "-p", "-t", m.name).Output()
	return string(out)
}

// settled waits until d's screen has not changed for a while and returns
// it, lines' trailing blanks trimmed.
func settled(d vtDriver) string {
	last, since := "", time.Now()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		s := normalScreen(d.screen())
		if s != last {
			last, since = s, time.Now()
		} else if time.Since(since) > 400*time.Millisecond {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	return last
}

func normalScreen(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) < 24 {
		lines = append(lines, "")
	}
	return strings.Join(lines[:24], "\n")
}

// vttestScript walks vttest's menus 1, 2, 8 and 11.8.7 (its tests 3, 4
// and 5), pressing Return at every "Push <RETURN>", and returns each
// screen shown before that Return.
func vttestScript(d vtDriver) []string {
	var screens []string
	walk := func(choose string, menu string) {
		d.send(choose)
		for i := 0; i < 40; i++ {
			s := settled(d)
			if strings.Contains(s, menu) && !strings.Contains(s, "Push <RETURN>") {
				return // back at the menu
			}
			screens = append(screens, s)
			d.send("\r")
		}
	}
	settled(d)
	walk("1\r", "Enter choice number (0 - 12)")
	walk("2\r", "Enter choice number (0 - 12)")
	walk("8\r", "Enter choice number (0 - 12)")
	d.send("11\r")
	settled(d)
	d.send("8\r")
	settled(d)
	d.send("7\r")
	settled(d)
	for _, n := range []string{"3", "4", "5"} {
		walk(n+"\r", "Enter choice number (0 - 5)")
	}
	d.send("0\r")
	settled(d)
	d.send("0\r")
	settled(d)
	d.send("0\r")
	settled(d)
	d.send("0\r")
	return screens
}

var (
	vttestOnce               sync.Once
	vttestOurs, vttestTheirs []string
)

// BenchmarkVttestAgainstTmux runs vttest's menus 1, 2, 8 and 11.8.7 in
// fawn's terminal and in tmux, both 80×24, and reports how many of the
// screens are identical (make bench; FAWN_VTTEST_DIFF=FILE writes the
// ones that differ, side by side, to FILE).
//
// With vttest 2.7 and tmux 3.3a, 37 of 44 screens are identical. In the
// other seven tmux is the one that is off:
//   - 2: the 132-column pass of the cursor test draws its right border
//     with CUB after a character in the last column; xterm moves back
//     from the last column (the wrap is only pending), tmux from one
//     past it, so tmux's border has a gap.
//   - 3 and 4: the autowrap test's BS after the last column, the same
//     difference: tmux splits N/n, R/r, V/v and Z/z over two rows,
//     against vttest's "the margins should have letters in order".
//   - 17: the origin mode test's line "should be at the bottom of the
//     screen"; tmux puts it on row 2.
//   - 38, 41 and 44 (menu 11.8.7: modes 47, 1047, 1049): vttest itself
//     reports "cursor save/restore failed" under tmux, "ok" under fawn.
//
// tmux's capture shows the DEC line-drawing set as the ASCII it is sent
// as (q, `): fawn's screens are compared after the same translation.
func BenchmarkVttestAgainstTmux(b *testing.B) {
	for _, p := range []string{"vttest", "tmux"} {
		if _, err := exec.LookPath(p); err != nil {
			b.Skipf("skipped: %s is not installed (apt-get install -y %s)", p, p)
		}
	}
	// The testing package calls a benchmark more than once (b.N = 1, then
	// the -benchtime count): the screens are recorded the first time.
	vttestOnce.Do(func() {
		term := startTerm(b, Options{Cols: 80, Rows: 24})
		mustRun(b, term, "true")
		term.Write([]byte("exec vttest\r"))
		vttestOurs = vttestScript(fawnVT{term})

		sock := fmt.Sprintf("fawn-vttest-%d", os.Getpid())
		if err := exec.Command("tmux", "-L", sock, "-f", "/dev/null", "new-session", "-d", "-s", "vt", "-x", "80", "-y", "24", "vttest").Run(); err != nil {
			b.Fatal(err)
		}
		defer exec.Command("tmux", "-L", sock, "kill-server").Run()
		vttestTheirs = vttestScript(tmuxVT{sock, "vt"})
	})
	ours, theirs := vttestOurs, vttestTheirs

	same, fawnOff := 0, 0
	n := max(len(ours), len(theirs))
	var diff strings.Builder
	for i := 0; i < n; i++ {
		var o, t string
		if i < len(ours) {
			o = ours[i]
		}
		if i < len(theirs) {
			t = theirs[i]
		}
		if acsAsASCII(o) == t {
			same++
			continue
		}
		why, tmuxOff := tmuxIsOff(i+1, o, t)
		if !tmuxOff {
			fawnOff++
			why = "not a known tmux error: fawn's to explain"
		}
		fmt.Fprintf(&diff, "=== screen %d differs (%s)\n--- fawn:\n%s\n--- tmux:\n%s\n", i+1, why, o, t)
	}
	if path := os.Getenv("FAWN_VTTEST_DIFF"); path != "" {
		if err := os.WriteFile(path, []byte(diff.String()), 0o644); err != nil {
			b.Error(err)
		}
	}
	for i := 0; i < b.N; i++ {
		// Measured once: the figures are the screens'.
	}
	b.ReportMetric(float64(same), "identical")
	b.ReportMetric(float64(n), "screens")
	b.ReportMetric(float64(fawnOff), "fawn-off")
}

// tmuxIsOff says whether a screen that differs is one where tmux is known
// to be off (the list in BenchmarkVttestAgainstTmux's comment), and why.
// Each is recognised by its screen number and by text that shows the
// case, so another vttest or tmux version counts its differences as
// fawn's until someone looks.
func tmuxIsOff(screen int, fawn, tmux string) (string, bool) {
	switch {
	case (screen == 38 || screen == 41 || screen == 44) &&
		strings.Contains(tmux, "cursor save/restore failed") && strings.Contains(fawn, "cursor save/restore ok"):
		return "vttest says tmux's cursor save/restore failed", true
	case screen == 17 && strings.HasSuffix(strings.TrimRight(fawn, "\n"), "Origin mode test. This line should be at the bottom of the screen."):
		return "origin mode: fawn has the line at the bottom, as vttest asks", true
	case (screen == 3 || screen == 4) && strings.Contains(fawn, "Z                                                                              z"):
		return "autowrap: BS after the last column; fawn keeps the letters in order, as vttest asks", true
	case screen == 2 && strings.Count(fawn, "+*") > strings.Count(tmux, "+*"):
		return "CUB after the last column: xterm moves back from the last column, tmux from past it", true
	}
	return "", false
}

// asciiOfACS maps the characters of the DEC special graphics set back to
// the ASCII bytes that select them.
var asciiOfACS = func() map[string]string {
	m := map[string]string{}
	for b, r := range vt.SpecialDrawing {
		m[r] = string(b)
	}
	return m
}()

// acsAsASCII is s with the line-drawing characters shown as tmux's
// capture shows them.
func acsAsASCII(s string) string {
	var b strings.Builder
	for _, r := range s {
		if a, ok := asciiOfACS[string(r)]; ok {
			b.WriteString(a)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
