package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/render"
)

// countingItem is a plain item that counts its renders.
type countingItem struct {
	text    string
	renders *int
	ver     uint64
}

func (c *countingItem) rev(*Ctx) uint64 { return c.ver }
func (c *countingItem) Render(rc *Ctx, width int) []render.Line {
	*c.renders++
	return render.WrapText(c.text, rc.style(), width, nil, nil)
}
func (c *countingItem) CopyText() string { return c.text }

func newTestList(t *testing.T, n int) (*MessageList, *int, tcell.SimulationScreen) {
	renders := new(int)
	l := NewMessageList(darkCtx(), MessageKeys())
	for i := 0; i < n; i++ {
		l.Append(&countingItem{text: fmt.Sprintf("message %d: %s", i, strings.Repeat("word ", i%13)), renders: renders})
	}
	s := simScreen(t, 60, 20)
	l.SetRect(0, 0, 60, 20)
	return l, renders, s
}

func TestMessageListRendersOnlyWhatShows(t *testing.T) {
	l, renders, s := newTestList(t, 1000)
	l.Draw(s)
	s.Show()
	if *renders > 30 {
		t.Errorf("the first draw rendered %d of 1000 items; only those in view should be", *renders)
	}
	if !strings.Contains(screenText(s), "message 999") {
		t.Errorf("the list does not start at the bottom:\n%s", screenText(s))
	}
	*renders = 0
	l.Draw(s)
	if *renders != 0 {
		t.Errorf("a redraw re-rendered %d items; the cache should serve them", *renders)
	}
	// A width change re-wraps only what shows.
	l.SetRect(0, 0, 45, 20)
	*renders = 0
	l.Draw(s)
	if *renders == 0 || *renders > 30 {
		t.Errorf("a width change re-rendered %d items", *renders)
	}
}

func TestMessageListScrolling(t *testing.T) {
	l, _, s := newTestList(t, 200)
	l.Draw(s)
	l.ScrollBy(-50)
	if l.Following() {
		t.Fatal("scrolling up should stop following")
	}
	l.Draw(s)
	s.Show()
	before := screenText(s)
	// New items arrive while the user reads older ones: the view stays put.
	renders := 0
	l.Append(&countingItem{text: "NEW ITEM", renders: &renders})
	l.Draw(s)
	s.Show()
	if screenText(s) != before {
		t.Error("an appended item moved the view the user scrolled to")
	}
	// Scrolling back down reaches the bottom and follows again.
	for i := 0; i < 20 && !l.Following(); i++ {
		l.ScrollBy(10)
	}
	if !l.Following() {
		t.Fatal("scrolling to the end does not follow again")
	}
	l.Draw(s)
	s.Show()
	if !strings.Contains(screenText(s), "NEW ITEM") {
		t.Error("the bottom does not show the newest item")
	}
	l.ScrollToTop()
	l.Draw(s)
	s.Show()
	if !strings.HasPrefix(strings.TrimSpace(screenText(s)), "message 0:") {
		t.Errorf("the top does not show the first item:\n%s", screenText(s))
	}
	// Selecting the last item from the top scrolls it into view.
	l.Select(l.Len() - 1)
	l.Draw(s)
	s.Show()
	if !strings.Contains(screenText(s), "NEW ITEM") {
		t.Error("selecting an item does not scroll it into view")
	}
	// The wheel scrolls.
	l.ScrollToBottom()
	l.Draw(s)
	l.MouseHandler()(tview.MouseScrollUp, tcell.NewEventMouse(5, 5, tcell.WheelUp, 0), nil)
	if l.Following() {
		t.Error("the wheel did not scroll up")
	}
}

func TestMessageListSelectionBar(t *testing.T) {
	l, _, s := newTestList(t, 5)
	l.Select(2)
	l.Draw(s)
	s.Show()
	_, y := findText(s, "message 2")
	if c, st := cellAt(s, 0, y); c != "▌" || fgOf(st) != l.ctx.Th.Accent {
		t.Errorf("the selected item has no bar: %q", c)
	}
	_, y = findText(s, "message 3")
	if c, _ := cellAt(s, 0, y); c == "▌" {
		t.Error("an unselected item has the bar")
	}
}

// TestFollowingJumpsInsteadOfScrollingEachLine: while an answer grows at the
// bottom, the rows already on screen stay put until the list is full; then
// the view jumps so the newest row is a quarter of the way down, and when
// the stream ends (Settle) the last row goes back to the bottom.
func TestFollowingJumpsInsteadOfScrollingEachLine(t *testing.T) {
	s := simScreen(t, 60, 20)
	l := NewMessageList(darkCtx(), MessageKeys())
	l.SetRect(0, 0, 60, 20)
	it := &countingItem{renders: new(int)}
	l.Append(it)
	rowOf := func(text string) int {
		for i, line := range screenLines(s) {
			if strings.Contains(line, text) {
				return i
			}
		}
		return -1
	}
	var lines []string
	grow := func(n int) {
		for range n {
			lines = append(lines, fmt.Sprintf("line %d", len(lines)))
		}
		it.text = strings.Join(lines, "\n")
		it.ver++
		s.Clear()
		l.Draw(s)
		s.Show()
	}
	grow(5)
	if rowOf("line 0") != 0 {
		t.Fatalf("a short list does not start at the top:\n%s", screenText(s))
	}
	grow(14) // 19 rows: still fits
	first := rowOf("line 5")
	grow(1) // 20 rows fill the view exactly
	if rowOf("line 5") != first {
		t.Errorf("rows moved before the view was full:\n%s", screenText(s))
	}
	grow(1) // the 21st row does not fit: jump
	if r := rowOf("line 20"); r != 20-1-15 {
		t.Errorf("after the jump the newest row is on row %d, want %d:\n%s", r, 4, screenText(s))
	}
	grow(3) // these fit below without moving anything
	if r := rowOf("line 20"); r != 4 {
		t.Errorf("rows moved while there was room below:\n%s", screenText(s))
	}
	l.Settle()
	s.Clear()
	l.Draw(s)
	s.Show()
	if r := rowOf("line 23"); r != 19 {
		t.Errorf("after Settle the last row is on row %d, want the bottom:\n%s", r, screenText(s))
	}
}

// An item added whole to a full, following list (a notice arriving after a
// resumed session opened) shows at the bottom, with the rows before it
// above: not a quarter of the way down an otherwise empty view.
func TestAppendedItemShowsAtTheBottom(t *testing.T) {
	s := simScreen(t, 60, 20)
	l := NewMessageList(darkCtx(), MessageKeys())
	l.SetRect(0, 0, 60, 20)
	for i := range 40 {
		l.Append(&Notice{Kind: NoticeInfo, Text: fmt.Sprintf("item %d", i)})
	}
	l.ScrollToBottom()
	l.Draw(s)
	l.Append(&Notice{Kind: NoticeInfo, Text: "late notice"})
	s.Clear()
	l.Draw(s)
	s.Show()
	rows := screenLines(s)
	if !strings.Contains(rows[19], "late notice") || !strings.Contains(rows[1], "item") {
		t.Errorf("the appended item is not at the bottom of a full view:\n%s", screenText(s))
	}
}

// A long session's list keeps the rendered lines of about a screen, not
// of every item it showed: scrolling through 1,000 items leaves at most
// maxWarm entries holding lines (and answers drop their Markdown's), and
// an item scrolled back into view renders again.
func TestMessageListKeepsTheLinesOfAScreen(t *testing.T) {
	l, renders, s := newTestList(t, 1000)
	answer := &assistantItem{}
	answer.append("An **answer** far back.")
	l.entries = append([]*entry{{item: answer}}, l.entries...)
	l.ScrollToTop()
	l.Draw(s)
	if answer.md.out == nil {
		t.Fatal("the answer at the top was not rendered")
	}
	for range 120 {
		l.ScrollPages(1)
		l.Draw(s)
	}
	warm := 0
	for _, e := range l.entries {
		if e.valid || e.lines != nil {
			warm++
		}
	}
	if warm > maxWarm {
		t.Errorf("%d entries keep their lines after a scroll through 1,000; want at most %d", warm, maxWarm)
	}
	if answer.md.out != nil {
		t.Error("the answer far out of view keeps its rendered Markdown")
	}
	*renders = 0
	l.ScrollToTop()
	l.Draw(s)
	s.Show()
	if *renders == 0 || !strings.Contains(screenText(s), "answer far back") {
		t.Errorf("scrolled back to the top: %d renders, screen:\n%s", *renders, screenText(s))
	}
}

// A finished card far out of view lets its decoded arguments go with its
// lines (a long session keeps thousands of cards) and shows them again
// when scrolled back.
func TestFinishedCardLetsItsArgumentsGoOutOfView(t *testing.T) {
	l, _, s := newTestList(t, 1000)
	card := cardFrom(NewRegistry(), "1", "bash", ready(`{"command":"seq 1 30000"}`), started(), ended("exit code 0", false, time.Second))
	l.entries = append([]*entry{{item: card}}, l.entries...)
	l.ScrollToTop()
	l.Draw(s)
	if card.args == nil {
		t.Fatal("the card at the top was drawn without its arguments")
	}
	for range 120 {
		l.ScrollPages(1)
		l.Draw(s)
	}
	if card.args != nil {
		t.Error("the card far out of view keeps its decoded arguments")
	}
	l.ScrollToTop()
	l.Draw(s)
	s.Show()
	if !strings.Contains(screenText(s), "$ seq 1 30000") {
		t.Errorf("scrolled back to the top, the card lacks its command:\n%s", screenText(s))
	}
}
