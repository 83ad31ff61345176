package editor

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/ui/theme"
)

var update = flag.Bool("update", false, "rewrite the golden screens in testdata")

// harness is a Tabs on a simulation screen.
type harness struct {
	t      *testing.T
	tabs   *Tabs
	screen tcell.SimulationScreen
	root   string
	redraw chan struct{}
}

func newHarness(t *testing.T, w, h int, opts ...Option) *harness {
	t.Helper()
	root := t.TempDir()
	return newHarnessAt(t, root, w, h, opts...)
}

func newHarnessAt(t *testing.T, root string, w, h int, opts ...Option) *harness {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	hs := &harness{t: t, screen: s, root: root, redraw: make(chan struct{}, 1)}
	opts = append([]Option{WithRedraw(func() {
		select {
		case hs.redraw <- struct{}{}:
		default:
		}
	})}, opts...)
	hs.tabs = New(root, theme.Get("dark"), nil, opts...)
	hs.tabs.SetRect(0, 0, w, h)
	hs.tabs.Focus(func(tview.Primitive) {})
	t.Cleanup(func() {
		hs.tabs.Close()
		s.Fini()
	})
	return hs
}

// write creates a file under the root.
func (h *harness) write(rel, content string) string {
	h.t.Helper()
	p := filepath.Join(h.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *harness) read(rel string) string {
	h.t.Helper()
	data, err := os.ReadFile(filepath.Join(h.root, rel))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(data)
}

func (h *harness) draw() {
	h.screen.Clear()
	h.tabs.Draw(h.screen)
	h.screen.Show()
}

// waitFor draws until cond holds, or fails after a generous deadline.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		h.draw()
		if cond() {
			return
		}
		select {
		case <-h.redraw:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, h.text())
		}
	}
}

// highlighted waits until the active view's visible lines are highlighted.
func (h *harness) highlighted() {
	h.t.Helper()
	h.waitFor("highlighting", func() bool { return h.tabs.current().shown().highlighted() })
}

func (h *harness) key(k tcell.Key, r rune, mod tcell.ModMask) {
	h.tabs.HandleKey(tcell.NewEventKey(k, r, mod))
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		switch r {
		case '\n':
			h.key(tcell.KeyEnter, 0, 0)
		case '\t':
			h.key(tcell.KeyTab, 0, 0)
		default:
			h.key(tcell.KeyRune, r, 0)
		}
	}
}

func (h *harness) ctrl(r rune) {
	h.key(tcell.KeyCtrlA+tcell.Key(r-'a'), 0, tcell.ModCtrl)
}

func (h *harness) alt(r rune) { h.key(tcell.KeyRune, r, tcell.ModAlt) }

func (h *harness) open(rel string, line int) {
	h.t.Helper()
	if err := h.tabs.Open(filepath.Join(h.root, rel), line); err != nil {
		h.t.Fatal(err)
	}
}

// text returns the screen as lines of text.
func (h *harness) text() string {
	cells, w, hh := h.screen.GetContents()
	var sb strings.Builder
	for y := 0; y < hh; y++ {
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				sb.WriteByte(' ')
				continue
			}
			sb.WriteString(string(c.Runes))
			if uniseg.StringWidth(string(c.Runes)) == 2 {
				x++
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// row returns one screen row as text, right spaces trimmed.
func (h *harness) row(y int) string {
	return strings.TrimRight(strings.Split(h.text(), "\n")[y], " ")
}

// dump renders the screen for a golden file: the text, then the same grid
// with one letter per distinct style, then the legend of the letters.
func (h *harness) dump() string {
	cells, w, hh := h.screen.GetContents()
	var sb strings.Builder
	cx, cy, vis := h.screen.GetCursor()
	fmt.Fprintf(&sb, "size %dx%d", w, hh)
	if vis {
		fmt.Fprintf(&sb, ", cursor at column %d row %d", cx, cy)
	}
	sb.WriteString("\n")
	for _, line := range strings.Split(strings.TrimSuffix(h.text(), "\n"), "\n") {
		sb.WriteString("|" + line + "|\n")
	}
	sb.WriteString("-- styles --\n")
	letters := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	index := map[tcell.Style]byte{}
	var legend []string
	for y := 0; y < hh; y++ {
		sb.WriteByte('|')
		for x := 0; x < w; x++ {
			st := cells[y*w+x].Style
			l, ok := index[st]
			if !ok {
				l = '?'
				if len(index) < len(letters) {
					l = letters[len(index)]
				}
				index[st] = l
				legend = append(legend, fmt.Sprintf("%c %s", l, styleName(st)))
			}
			sb.WriteByte(l)
		}
		sb.WriteString("|\n")
	}
	sb.WriteString("-- legend --\n")
	sb.WriteString(strings.Join(legend, "\n"))
	sb.WriteString("\n")
	return sb.String()
}

func styleName(st tcell.Style) string {
	fg, bg, attr := st.Decompose()
	s := "fg=" + colorName(fg) + " bg=" + colorName(bg)
	for _, a := range []struct {
		m    tcell.AttrMask
		name string
	}{{tcell.AttrBold, "bold"}, {tcell.AttrItalic, "italic"}, {tcell.AttrUnderline, "underline"}, {tcell.AttrReverse, "reverse"}, {tcell.AttrDim, "dim"}} {
		if attr&a.m != 0 {
			s += " " + a.name
		}
	}
	return s
}

func colorName(c tcell.Color) string {
	if c == tcell.ColorDefault {
		return "default"
	}
	if c.IsRGB() {
		return fmt.Sprintf("#%06x", c.Hex())
	}
	return c.String()
}

// golden compares the screen with testdata/name.golden (-update rewrites it).
func (h *harness) golden(name string) {
	h.t.Helper()
	got := h.dump()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatalf("%v (run go test -run %s -update to create it)", err, h.t.Name())
	}
	if string(want) != got {
		h.t.Errorf("screen differs from %s (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
