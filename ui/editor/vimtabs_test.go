package editor

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/ui/theme"
)

func (h *harness) vimKeys(keys string) {
	for _, tok := range vimNotation(keys) {
		h.tabs.HandleKey(tokenEvent(tok))
	}
	h.draw()
}

func (h *harness) status() string { return h.row(19) }

// The mode shows in the editor's status line.
func TestVimModeInStatusLine(t *testing.T) {
	h := newHarness(t, 80, 20, WithVimKeys())
	h.write("f.txt", "foo bar\n")
	h.open("f.txt", 0)
	h.draw()
	for _, step := range []struct{ keys, want string }{
		{"", "-- NORMAL --"},
		{"i", "-- INSERT --"},
		{"<Esc>", "-- NORMAL --"},
		{"v", "-- VISUAL --"},
		{"<Esc>V", "-- VISUAL LINE --"},
		{"<Esc>:", "-- COMMAND --"},
		{"4", ":4"},
		{"<Esc>2d", "2d"},
	} {
		h.vimKeys(step.keys)
		if !strings.Contains(h.status(), step.want) {
			t.Errorf("after %q the status line lacks %q: %q", step.keys, step.want, h.status())
		}
	}
}

// A vim key fawn has not built says so and changes nothing.
func TestVimNotBuiltSaysSo(t *testing.T) {
	for _, c := range []struct{ keys, name string }{
		{"=j", "= (reindent)"}, {":g/a/d<CR>", ":g/a/d not built"}, {":s/a/b/c<CR>", "flags other than g"},
		{"U", "U"}, {"gi", "gi"}, {"dis", "is (text object)"}, {"<C-v>J", "J in visual-block mode"},
		{"/bar/e<CR>", "a search offset (/e)"}, {`"%p`, `"% (register)`}, {"q%", "q% (record into that register)"},
		{"m%", "mark %"}, {"@:", "@: (repeat the command line)"}, {"gqq", "gq (format)"},
	} {
		t.Run(c.keys, func(t *testing.T) {
			h := newHarness(t, 80, 20, WithVimKeys())
			h.write("f.txt", "foo bar\nbaz\n")
			h.open("f.txt", 0)
			v := h.tabs.current().view
			v.cursor = Pos{0, 4}
			h.vimKeys(c.keys)
			if got := string(v.buf.Bytes()); got != "foo bar\nbaz\n" || v.cursor != (Pos{0, 4}) {
				t.Errorf("%q changed the text or moved: %q at %v", c.keys, got, v.cursor)
			}
			if st := h.status(); !strings.Contains(st, c.name) || !strings.Contains(st, "not built") {
				t.Errorf("%q: the status line does not say %q is not built: %q", c.keys, c.name, st)
			}
		})
	}
}

// Ctrl-V is visual block in vim, not the editor's paste.
func TestVimCtrlVDoesNotPaste(t *testing.T) {
	h := newHarness(t, 80, 20, WithVimKeys())
	h.write("f.txt", "foo\n")
	h.open("f.txt", 0)
	h.tabs.clip.set("PASTED")
	h.ctrl('v')
	h.draw()
	if got := string(h.tabs.current().buf.Bytes()); got != "foo\n" {
		t.Errorf("Ctrl-V changed the text: %q", got)
	}
}

// :w writes the file, :q closes its tab, :e opens another, :wq both.
func TestVimCommandLineFiles(t *testing.T) {
	h := newHarness(t, 80, 20, WithVimKeys())
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	h.open("a.txt", 0)
	h.vimKeys("xx:w<CR>")
	if got := h.read("a.txt"); got != "e\n" {
		t.Fatalf(":w wrote %q", got)
	}
	h.vimKeys(":e b.txt<CR>")
	if p := h.tabs.current().path; filepath.Base(p) != "b.txt" {
		t.Fatalf(":e b.txt shows %q", p)
	}
	h.vimKeys("x:wq<CR>")
	if got := h.read("b.txt"); got != "wo\n" {
		t.Fatalf(":wq wrote %q", got)
	}
	if h.tabs.find(filepath.Join(h.root, "b.txt")) != nil {
		t.Fatal(":wq left b.txt open")
	}
	h.open("a.txt", 0)
	h.vimKeys(":q<CR>")
	if h.tabs.find(filepath.Join(h.root, "a.txt")) != nil {
		t.Fatal(":q left a.txt open")
	}
	h.open("a.txt", 0)
	h.vimKeys("x:q<CR>")
	if !strings.Contains(h.text(), "unsaved") {
		t.Errorf(":q on a changed file does not ask:\n%s", h.text())
	}
}

// Without editor.keys: vim the editor keeps its own keys.
func TestVimOffByDefault(t *testing.T) {
	h := newHarness(t, 80, 20)
	h.write("f.txt", "foo\n")
	h.open("f.txt", 0)
	h.vimKeys("dw")
	if got := string(h.tabs.current().buf.Bytes()); got != "dwfoo\n" {
		t.Errorf("standard keys typed %q", got)
	}
	if strings.Contains(h.status(), "NORMAL") {
		t.Errorf("the status line shows a vim mode: %q", h.status())
	}
}

// The visual selection is shown with the view's own selection, whichever
// side of where it started the cursor is (the cursor's own cell shows
// the cursor).
func TestVimVisualShowsSelection(t *testing.T) {
	for _, c := range []struct {
		keys     string
		from, to Pos
	}{
		{"vll", Pos{0, 4}, Pos{0, 6}},
		{"vhh", Pos{0, 2}, Pos{0, 5}},
		{"vj", Pos{0, 4}, Pos{1, 3}}, // onto the line's end, as vim's visual j
	} {
		h := newHarness(t, 80, 20, WithVimKeys())
		h.write("f.txt", "foo bar baz\nqux\n")
		h.open("f.txt", 0)
		v := h.tabs.current().view
		v.cursor = Pos{0, 4}
		h.vimKeys(c.keys)
		from, to, ok := v.Selection()
		if !ok || from != c.from || to != c.to {
			t.Errorf("%q shows %v..%v (%v), want %v..%v", c.keys, from, to, ok, c.from, c.to)
		}
	}
}

// "+ is the editor's clipboard, which goes to the terminal by OSC 52: "+y
// puts the text there, and "+p puts what the standard keys copied.
func TestVimPlusRegisterIsTheClipboard(t *testing.T) {
	h := newHarness(t, 80, 20, WithVimKeys())
	h.write("f.txt", "foo bar\nbaz\n")
	h.open("f.txt", 0)
	h.vimKeys(`"+yy`)
	if h.tabs.clip.text != "foo bar\n" {
		t.Errorf(`"+yy put %q on the clipboard, want the line`, h.tabs.clip.text)
	}
	h.tabs.clip.set("COPIED")
	h.vimKeys(`j"+P`)
	if got := string(h.tabs.current().buf.Bytes()); got != "foo bar\nCOPIEDbaz\n" {
		t.Errorf(`"+P put the wrong text: %q`, got)
	}
}

// A visual block is drawn as a rectangle: the columns between its corners
// on each of its lines, and nothing else.
func TestVimVisualBlockDrawn(t *testing.T) {
	h := newHarness(t, 80, 20, WithVimKeys())
	h.write("f.txt", "abcdef\nghijkl\n")
	h.open("f.txt", 0)
	v := h.tabs.current().view
	v.cursor = Pos{0, 1}
	h.vimKeys("<C-v>jl")
	sel := theme.Get("dark").Selection
	cells, w, _ := h.screen.GetContents()
	found := map[rune]bool{}
	for i, c := range cells {
		if len(c.Runes) != 1 || !strings.ContainsRune("abcdghij", c.Runes[0]) || i%w < 5 {
			continue
		}
		_, bg, _ := c.Style.Decompose()
		want := strings.ContainsRune("bchi", c.Runes[0])
		if (bg == sel) != want {
			t.Errorf("%q selected %v, want %v", c.Runes[0], bg == sel, want)
		}
		found[c.Runes[0]] = true
	}
	if len(found) != 8 {
		t.Fatalf("found %d of the 8 letters on the screen:\n%s", len(found), h.text())
	}
}
