package chat

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/theme"
)

func TestInputRows(t *testing.T) {
	in := NewInput(darkCtx().Th, ChatKeys(), commands.New())
	cases := []struct {
		text string
		want int
	}{
		{"", 1}, {"hello", 1}, {"a\nb\nc", 3}, {"a\n", 2}, {strings.Repeat("word ", 30), 4},
		{strings.Repeat("x\n", 100), maxInputRows}, {strings.Repeat("y", 1<<20), maxInputRows},
	}
	for _, c := range cases {
		in.SetText(c.text, true)
		if got := in.Rows(40); got != c.want {
			t.Errorf("Rows(%.20q…) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestHintDrawsAsTviewsPlaceholder: the empty input's hint, drawn by Input
// itself, leaves the same cells as tview's own placeholder (a TextView
// built at every frame) at every width fitPlaceholder fits it to; typed
// text replaces it.
func TestHintDrawsAsTviewsPlaceholder(t *testing.T) {
	dark := theme.Get("dark")
	th := &dark
	for _, w := range []int{12, 30, 50, 80} {
		in := NewInput(th, ChatKeys(), nil)
		in.fitPlaceholder(w)
		ref := tview.NewTextArea()
		ref.SetBackgroundColor(th.Background)
		ref.SetTextStyle(tcell.StyleDefault.Foreground(th.Foreground).Background(th.Background))
		ref.SetPlaceholderStyle(in.hintStyle)
		ref.SetPlaceholder(in.hint)
		got, want := simScreen(t, w, 3), simScreen(t, w, 3)
		in.SetRect(0, 0, w, 2)
		in.Draw(got)
		ref.SetRect(0, 0, w, 2)
		ref.Draw(want)
		got.Show()
		want.Show()
		gc, _, _ := got.GetContents()
		wc, _, _ := want.GetContents()
		for i := range gc {
			if string(gc[i].Runes) != string(wc[i].Runes) || gc[i].Style != wc[i].Style {
				t.Fatalf("width %d, cell %d,%d: %q %v, tview's placeholder %q %v\n%s", w, i%w, i/w,
					string(gc[i].Runes), gc[i].Style, string(wc[i].Runes), wc[i].Style, screenText(got))
			}
		}
		if w >= 30 && !strings.Contains(screenText(got), "Ask fawn") {
			t.Fatalf("width %d: no hint:\n%s", w, screenText(got))
		}
	}
	in := NewInput(th, ChatKeys(), nil)
	in.SetText("hello", true)
	s := simScreen(t, 40, 3)
	in.SetRect(0, 0, 40, 2)
	in.Draw(s)
	s.Show()
	if text := screenText(s); strings.Contains(text, "Ask fawn") || !strings.Contains(text, "hello") {
		t.Fatalf("typed text does not replace the hint:\n%s", text)
	}
}

// TestMentionListSaysItIsPartial: while the project is still being listed,
// the @ list shows the best matches found so far and says more may come;
// once the listing is done, the note goes.
func TestMentionListSaysItIsPartial(t *testing.T) {
	dark := theme.Get("dark")
	in := NewInput(&dark, ChatKeys(), nil)
	loading := true
	in.MentionFiles = func(q string) ([]string, bool) { return []string{"src/main.go", "src/main_test.go"}, loading }
	in.SetText("look at @mai", true)
	in.UpdateMentions()
	draw := func() string {
		s := simScreen(t, 60, 12)
		in.drawMentions(s, 0, 11, 60, 10)
		s.Show()
		return screenText(s)
	}
	got := draw()
	if !strings.Contains(got, "@src/main.go") || !strings.Contains(got, "still listing the project's files") {
		t.Fatalf("while listing, the @ list is:\n%s", got)
	}
	loading = false
	in.UpdateMentions()
	got = draw()
	if !strings.Contains(got, "@src/main.go") || strings.Contains(got, "still listing") {
		t.Fatalf("once listed, the @ list is:\n%s", got)
	}
}

// Sending a message that ends in an @-mention closes the @ list with the
// text: it used to stay on screen, over an empty input, until the next key.
func TestSendClosesTheMentionList(t *testing.T) {
	dark := theme.Get("dark")
	in := NewInput(&dark, ChatKeys(), nil)
	in.MentionFiles = func(q string) ([]string, bool) { return []string{"notes.txt"}, false }
	var sent string
	in.OnSubmit = func(text string) { sent = text }
	for _, r := range "summarise @notes.txt" {
		in.InputHandler()(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone), func(tview.Primitive) {})
	}
	if !in.mentioning() {
		t.Fatal("typing @notes.txt did not open the @ list")
	}
	in.InputHandler()(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), func(tview.Primitive) {})
	if sent != "summarise @notes.txt" || in.mentioning() {
		t.Errorf("sent %q; the @ list open after sending: %v", sent, in.mentioning())
	}
}
