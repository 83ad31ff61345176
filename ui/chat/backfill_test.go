package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/session"
)

// uiLoop is a BackfillHost whose UI goroutine is the test's: QueueUpdate's
// functions wait in updates until the test runs them.
type uiLoop struct{ updates chan func() }

func newUILoop() *uiLoop               { return &uiLoop{updates: make(chan func(), 4)} }
func (u *uiLoop) Go(f func())          { go f() }
func (u *uiLoop) QueueUpdate(f func()) { u.updates <- f }

// next is the next update, waited for.
func (u *uiLoop) next(t *testing.T) func() {
	t.Helper()
	select {
	case f := <-u.updates:
		return f
	case <-t.Context().Done():
		t.Fatal("no update came")
		return nil
	}
}

// lazySession writes a session of n messages (a prompt, a call, its
// result, an answer), then an answer LAST-ANSWER, and opens it lazily.
func lazySession(t *testing.T, n int) (*session.Log, *session.Store, string) {
	t.Helper()
	st, err := session.New(t.TempDir(), t.TempDir(), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := st.Create(session.Record{})
	if err != nil {
		t.Fatal(err)
	}
	var recs []session.Record
	for i := range n {
		var m session.Message
		switch i % 4 {
		case 0:
			m = session.Message{Role: "user", Content: fmt.Sprintf("PROMPT-%d", i)}
		case 1:
			m = session.Message{Role: "assistant", ToolCalls: []session.ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: "bash", Arguments: `{"command":"true"}`}}}
		case 2:
			m = session.Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", i-1), ToolName: "bash", Content: fmt.Sprintf("OUTPUT-%d\nexit code 0", i)}
		case 3:
			m = session.Message{Role: "assistant", Content: fmt.Sprintf("ANSWER-%d", i)}
		}
		recs = append(recs, session.Record{Type: session.TypeMessage, N: session.Of(i), Message: &m})
	}
	recs = append(recs, session.Record{Type: session.TypeMessage, N: session.Of(n), Message: &session.Message{Role: "assistant", Content: "LAST-ANSWER"}})
	if err := w.Append(recs...); err != nil {
		t.Fatal(err)
	}
	w.Close()
	l, w2, err := st.OpenLazy(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	if !l.Partial() {
		t.Fatal("the session was read whole")
	}
	return l, st, w.ID()
}

// A lazily resumed chat: the first frame shows its end; the older items
// come above once it is drawn, the view does not move, the top shows the
// first prompt, and the chat holds every item a whole read makes (a card
// whose call is older than the first frame's entries has its result).
func TestBackfillPutsTheOlderChatAboveWithoutMovingTheView(t *testing.T) {
	// 1,002 messages: the entries read first (the last 200) begin with a
	// call's result.
	l, st, id := lazySession(t, 1001)
	if m := l.Transcript[0].Message; m == nil || m.ToolCallID != "call_801" {
		t.Fatalf("the entries read first begin with %+v", l.Transcript[0])
	}
	reg := NewRegistry()
	list := NewMessageList(darkCtx(), MessageKeys())
	for _, it := range Transcript(reg, l, nil) {
		list.Append(it)
	}
	ui := newUILoop()
	var loaded *session.Log
	Backfill(ui, list, reg, l, nil, func(full *session.Log, ok bool) {
		if !ok {
			t.Error("the whole transcript does not end with what was shown")
		}
		loaded = full
	})
	shown := list.Len()
	s := simScreen(t, 60, 20)
	list.SetRect(0, 0, 60, 20)
	list.Draw(s)
	s.Show()
	if !strings.Contains(screenText(s), "LAST-ANSWER") {
		t.Fatalf("the first frame does not show the last answer:\n%s", screenText(s))
	}
	// The user scrolls up before the rest is read.
	list.ScrollBy(-7)
	list.Draw(s)
	s.Show()
	before := screenText(s)
	ui.next(t)()
	list.Draw(s)
	s.Show()
	if got := screenText(s); got != before {
		t.Errorf("the older items moved the view:\n--- before\n%s\n--- after\n%s", before, got)
	}
	full, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if loaded == nil || len(loaded.Transcript) != len(full.Transcript) {
		t.Fatalf("loaded with %v", loaded)
	}
	whole := Transcript(reg, full, nil)
	if list.Len() != len(whole) || list.Len() <= shown {
		t.Fatalf("the chat has %d items, %d first; a whole read makes %d", list.Len(), shown, len(whole))
	}
	for i := range whole {
		if a, b := whole[i].CopyText(), list.Item(i).CopyText(); a != b {
			t.Fatalf("item %d is %q, want %q", i, b, a)
		}
	}
	found := false
	for i := range list.Len() {
		if c, ok := list.Item(i).(*Card); ok && c.ID == "call_801" {
			found = true
			if c.Status != StatusDone || !strings.Contains(c.Result, "OUTPUT-802") {
				t.Errorf("the card of call_801: %v %q", c.Status, c.Result)
			}
		}
	}
	if !found {
		t.Error("no card of call_801")
	}
	list.ScrollToTop()
	list.Draw(s)
	s.Show()
	if !strings.Contains(screenText(s), "PROMPT-0") {
		t.Errorf("the top does not show the first prompt:\n%s", screenText(s))
	}
}

// The user goes to the top before the earlier messages are read: the
// notice says they are being read, and they come in its place, the first
// prompt at the top.
func TestBackfillAtTheTopShowsTheFirstMessageWhenRead(t *testing.T) {
	l, _, _ := lazySession(t, 1001)
	reg := NewRegistry()
	list := NewMessageList(darkCtx(), MessageKeys())
	for _, it := range Transcript(reg, l, nil) {
		list.Append(it)
	}
	ui := newUILoop()
	Backfill(ui, list, reg, l, nil, nil)
	s := simScreen(t, 60, 20)
	list.SetRect(0, 0, 60, 20)
	list.Draw(s)
	list.ScrollToTop()
	list.Select(0)
	list.Draw(s)
	s.Show()
	if got := screenText(s); !strings.Contains(got, "reading the earlier messages") || strings.Contains(got, "PROMPT-0") {
		t.Fatalf("the top before the earlier messages are read:\n%s", got)
	}
	ui.next(t)()
	list.Draw(s)
	s.Show()
	if got := screenText(s); !strings.Contains(got, "PROMPT-0") || strings.Contains(got, "reading the earlier") {
		t.Errorf("the top once they are read:\n%s", got)
	}
	if u, ok := list.Selected().(*User); !ok || u.Text != "PROMPT-0" {
		t.Errorf("selected %#v", list.Selected())
	}
}

// Another session shown (the list cleared) before the older items came:
// they are not put into it.
func TestBackfillLeavesAClearedListAlone(t *testing.T) {
	l, _, _ := lazySession(t, 600)
	reg := NewRegistry()
	list := NewMessageList(darkCtx(), MessageKeys())
	for _, it := range Transcript(reg, l, nil) {
		list.Append(it)
	}
	ui := newUILoop()
	Backfill(ui, list, reg, l, nil, func(*session.Log, bool) { t.Error("loaded into a list cleared since") })
	s := simScreen(t, 60, 20)
	list.SetRect(0, 0, 60, 20)
	list.Draw(s)
	update := ui.next(t)
	list.Clear()
	list.Append(&Notice{Kind: NoticeInfo, Text: "another session"})
	update()
	if list.Len() != 1 {
		t.Errorf("the cleared list has %d items", list.Len())
	}
}

// Prepending keeps what the view shows, following or not, and the
// selection on its item.
func TestMessageListPrependKeepsTheView(t *testing.T) {
	for _, follow := range []bool{true, false} {
		l, renders, s := newTestList(t, 300)
		l.Draw(s)
		if !follow {
			l.ScrollBy(-40)
			l.Select(250)
		}
		l.Draw(s)
		s.Show()
		before, sel := screenText(s), l.Selected()
		var older []Item
		for i := range 50 {
			older = append(older, &countingItem{text: fmt.Sprintf("older %d", i), renders: renders})
		}
		l.Prepend(older)
		l.Draw(s)
		s.Show()
		if got := screenText(s); got != before {
			t.Errorf("follow %v: the view moved:\n--- before\n%s\n--- after\n%s", follow, before, got)
		}
		if l.Selected() != sel || l.Following() != follow {
			t.Errorf("follow %v: selection %v (was %v), following %v", follow, l.Selected(), sel, l.Following())
		}
		if l.Len() != 350 || l.Item(0).CopyText() != "older 0" {
			t.Errorf("follow %v: %d items, first %q", follow, l.Len(), l.Item(0).CopyText())
		}
	}
}
