package picker

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/theme"
)

func screenText(t *testing.T, p *Picker, w, h int) string {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(w, h)
	p.SetRect(0, 0, w, h)
	p.Draw(s)
	s.Show()
	cells, cw, ch := s.GetContents()
	var b strings.Builder
	for y := 0; y < ch; y++ {
		for x := 0; x < cw; x++ {
			r := cells[y*cw+x].Runes
			if len(r) == 0 {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(string(r))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func key(p *Picker, k tcell.Key, r rune) { p.HandleKey(tcell.NewEventKey(k, r, tcell.ModNone)) }

func typeText(p *Picker, s string) {
	for _, r := range s {
		key(p, tcell.KeyRune, r)
	}
}

func labels(items []Item) string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return strings.Join(out, " ")
}

func TestPickerFiltersAndPicks(t *testing.T) {
	th := theme.Get("dark")
	items := []Item{{Label: "gpt-4o", Detail: "openai"}, {Label: "claude-sonnet-4-5", Detail: "anthropic", Current: true}, {Label: "qwen2.5-coder", Detail: "ollama"}}
	p := New(&th, "Model", items)
	if it, _ := p.Selected(); it.Label != "claude-sonnet-4-5" {
		t.Errorf("the current item is not selected at first: %q", it.Label)
	}
	text := screenText(t, p, 80, 20)
	for _, want := range []string{"Model", "● claude-sonnet-4-5", "anthropic", "gpt-4o", "3/3"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
	typeText(p, "qc")
	if got := labels(p.Shown()); got != "qwen2.5-coder" {
		t.Errorf("qc shows %q", got)
	}
	key(p, tcell.KeyBackspace2, 0)
	key(p, tcell.KeyBackspace2, 0)
	typeText(p, "o")
	if got := labels(p.Shown()); !strings.Contains(got, "gpt-4o") || !strings.Contains(got, "qwen2.5-coder") {
		t.Errorf("o shows %q", got)
	}
	var picked []string
	p.OnPick = func(it Item) { picked = append(picked, it.Label) }
	key(p, tcell.KeyUp, 0) // stays at the top
	key(p, tcell.KeyEnter, 0)
	if len(picked) != 1 || picked[0] != p.Shown()[0].Label || p.Open() {
		t.Errorf("Enter picked %q, open %v", picked, p.Open())
	}

	q := New(&th, "Model", items)
	cancelled := false
	q.OnCancel = func() { cancelled = true }
	q.OnPick = func(Item) { t.Error("Esc picked") }
	key(q, tcell.KeyEscape, 0)
	if !cancelled || q.Open() {
		t.Error("Esc did not cancel")
	}
}

func TestPickerKeepsTheSelectionWhenItemsArrive(t *testing.T) {
	th := theme.Get("light")
	p := New(&th, "Model", []Item{{Label: "a"}, {Label: "b"}})
	p.SetLoading(true)
	key(p, tcell.KeyDown, 0)
	if text := screenText(t, p, 60, 12); !strings.Contains(text, "2/2 …") {
		t.Errorf("loading is not shown:\n%s", text)
	}
	p.SetItems([]Item{{Label: "a"}, {Label: "b"}, {Label: "c"}})
	if it, _ := p.Selected(); it.Label != "b" {
		t.Errorf("selection moved to %q", it.Label)
	}
	p.SetNote("the server lists no models")
	if text := screenText(t, p, 60, 12); !strings.Contains(text, "the server lists no models") {
		t.Errorf("the note is not shown:\n%s", text)
	}
}

func TestPickerMouseAndTinyScreens(t *testing.T) {
	th := theme.Get("dark")
	var many []Item
	for i := 0; i < 50; i++ {
		many = append(many, Item{Label: strings.Repeat("x", i%7+1) + string(rune('a'+i%26)), Detail: strings.Repeat("d", 80)})
	}
	p := New(&th, "Many", many)
	for _, size := range [][2]int{{80, 24}, {20, 5}, {5, 3}, {200, 60}} {
		screenText(t, p, size[0], size[1]) // must not panic
	}
	screenText(t, p, 80, 24)
	var picked string
	p.OnPick = func(it Item) { picked = it.Label }
	ev := tcell.NewEventMouse(10, p.listY+2, tcell.Button1, tcell.ModNone)
	p.MouseHandler()(tview.MouseLeftClick, ev, nil)
	if picked != many[2].Label {
		t.Errorf("a click on the third row picked %q", picked)
	}
}

func TestPickerDrawsHostileTextSafely(t *testing.T) {
	th := theme.Get("dark")
	p := New(&th, "Model", []Item{{Label: "evil\x1b[2Jmodel", Detail: "\x07bell"}})
	if s := screenText(t, p, 60, 10); strings.ContainsAny(s, "\x1b\x07") || !strings.Contains(s, "evil␛[2Jmodel") || !strings.Contains(s, "␇bell") {
		t.Errorf("%q", s)
	}
}

// The picker's keys are a table the user's bindings rebind: bound to
// Ctrl-J, picker.down moves with Ctrl-J and no longer with Down.
func TestPickerKeysAreRebindable(t *testing.T) {
	th := theme.Get("dark")
	items := []Item{{Label: "one"}, {Label: "two"}, {Label: "three"}}
	keys := DefaultKeys()
	if unknown, err := keys.Override(map[string][]string{"picker.down": {"ctrl+j"}}); err != nil || len(unknown) > 0 {
		t.Fatalf("override: %v %v", unknown, err)
	}
	p := New(&th, "Pick", items)
	p.SetKeys(keys)
	key(p, tcell.KeyDown, 0)
	if it, _ := p.Selected(); it.Label != "one" {
		t.Errorf("Down still moves once rebound: %q", it.Label)
	}
	key(p, tcell.KeyCtrlJ, 0)
	if it, _ := p.Selected(); it.Label != "two" {
		t.Errorf("Ctrl-J does not move down: %q", it.Label)
	}
}
