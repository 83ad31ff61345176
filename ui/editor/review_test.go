package editor

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/ui/theme"
)

// Reverting each hunk alone puts back exactly that hunk; reverting all of
// them, one after the other, gives the original bytes back (line breaks,
// BOM and final newline included).
func TestRevertHunkByteExact(t *testing.T) {
	for _, c := range []struct{ name, before, after string }{
		{"crlf, no final newline, change at the end", "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\ni\r\nj", "A\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\ni\r\nJ\r\n"},
		{"bom and lines added", "\ufeffone\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n", "\ufeffzero\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n"},
		{"lines removed", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, hunks := diffDocHunks([]byte(c.before), []byte(c.after), theme.Get(""))
			if len(hunks) != 2 {
				t.Fatalf("%d hunks", len(hunks))
			}
			// The second hunk first, so the first's line numbers still hold.
			cur := []byte(c.after)
			for i := len(hunks) - 1; i >= 0; i-- {
				_, _, _, hs := diffDocHunks([]byte(c.before), cur, theme.Get(""))
				cur = revertHunk([]byte(c.before), cur, hs[len(hs)-1])
				if i == 1 && string(cur) == c.before {
					t.Errorf("reverting one hunk reverted both")
				}
			}
			if string(cur) != c.before {
				t.Errorf("after reverting both hunks:\n got %q\nwant %q", cur, c.before)
			}
		})
	}
}

// A session diff side by side when the editor is wide: old lines on the
// left numbered as before, new ones on the right numbered as after, rows
// aligned with blank fillers; r reverts the hunk under the cursor there
// too; s switches to the unified diff and back; a narrow editor shows the
// unified diff.
func TestSideBySideDiff(t *testing.T) {
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	before := strings.Join(lines, "\r\n") // CRLF, no final newline
	after := strings.Replace(before, "line 3\r\n", "LINE THREE\r\nline 3b\r\n", 1)
	after = strings.Replace(after, "line 20\r\n", "", 1)

	h := newHarness(t, 160, 30)
	h.write("f.txt", after)
	var reverted []byte
	h.tabs.SetOnRevert(func(path string, content []byte, whole bool) { reverted = content })
	if err := h.tabs.ShowDiff(filepath.Join(h.root, "f.txt"), []byte(before), []byte(after), "since the session began"); err != nil {
		t.Fatal(err)
	}
	h.draw()
	tb := h.tabs.current()
	if !tb.splitOn {
		t.Fatalf("a 160-column editor shows the unified diff:\n%s", h.text())
	}
	screen := h.text()
	row := func(sub string) string {
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, sub) {
				return l
			}
		}
		t.Fatalf("no row with %q in\n%s", sub, screen)
		return ""
	}
	// The changed line: old left, new right, on one row.
	if r := row("LINE THREE"); !strings.Contains(r, "line 3") || strings.Index(r, "line 3") > strings.Index(r, "LINE THREE") {
		t.Errorf("the change is not old-left new-right: %q", r)
	}
	// The added line has a filler on the left: only its own text on the row.
	if r := row("line 3b"); strings.Count(r, "line") != 1 {
		t.Errorf("the added line shares its row: %q", r)
	}
	// The removed line is numbered 20 on the left, with a filler right.
	if r := row("line 20"); !strings.Contains(r, "20 line 20") || strings.Count(r, "line") != 1 {
		t.Errorf("the removed line: %q", r)
	}
	if !strings.Contains(screen, "s: unified") {
		t.Errorf("no hint to switch:\n%s", screen)
	}

	// The cursor opens on the first change; r there reverts that hunk only.
	h.typeText("r")
	want := strings.Replace(after, "LINE THREE\r\nline 3b\r\n", "line 3\r\n", 1)
	if string(reverted) != want {
		t.Errorf("r in the side-by-side diff wrote\n%q\nwant\n%q", reverted, want)
	}

	h.typeText("s")
	h.draw()
	if tb.splitOn || !strings.Contains(h.text(), "@@ -1,6 +1,7 @@") {
		t.Fatalf("s did not switch to the unified diff:\n%s", h.text())
	}
	if hk := tb.review.hunkAt(tb.shown().Cursor().Line, false); hk == nil || hk.oldFrom != 0 {
		t.Errorf("the cursor left the first hunk when switching: %+v", hk)
	}
	h.typeText("s")
	h.draw()
	if !tb.splitOn {
		t.Fatal("s did not switch back")
	}

	narrow := newHarness(t, 100, 20)
	narrow.write("f.txt", after)
	narrow.tabs.ShowDiff(filepath.Join(narrow.root, "f.txt"), []byte(before), []byte(after), "since the session began")
	narrow.draw()
	if narrow.tabs.current().splitOn || strings.Contains(narrow.text(), "side by side") {
		t.Errorf("a 100-column editor should show the unified diff, without the hint:\n%s", narrow.text())
	}
}
