package editor

import (
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
)

// alignThree keeps every line of each version once and in order, and the
// rows outside a differing region show the same line in all three.
func TestAlignThree(t *testing.T) {
	rows := alignThree([]string{"a", "B", "c"}, []string{"a", "b", "c"}, []string{"a", "b", "c", "d"})
	want := [][3]int{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {-1, -1, 3}}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v", rows)
	}
	for i, r := range rows {
		if r.line != want[i] {
			t.Errorf("row %d: %v, want %v", i, r.line, want[i])
		}
	}
	if !rows[1].differs || !rows[1].side[0] || rows[1].side[1] || rows[0].differs || !rows[3].side[1] {
		t.Errorf("differs/side: %+v", rows)
	}

	rnd := rand.New(rand.NewSource(7))
	mutate := func(base []string) []string {
		var out []string
		for _, l := range base {
			switch rnd.Intn(8) {
			case 0: // dropped
			case 1:
				out = append(out, l+"'")
			case 2:
				out = append(out, "new", l)
			default:
				out = append(out, l)
			}
		}
		return out
	}
	for n := 0; n < 300; n++ {
		base := make([]string, rnd.Intn(20))
		for i := range base {
			base[i] = string(rune('a' + rnd.Intn(6)))
		}
		texts := [3][]string{mutate(base), base, mutate(base)}
		rows := alignThree(texts[0], texts[1], texts[2])
		for c := range 3 {
			next := 0
			for _, r := range rows {
				if r.line[c] < 0 {
					continue
				}
				if r.line[c] != next {
					t.Fatalf("case %d column %d: line %d where %d was due\n%q\n%+v", n, c, r.line[c], next, texts, rows)
				}
				next++
			}
			if next != len(texts[c]) {
				t.Fatalf("case %d column %d: %d of %d lines shown", n, c, next, len(texts[c]))
			}
		}
		for _, r := range rows {
			if !r.differs && (texts[0][r.line[0]] != texts[1][r.line[1]] || texts[2][r.line[2]] != texts[1][r.line[1]]) {
				t.Fatalf("case %d: a row outside the regions differs: %+v\n%q", n, r, texts)
			}
		}
	}
}

// The three versions of a conflict side by side, and their choices.
func TestShowVersions(t *testing.T) {
	h := newHarness(t, 150, 16)
	h.write("f.txt", "one\nTWO by hand\nthree\n")
	var chose []string
	err := h.tabs.ShowVersions(filepath.Join(h.root, "f.txt"), [3]VersionText{
		{Title: "before the session", Content: []byte("one\ntwo\nthree\n")},
		{Title: "the agent's version", Content: []byte("one\ntwo, the agent's\nthree\n")},
		{Title: "on disk now", Content: []byte("one\nTWO by hand\nthree\n")},
	}, []VersionChoice{
		{Action: ActionVersionsOverwrite, Label: "overwrite with the earlier version", Do: func() { chose = append(chose, "o") }},
		{Action: ActionVersionsKeep, Label: "keep yours", Do: func() { chose = append(chose, "keep") }},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.draw()
	screen := h.text()
	var row string
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "TWO by hand") {
			row = l
		}
	}
	if !strings.Contains(row, "two") || !strings.Contains(row, "two, the agent's") {
		t.Errorf("the three versions of line 2 are not on one row: %q\n%s", row, screen)
	}
	for _, want := range []string{"before the session", "the agent's version", "on disk now", "o: overwrite with the earlier version · Esc: keep yours"} {
		if !strings.Contains(screen, want) {
			t.Errorf("missing %q:\n%s", want, screen)
		}
	}
	h.typeText("x") // not a choice: nothing happens, the view stays
	h.typeText("o")
	h.draw()
	if strings.Join(chose, ",") != "o" || h.tabs.current().versions != nil {
		t.Errorf("o: chose %v, view still shown: %v", chose, h.tabs.current().versions != nil)
	}
}

// A binary version is named, not drawn as text.
func TestShowVersionsBinary(t *testing.T) {
	h := newHarness(t, 150, 10)
	h.write("b.bin", "x")
	err := h.tabs.ShowVersions(filepath.Join(h.root, "b.bin"), [3]VersionText{
		{Title: "earlier", Content: []byte("text\n")},
		{Title: "recorded", Missing: "binary: recorded by hash only"},
		{Title: "on disk", Content: []byte("a\x00b\x00c")},
	}, []VersionChoice{{Action: ActionVersionsKeep, Label: "keep it"}})
	if err != nil {
		t.Fatal(err)
	}
	h.draw()
	if s := h.text(); !strings.Contains(s, "binary, 5 bytes: not shown") || !strings.Contains(s, "recorded by hash only") {
		t.Errorf("binary versions:\n%s", s)
	}
}
