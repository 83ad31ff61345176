package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/theme"
)

// richText has what a frame can show at once: tabs, wide characters, a
// control character, a line longer than any view below, diagnostics and
// find matches.
const richText = "package main\n" +
	"\n" +
	"import \"fmt\"\n" +
	"\n" +
	"func main() {\n" +
	"\tx := \"日本語のテキスト\" // wide\n" +
	"\tfmt.Println(x, \"\x1b[1m\", 42) // control\n" +
	"\tlong := \"alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho\"\n" +
	"\t_ = long\n" +
	"}\n"

// frameDump renders every cell of s with its full style (underline style
// and colour too) and the cursor, so two drawings can be compared cell
// for cell.
func frameDump(s tcell.SimulationScreen) string {
	w, h := s.Size()
	var sb strings.Builder
	if x, y, ok := s.GetCursor(); ok {
		fmt.Fprintf(&sb, "cursor at column %d row %d\n", x, y)
	} else {
		sb.WriteString("no cursor\n")
	}
	letters := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	index := map[string]byte{}
	var legend []string
	var grid strings.Builder
	for y := 0; y < h; y++ {
		sb.WriteByte('|')
		grid.WriteByte('|')
		for x := 0; x < w; x++ {
			str, st, _ := s.Get(x, y)
			if str == "" {
				str = "·"
			}
			sb.WriteString(str)
			name := styleName(st)
			if us := st.GetUnderlineStyle(); us != tcell.UnderlineStyleNone {
				name += fmt.Sprintf(" underline-style=%d underline-colour=%s", us, colorName(st.GetUnderlineColor()))
			}
			l, ok := index[name]
			if !ok {
				l = '?'
				if len(index) < len(letters) {
					l = letters[len(index)]
				}
				index[name] = l
				legend = append(legend, fmt.Sprintf("%c %s", l, name))
			}
			grid.WriteByte(l)
		}
		sb.WriteString("|\n")
		grid.WriteString("|\n")
	}
	return sb.String() + grid.String() + strings.Join(legend, "\n") + "\n"
}

// TestDrawRichFramesCellForCell pins down CodeView.Draw cell for cell over
// frames that use every part of it at once: gutter marks, labels and
// tints of a diff, diagnostics in the gutter and underlined, find
// matches, a selection across lines and line breaks, highlighting, tabs,
// wide and control characters, horizontal scroll with a wide character
// cut at either edge, soft wrap, rows past the end, and the cursor at
// the edges of the text area.
func TestDrawRichFramesCellForCell(t *testing.T) {
	th := theme.Get("dark")
	type frame struct {
		name  string
		w, h  int
		setup func(v *CodeView)
	}
	decorate := func(v *CodeView) {
		d := make([]decor, v.buf.LineCount())
		for i := range d {
			d[i].tint = tcell.ColorDefault
			d[i].fg = tcell.ColorDefault
		}
		d[2] = decor{mark: '+', markColor: th.Added, tint: tcell.ColorDarkGreen, fg: tcell.ColorDefault}
		d[4] = decor{mark: '~', markColor: th.Changed, tint: tcell.ColorDefault, fg: tcell.ColorDefault}
		d[6] = decor{mark: '-', markColor: th.Removed, tint: tcell.ColorDarkRed, label: "-12", hasLabel: true, fg: tcell.ColorDefault}
		d[8] = decor{tint: tcell.ColorDefault, label: "@@", hasLabel: true, fg: tcell.ColorAqua}
		v.setDecor(d, true)
	}
	problems := func(v *CodeView) {
		v.problems = []Problem{
			{Line: 5, Col: 1, EndLine: 5, EndCol: 2, Severity: 1, Message: "unused"},
			{Line: 6, Col: 5, EndLine: 6, EndCol: 12, Severity: 2, Message: "vet"},
			{Line: 7, Col: 10, EndLine: 8, EndCol: 3, Severity: 3, Message: "info"},
		}
	}
	frames := []frame{
		{"plain top", 40, 14, func(v *CodeView) {}},
		{"selection decor problems find", 40, 14, func(v *CodeView) {
			decorate(v)
			problems(v)
			v.findText = "x"
			v.Select(Pos{4, 6}, Pos{7, 3})
		}},
		{"cursor line without selection", 40, 14, func(v *CodeView) {
			problems(v)
			v.SetCursor(Pos{5, 3})
		}},
		{"cursor at the right edge scrolls", 30, 12, func(v *CodeView) {
			problems(v)
			v.findText = "a"
			v.SetCursor(Pos{7, len(v.buf.Line(7))})
		}},
		{"wide character cut by the left edge", 30, 12, func(v *CodeView) {
			v.SetCursor(Pos{5, 10})
			v.pending = nil
			v.left = 11
		}},
		{"wide character cut by the right edge", 18, 10, func(v *CodeView) {
			v.SetCursor(Pos{5, 7})
		}},
		{"selection of a line end past the left edge", 30, 12, func(v *CodeView) {
			v.Select(Pos{5, 0}, Pos{7, 60})
		}},
		{"wrap", 30, 14, func(v *CodeView) {
			decorate(v)
			problems(v)
			v.findText = "eta"
			v.SetWrap(true)
			v.Select(Pos{7, 20}, Pos{7, 50})
		}},
		{"wrap cursor at the end of a wrapped line", 30, 14, func(v *CodeView) {
			v.SetWrap(true)
			v.SetCursor(Pos{7, len(v.buf.Line(7))})
		}},
		{"wrap scrolled into a line", 30, 6, func(v *CodeView) {
			v.SetWrap(true)
			v.SetCursor(Pos{8, 0})
		}},
		{"unfocused", 40, 14, func(v *CodeView) {
			decorate(v)
			v.SetCursor(Pos{4, 2})
			v.focused = func() bool { return false }
		}},
		{"no gutter", 30, 12, func(v *CodeView) {
			v.noGutter = true
			v.SetWrap(true)
			v.SetCursor(Pos{9, 1})
		}},
		{"gutter wider than the view", 4, 5, func(v *CodeView) {}},
	}
	var out strings.Builder
	for _, f := range frames {
		s := tcell.NewSimulationScreen("UTF-8")
		if err := s.Init(); err != nil {
			t.Fatal(err)
		}
		s.SetSize(f.w, f.h)
		v := NewCodeView(NewBuffer([]byte(richText)), "main.go", th, nil)
		v.SetRect(0, 0, f.w, f.h)
		v.Focus(func(tview.Primitive) {})
		v.SetCursor(Pos{})
		f.setup(v)
		deadline := time.Now().Add(20 * time.Second)
		for {
			s.Clear()
			v.Draw(s)
			if v.highlighted() {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: highlighting never arrived", f.name)
			}
			time.Sleep(5 * time.Millisecond)
		}
		s.Clear()
		v.Draw(s)
		s.Show()
		fmt.Fprintf(&out, "== %s (%dx%d)\n%s", f.name, f.w, f.h, frameDump(s))
		v.Close()
		s.Fini()
	}
	got := out.String()
	path := filepath.Join("testdata", "rich_frames.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("frames differ from %s (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
