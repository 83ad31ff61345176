package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/chat"
)

// The chat shown again after a rewind of a long session: the frame after
// the reload holds the last entries of the rewound conversation, not the
// whole session (a whole read there would hold the screen still); the
// older ones come above them, and then the chat is item for item what a
// whole read shows, the notice after the reload still under them.
func TestReloadChatShowsTheEndFirstAndTheRestAfter(t *testing.T) {
	st, err := session.New(t.TempDir(), t.TempDir(), session.Options{Fawn: "test"})
	if err != nil {
		t.Fatal(err)
	}
	k := keeper{st}
	w, err := st.Create(session.Record{ID: k.ID()})
	if err != nil {
		t.Fatal(err)
	}
	var recs []session.Record
	for i := range 2000 {
		var m session.Message
		switch i % 4 {
		case 0:
			m = session.Message{Role: "user", Content: fmt.Sprintf("PROMPT-%d", i)}
		case 1:
			m = session.Message{Role: "assistant", ToolCalls: []session.ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: "bash", Arguments: `{"command":"true"}`}}}
		case 2:
			m = session.Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", i-1), ToolName: "bash", Content: fmt.Sprintf("OUTPUT-%d", i)}
		case 3:
			m = session.Message{Role: "assistant", Content: fmt.Sprintf("ANSWER-%d", i)}
		}
		recs = append(recs, session.Record{Type: session.TypeMessage, N: session.Of(i), Message: &m})
		if i%4 == 3 {
			recs = append(recs, session.Record{Type: session.TypeTurn, Usage: &session.Usage{Input: i, Output: 1}})
		}
	}
	// The rewind: back to before PROMPT-1996.
	recs = append(recs, session.Record{Type: session.TypeTruncate, Keep: session.Of(1996)})
	if err := w.Append(recs...); err != nil {
		t.Fatal(err)
	}
	defer w.Close() // the session stays open, as the task's is
	full, err := st.Load(k.ID())
	if err != nil {
		t.Fatal(err)
	}

	r := startApp(t, Options{Agent: newScriptAgent(), Services: backend.Services{Sessions: k}}, 100, 30)
	var whole []chat.Item
	first := 0
	r.onUI(func() {
		tk := r.app.task
		whole = chat.Transcript(tk.router.Reg, full, nil)
		tk.reloadChat()
		tk.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: "AFTER-THE-RELOAD"})
		first = tk.list.Len()
	})
	if first >= len(whole) {
		t.Fatalf("the chat after the reload has %d items, a whole read's %d: it was read whole before the next frame", first, len(whole))
	}
	r.waitScreen("ANSWER-1995")
	r.waitScreen("AFTER-THE-RELOAD")
	waitFor(t, "the older entries", func() bool {
		n := 0
		r.onUI(func() { n = r.app.task.list.Len() })
		return n == len(whole)+1
	})
	r.onUI(func() {
		list := r.app.task.list
		for i, it := range whole {
			if a, b := it.CopyText(), list.Item(i).CopyText(); a != b {
				t.Fatalf("item %d is %q, a whole read's %q", i, b, a)
			}
		}
		if n, ok := list.Item(len(whole)).(*chat.Notice); !ok || n.Text != "AFTER-THE-RELOAD" {
			t.Errorf("the last item is %#v", list.Item(len(whole)))
		}
	})
	if got := r.text(); !strings.Contains(got, "ANSWER-1995") {
		t.Errorf("the view moved from the chat's end:\n%s", got)
	}
}
