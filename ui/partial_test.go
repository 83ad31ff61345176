package ui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
)

// TestChatFramesLeaveTheOtherPanes: a frame asked for by answer text alone
// redraws the chat and the status bar and leaves the other panes' cells
// as they were; anything else asks for a full frame, and so does an
// overlay on the screen.
func TestChatFramesLeaveTheOtherPanes(t *testing.T) {
	a, s := newDrawnApp(t, Options{Root: "/proj"}, 120, 40)
	before := screenText(s)
	if !strings.Contains(before, "No editor.") {
		t.Fatalf("the editor's welcome is not on the first frame:\n%s", before)
	}
	// Answer text, as follow posts it.
	a.task.router.Handle(agent.Event{Type: agent.EventTurnStarted})
	a.task.router.Handle(agent.Event{Type: agent.EventText, Text: "Partial frames keep the editor."})
	a.drawChanged()
	if got := a.partialFrames.Load(); got != 1 {
		t.Fatalf("%d chat-only frames after a text delta, want 1", got)
	}
	text := screenText(s)
	for _, want := range []string{"Partial frames keep the editor.", "No editor.", "Terminal"} {
		if !strings.Contains(text, want) {
			t.Errorf("after a chat-only frame the screen lacks %q:\n%s", want, text)
		}
	}
	// Anything that asked with RequestDraw gets a full frame.
	a.RequestDraw()
	a.drawChanged()
	if got := a.partialFrames.Load(); got != 1 {
		t.Errorf("RequestDraw was followed by a chat-only frame")
	}
	// With an overlay shown, every frame is full.
	a.help.Toggle()
	a.draw()
	a.drawChanged()
	if got := a.partialFrames.Load(); got != 1 {
		t.Errorf("a chat-only frame was drawn under the help overlay")
	}
	a.help.Toggle()
	a.draw()
	if after := screenText(s); !strings.Contains(after, "No editor.") || !strings.Contains(after, "Partial frames keep the editor.") {
		t.Errorf("after the overlay closed the screen is not whole:\n%s", after)
	}
}

// TestStreamedAnswerDrawsChatFrames: a streamed answer in the running app
// is drawn with chat-only frames, and the screen ends whole. (The test
// reads only counters while the answer streams: reading the screen posts
// to the UI goroutine, which asks for full frames.)
func TestStreamedAnswerDrawsChatFrames(t *testing.T) {
	release := make(chan struct{})
	ag := newScriptAgent(func(ctx context.Context, emit func(agent.Event)) {
		for i := 0; ; i++ {
			select {
			case <-release:
				emit(agent.Event{Type: agent.EventText, Text: " THE-END"})
				return
			case <-time.After(5 * time.Millisecond):
			}
			emit(agent.Event{Type: agent.EventText, Text: "word" + strings.Repeat(" ", i%2) + " "})
		}
	})
	r := startApp(t, Options{Agent: ag, Root: "/proj"}, 120, 40)
	r.typeText("go")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "a chat-only frame while the answer streams", func() bool { return r.app.partialFrames.Load() > 0 })
	close(release)
	r.waitScreen("THE-END")
	if text := r.text(); !strings.Contains(text, "No editor.") || !strings.Contains(text, "Terminal") {
		t.Errorf("the other panes are not on the screen after the answer:\n%s", text)
	}
}

// TestDeltasWaitingForAFrameDoNotWakeTheLoop: while the loop waits for its
// frame timer, an answer delta is queued without waking it (the timer's
// wake drains it), so a stream of deltas wakes the loop about once per
// frame rather than once per delta; a delta with no timer set wakes it.
func TestDeltasWaitingForAFrameDoNotWakeTheLoop(t *testing.T) {
	a, _ := newDrawnApp(t, Options{}, 80, 24)
	woken := func() bool {
		select {
		case <-a.wake:
			return true
		default:
			return false
		}
	}
	woken() // what building the app asked for
	a.timerSet.Store(true)
	a.postChat(func() {})
	if woken() {
		t.Error("a delta woke a loop that waits for its frame timer")
	}
	a.timerSet.Store(false)
	a.postChat(func() {})
	if !woken() {
		t.Error("a delta with no frame timer set did not wake the loop")
	}
	a.mu.Lock()
	queued := len(a.inbox)
	a.mu.Unlock()
	if queued != 2 {
		t.Errorf("%d deltas queued, want both", queued)
	}
}

// Every delta of a stream reaches the chat, the last one included, however
// the loop's wakes and frames fall.
func TestEveryStreamedDeltaReachesTheChat(t *testing.T) {
	const n = 150
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("w%03d", i))
	}
	started := make(chan struct{})
	ag := newScriptAgent(func(ctx context.Context, emit func(agent.Event)) {
		<-started
		for _, w := range want {
			emit(agent.Event{Type: agent.EventText, Text: w + " "})
			time.Sleep(time.Millisecond)
		}
		emit(agent.Event{Type: agent.EventText, Text: "END"})
	})
	r := startApp(t, Options{Agent: ag, Root: "/proj"}, 120, 50)
	r.typeText("go")
	r.key(tcell.KeyEnter, 0, 0)
	close(started)
	r.waitScreen("END")
	text := r.text()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Fatalf("%s is not in the chat:\n%s", w, text)
		}
	}
}

// TestChatOnlyFramesDrawWhatFullFramesDraw: a chat-only frame redraws only
// the rows of the list that changed and leaves the rest as the last frame
// drew them. After chains of such frames, each following a random change
// to the chat (answer text with wide characters, new items, a new turn, a
// selection, scrolling away from the bottom and back, the input growing,
// the command popup over the list, a full frame with the focus elsewhere
// or back), the screen is what a full frame draws, cell by cell.
func TestChatOnlyFramesDrawWhatFullFramesDraw(t *testing.T) {
	a, s := newDrawnApp(t, Options{Root: "/proj"}, 100, 30)
	// compare draws a full frame over the chat-only one and fails where
	// the two differ.
	compared := 0
	compare := func(step string) {
		t.Helper()
		got := cellsOf(s)
		a.draw()
		want := cellsOf(s)
		for i := range want {
			if got[i] != want[i] {
				w, _ := s.Size()
				t.Fatalf("%s: after a chat-only frame cell %d,%d is %q, a full frame draws %q\n--- chat-only frame\n%s",
					step, i%w, i/w, got[i], want[i], screenText(s))
			}
		}
		compared++
	}
	chatFrame := func() {
		t.Helper()
		before := a.partialFrames.Load()
		a.drawChanged()
		if a.partialFrames.Load() == before {
			t.Fatal("a full frame where a chat-only one was expected")
		}
	}
	for _, e := range sessionEvents(12) {
		a.task.router.Handle(e)
	}
	a.draw()
	a.task.router.Handle(agent.Event{Type: agent.EventTurnStarted, Text: "explain"})
	for range 30 {
		a.task.router.Handle(agent.Event{Type: agent.EventText, Text: "Some words to fill the chat. "})
	}
	chatFrame()
	// The popup over the list, then gone.
	a.task.input.SetText("/", true)
	a.task.input.UpdateCompletion()
	if !a.task.input.Completing() {
		t.Fatal("no command popup for /")
	}
	chatFrame()
	a.task.input.SetText("", true)
	a.task.input.UpdateCompletion()
	chatFrame()
	compare("after the popup closed")
	// One row up (the tag "more below" on the last row, which the jump
	// scrolling of a streamed answer leaves empty), then back down.
	// The answer ends in two rows alike, so that one row down the last
	// row shows what it showed one row up.
	a.task.router.Handle(agent.Event{Type: agent.EventText, Text: "\n\n```\nsame\nsame\n```\n"})
	for _, back := range []func(){func() { a.task.list.ScrollBy(1) }, a.task.list.ScrollToBottom} {
		a.task.list.ScrollToBottom()
		chatFrame()
		a.task.list.ScrollBy(-1)
		chatFrame()
		if !strings.Contains(screenText(s), "more below") {
			t.Fatal("no tag after scrolling up")
		}
		back()
		chatFrame()
		compare("after scrolling back to the bottom")
	}

	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"word ", "**bold** ", "`code` ", "世界 ", "👩‍💻 ", "\n\n", "- item\n", "```go\nfunc f() {}\n```\n\n", "a-very-long-unbreakable-word ", "é "}
	calls, popups := 0, 0
	for n := range 600 {
		switch k := rng.IntN(100); {
		case k < 70:
			var b strings.Builder
			for range 1 + rng.IntN(6) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			a.task.router.Handle(agent.Event{Type: agent.EventText, Text: b.String()})
		case k < 75:
			id := fmt.Sprintf("t%d", calls)
			calls++
			a.task.router.Handle(agent.Event{Type: agent.EventToolCallStarted, ID: id, Name: "bash"})
			a.task.router.Handle(agent.Event{Type: agent.EventToolCallReady, ID: id, Name: "bash", Args: `{"command":"ls"}`})
			a.task.router.Handle(agent.Event{Type: agent.EventToolRunStarted, ID: id, Name: "bash"})
			a.task.router.Handle(agent.Event{Type: agent.EventToolRunEnded, ID: id, Name: "bash", Result: "a\nb", Duration: time.Millisecond})
		case k < 78:
			a.task.router.Handle(agent.Event{Type: agent.EventTurnEnded})
			a.task.router.Handle(agent.Event{Type: agent.EventTurnStarted, Text: fmt.Sprintf("question %d", n)})
		case k < 84:
			a.task.list.Select(rng.IntN(a.task.list.Len()+1) - 1)
		case k < 90:
			a.task.list.ScrollBy(rng.IntN(21) - 10)
		case k < 93:
			a.task.list.ScrollToBottom()
		case k < 95:
			a.task.input.SetText(strings.Repeat("line\n", rng.IntN(4)), true)
		case k < 97:
			// The focus moves (the borders change colour), drawn with a
			// full frame as the key that moves it is.
			if rng.IntN(2) == 0 {
				a.setFocus(a.task.editor)
			} else {
				a.setFocus(a.task.input)
			}
			a.draw()
		default:
			a.task.input.SetText("/", true)
			a.task.input.UpdateCompletion()
			if a.task.input.Completing() {
				popups++
			}
		}
		before := a.partialFrames.Load()
		a.drawChanged()
		if a.partialFrames.Load() == before || rng.IntN(2) == 0 {
			continue // a full frame, or a chain of chat-only frames goes on
		}
		compare(fmt.Sprintf("step %d", n))
	}
	if compared < 200 || popups == 0 {
		t.Fatalf("only %d chat-only frames compared, %d with the popup", compared, popups)
	}
}

// cellsOf is each cell of the screen: its text and style.
func cellsOf(s tcell.SimulationScreen) []string {
	cells, _, _ := s.GetContents()
	out := make([]string, len(cells))
	for i, c := range cells {
		fg, bg, attr := c.Style.Decompose()
		out[i] = fmt.Sprintf("%s|%v|%v|%v", string(c.Runes), fg, bg, attr)
	}
	return out
}

// countingScreen is a simulation screen that counts the cells handed to it.
type countingScreen struct {
	tcell.SimulationScreen
	puts int
}

func (c *countingScreen) Put(x, y int, str string, style tcell.Style) (string, int) {
	c.puts++
	return c.SimulationScreen.Put(x, y, str, style)
}

// TestStreamingHandsTcellOnlyTheChange: a whole app whose answer grows by a
// word per frame hands the real screen the cells of that word (and the
// spinner's), not the screen: clearing and redrawing everything each frame
// must not reach tcell, which would send every cell that is not blank.
func TestStreamingHandsTcellOnlyTheChange(t *testing.T) {
	real := &countingScreen{SimulationScreen: simScreen(t, 120, 40)}
	a, err := New(Options{Agent: newScriptAgent(), Screen: real, Root: "/proj"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range sessionEvents(40) {
		a.task.router.Handle(e)
	}
	a.task.router.Handle(agent.Event{Type: agent.EventTurnStarted})
	a.task.router.Handle(agent.Event{Type: agent.EventText, Text: "The answer: "})
	a.draw()
	if real.puts < 1000 {
		t.Fatalf("the first frame handed over %d cells; it should paint the screen", real.puts)
	}
	for i := 0; i < 5; i++ {
		real.puts = 0
		a.task.router.Handle(agent.Event{Type: agent.EventText, Text: fmt.Sprintf("word%d ", i)})
		a.draw()
		if real.puts == 0 || real.puts > 40 {
			t.Errorf("frame %d handed tcell %d cells for one word", i, real.puts)
		}
	}
	real.puts = 0
	a.draw()
	if real.puts > 2 {
		t.Errorf("an unchanged frame handed over %d cells", real.puts)
	}
	if !strings.Contains(screenText(real.SimulationScreen), "word3 word4") {
		t.Errorf("the words are not on the screen:\n%s", screenText(real.SimulationScreen))
	}
}
