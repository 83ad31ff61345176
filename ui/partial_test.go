package ui

import (
	"context"
	"fmt"
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
	a.router.Handle(agent.Event{Type: agent.EventTurnStarted})
	a.router.Handle(agent.Event{Type: agent.EventText, Text: "Partial frames keep the editor."})
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
// frame timer, answer deltas are queued without waking it (the timer's
// wake drains them), so a stream of deltas wakes the loop about once per
// frame rather than once per delta; every delta still reaches the chat,
// the last one included.
func TestDeltasWaitingForAFrameDoNotWakeTheLoop(t *testing.T) {
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
	before := r.app.wakes.Load()
	close(started)
	r.waitScreen("END")
	if woke := r.app.wakes.Load() - before; woke > n/3 {
		t.Errorf("%d deltas woke the loop %d times", n+1, woke)
	}
	text := r.text()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Fatalf("%s is not in the chat:\n%s", w, text)
		}
	}
}
