package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVttestRecorded feeds fawn's screen what vttest 2.7 wrote at 80×24
// while its menus 1, 2, 8 and 11.8.7 were walked (testdata/vttest/NN.in,
// one file per key pressed; record.py made them) and compares each screen
// with NN.want. The wanted screens are tmux's where tmux is right; where
// it is not (the notes in BenchmarkVttestAgainstTmux say which and why)
// they are what xterm shows. FAWN_VTTEST_UPDATE=1 rewrites the .want
// files from fawn's screens, to be reviewed in the diff.
func TestVttestRecorded(t *testing.T) {
	ins, _ := filepath.Glob(filepath.Join("testdata", "vttest", "*.in"))
	if len(ins) == 0 {
		t.Fatal("no recorded vttest output in testdata/vttest")
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
