package terminal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVttestRecorded feeds fawn's screen what vttest 2.7 wrote at 80×24
// while its menus 1, 2, 8 and 11.8.7 were walked (and 3, 11.5 and 9, below; 6 runs live) (testdata/vttest/NN.in,
// one file per key pressed; record.py made them) and compares each screen
// with NN.want. The wanted screens are tmux's where tmux is right; where
// it is not (the notes in BenchmarkVttestAgainstTmux say which and why)
// they are what xterm shows. FAWN_VTTEST_UPDATE=1 rewrites the .want
// files from fawn's screens, to be reviewed in the diff.
func TestVttestRecorded(t *testing.T) {
	// testdata/vttest-charsets is menu 3 (the character sets: 8, 9, 10,
	// 11), walked from a fresh vttest by its own record.py; its screens
	// are xterm's but for the locking shifts into GR (06), which vttest
	// shows with 8-bit bytes a UTF-8 terminal cannot take (xterm in UTF-8
	// mode shows replacement characters there, as fawn does).
	// testdata/vttest-iso6429 is menu 11.5 (ECMA-48 cursor movement: HPA,
	// CBT, CHA, CHT, HPR, VPA, CNL, CPL, VPR), each screen as vttest asks
	// (VPA's box starts a column left of the others, in tmux too).
	// testdata/vttest-bugs is menu 9 (the VT100's known bugs: 2, 6, 7 and
	// 9), each screen as tmux shows it too; bug B's line 11 should be
	// double-wide (fawn has no DECDWL: it is drawn single) and bug F's
	// screens reverse video, which this text comparison does not see.
	for _, dir := range []string{"vttest", "vttest-charsets", "vttest-iso6429", "vttest-bugs"} {
		t.Run(dir, func(t *testing.T) { replayVttest(t, filepath.Join("testdata", dir)) })
	}
}

func replayVttest(t *testing.T, dir string) {
	ins, _ := filepath.Glob(filepath.Join(dir, "*.in"))
	if len(ins) == 0 {
		t.Fatalf("no recorded vttest output in %s", dir)
	}
	s := newTestScreen(t, 80, 24, 100)
	update := os.Getenv("FAWN_VTTEST_UPDATE") != ""
	for _, in := range ins {
		p, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		s.write(p)
		got := normalScreen(s.text())
		wantFile := strings.TrimSuffix(in, ".in") + ".want"
		if update {
			if err := os.WriteFile(wantFile, []byte(got+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(wantFile)
		if err != nil {
			t.Fatal(err)
		}
		if got != strings.TrimSuffix(string(want), "\n") {
			t.Errorf("after %s the screen is\n%s\nwant\n%s", filepath.Base(in), got, want)
		}
	}
}

// vttest's menu 6 (terminal reports) asks the terminal itself, so it runs
// live in fawn's terminal: the DSR, DA and DECREQTPARM answers are what
// vttest takes for xterm's ("TERMINAL OK", "OK", "ok").
func TestVttestReportsLive(t *testing.T) {
	if _, err := exec.LookPath("vttest"); err != nil {
		t.Skip("vttest is not installed (apt-get install -y vttest; .ci/run installs it)")
	}
	term := startTerm(t, Options{})
	term.Resize(80, 24)
	mustRun(t, term, "true")
	d := fawnVT{term}
	d.send("vttest 24x80.80\r")
	settled(d)
	d.send("6\r")
	settled(d)
	check := func(key string, want []string, bad string) {
		t.Helper()
		d.send(key)
		s := settled(d)
		for _, w := range want {
			if strings.Count(s, w) == 0 || (bad != "" && strings.Contains(s, bad)) {
				t.Errorf("after %q vttest shows:\n%s\nwant %q, not %q", key, s, w, bad)
				break
			}
		}
		d.send("\r")
		settled(d)
	}
	check("3\r", []string{`<27> [ 0 n  -- means "TERMINAL OK"`, "R  -- OK"}, "Ignores origin mode")
	check("6\r", []string{`<27> P ! | 0 0 0 0 0 0 0 0 <27> \  ok`}, "failed")
	check("7\r", []string{"<27> [ 2 ; 1 ; 1 ; 1 2 8 ; 1 2 8 ; 1 ; 0 x  -- OK", "<27> [ 3 ; 1 ; 1 ; 1 2 8 ; 1 2 8 ; 1 ; 0 x  -- OK"}, "")
	d.send("0\r")
	settled(d)
	d.send("0\r")
}
