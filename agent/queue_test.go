package agent

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// An event reaches a reader that keeps up in the producer's own goroutine:
// with room in the channel, push puts it there, with no goroutine between
// (forward is not running here).
func TestQueueSendsAtOnceWhileTheReaderKeepsUp(t *testing.T) {
	out := make(chan Event, 4)
	q := newQueue(out)
	for _, s := range []string{"a", "b", "c"} {
		q.push(Event{Type: EventText, Text: s})
	}
	for _, want := range []string{"a", "b", "c"} {
		select {
		case ev := <-out:
			if ev.Text != want {
				t.Fatalf("got %q, want %q", ev.Text, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q never reached the channel without forward", want)
		}
	}
}

// Whatever the reader's pace, every event arrives once and in order, and
// the deltas joined while it lagged make the same text: nothing dropped,
// doubled or moved past another event.
func TestQueueKeepsEveryEventInOrder(t *testing.T) {
	out := make(chan Event, 2) // small: the reader falls behind often
	q := newQueue(out)
	go q.forward()
	const n = 3000
	var wantText, wantArgsA, wantArgsB strings.Builder
	go func() {
		for i := range n {
			d := fmt.Sprintf("t%d,", i)
			q.push(Event{Type: EventText, Text: d})
			wantText.WriteString(d)
			switch i % 7 {
			case 0:
				q.push(Event{Type: EventInfo, Text: fmt.Sprint(i)})
			case 3:
				q.push(Event{Type: EventToolArgs, ID: "a", Text: fmt.Sprintf("a%d,", i)})
				wantArgsA.WriteString(fmt.Sprintf("a%d,", i))
				q.push(Event{Type: EventToolArgs, ID: "b", Text: fmt.Sprintf("b%d,", i)})
				wantArgsB.WriteString(fmt.Sprintf("b%d,", i))
			}
		}
		q.close()
	}()
	var text, argsA, argsB strings.Builder
	infos, events := 0, 0
	for ev := range out {
		if events++; events%8 == 0 {
			time.Sleep(20 * time.Microsecond) // a reader that lags now and then
		}
		switch ev.Type {
		case EventText:
			text.WriteString(ev.Text)
		case EventToolArgs:
			if ev.ID == "a" {
				argsA.WriteString(ev.Text)
			} else {
				argsB.WriteString(ev.Text)
			}
		case EventInfo:
			// Every info follows the text delta of its step, and no later one.
			if want := fmt.Sprintf("t%s,", ev.Text); !strings.HasSuffix(text.String(), want) {
				t.Fatalf("info %s arrived after text ending %q", ev.Text, text.String()[max(0, text.Len()-20):])
			}
			infos++
		}
	}
	if text.String() != wantText.String() || argsA.String() != wantArgsA.String() || argsB.String() != wantArgsB.String() {
		t.Errorf("the text or arguments differ from what was pushed (%d/%d text bytes)", text.Len(), wantText.Len())
	}
	if infos != (n+6)/7 {
		t.Errorf("%d infos, want %d", infos, (n+6)/7)
	}
}
