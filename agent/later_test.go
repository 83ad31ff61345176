package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// longSession writes a session of n messages of a coding session (a
// prompt, a call, its result, an answer), compacted after message compactAt
// (none when negative), and returns its ID. end, when set, is added last.
func longSession(t *testing.T, st *session.Store, n, compactAt int, end ...session.Record) string {
	t.Helper()
	w, err := st.Create(session.Record{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	recs := []session.Record{{Type: session.TypeModel, Model: "openai/llmtest"}}
	conv := 0
	for i := range n {
		var m session.Message
		switch i % 4 {
		case 0:
			m = session.Message{Role: "user", Content: fmt.Sprintf("prompt %d", i)}
		case 1:
			m = session.Message{Role: "assistant", ToolCalls: []session.ToolCall{{ID: fmt.Sprintf("call_%d", i), Type: "function", Name: "bash", Arguments: `{"command":"true"}`}}}
		case 2:
			m = session.Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", i-1), ToolName: "bash", Content: fmt.Sprintf("output %d", i)}
		case 3:
			m = session.Message{Role: "assistant", Content: fmt.Sprintf("answer %d", i)}
		}
		recs = append(recs, session.Record{Type: session.TypeMessage, N: session.Of(conv), Message: &m})
		conv++
		if i%4 == 3 {
			recs = append(recs, session.Record{Type: session.TypeTurn, Usage: &session.Usage{Input: 10, Output: 1}})
		}
		if i == compactAt {
			recs = append(recs, session.Record{Type: session.TypeCompact, Reason: "auto", Summary: "the summary", TokensAfter: 10,
				Messages: []session.Message{{Role: "user", Content: "summary of what came before"}}})
			conv = 1
		}
	}
	for _, r := range end {
		if r.Type == session.TypeMessage {
			r.N = session.Of(conv)
			conv++
		}
		recs = append(recs, r)
	}
	if err := w.Append(recs...); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}

// resumeLong resumes session id in a new session talking to srv.
func resumeLong(t *testing.T, st *session.Store, srv *llmtest.Server, id string) (*Session, *Resumed) {
	t.Helper()
	root := t.TempDir()
	o := Options{Config: testConfig(t, srv.URL(), ModeYolo), Env: &tools.Env{Root: root, Todos: &tools.TodoStore{}}, Tools: testTools(root), Interactive: true, Store: st}
	s, err := NewSession(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	res, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	return s, res
}

// requestHistory is a request's messages after the system prompt, as
// role:content.
func requestHistory(r *llmtest.ChatRequest) []string {
	var out []string
	for _, m := range r.Messages[1:] {
		out = append(out, m.Role+":"+string(m.Content))
	}
	return out
}

// wantHistory is what the model must be sent after a resume of the session
// l holds whole: its conversation, then prompt.
func wantHistory(l *session.Log, prompt string) []string {
	var out []string
	for _, m := range l.Messages {
		out = append(out, m.Role+":"+m.Content)
	}
	return append(out, "user:"+prompt)
}

// A long session is resumed without reading its history first; the next
// turn waits for it and sends all of it, whether the conversation starts
// at the beginning (no compaction), after an early compaction, or after a
// late one (then it is read at once).
func TestResumeOfALongSessionSendsItsWholeHistory(t *testing.T) {
	for _, c := range []struct {
		name      string
		compactAt int
		later     bool
	}{
		{"no compaction", -1, true},
		{"early compaction", 40, true},
		{"late compaction", 1180, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
			id := longSession(t, st, 1200, c.compactAt)
			full, err := st.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{text("carried on")}})
			s, res := resumeLong(t, st, srv, id)
			if !res.Log.Partial() || len(res.Log.Transcript) >= len(full.Transcript) {
				t.Fatalf("the resume read the whole transcript (%d entries of %d)", len(res.Log.Transcript), len(full.Transcript))
			}
			if res.Log.MessagesLater() != c.later {
				t.Errorf("messages later: %v, want %v", res.Log.MessagesLater(), c.later)
			}
			s.conv.mu.Lock()
			waiting := s.conv.later != nil
			s.conv.mu.Unlock()
			if waiting != c.later {
				t.Errorf("the history waits: %v, want %v", waiting, c.later)
			}
			if u := s.Usage(); u.Turns != full.Info.Turns || u.InputTokens != full.Usage.Input {
				t.Errorf("usage %+v, want %d turns, %d in", u, full.Info.Turns, full.Usage.Input)
			}
			// A prompt sent at once, with /context asking beside it: both
			// wait for the history, neither loses it.
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				if ci := s.Context(); ci.Messages != len(full.Messages) && ci.Messages != len(full.Messages)+1 {
					t.Errorf("/context counts %d messages, want %d", ci.Messages, len(full.Messages))
				}
			}()
			checkInvariants(t, collect(t, s.Run(context.Background(), "next"), nil))
			wg.Wait()
			got, want := requestHistory(srv.ChatRequests()[0]), wantHistory(full, "next")
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("the request after the resume has %d messages, want %d; first %q, last %q", len(got), len(want), got[:min(2, len(got))], got[max(0, len(got)-2):])
			}
			// And the transcript goes on where it was.
			after, err := st.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			if len(after.Messages) != len(full.Messages)+2 || after.Messages[len(after.Messages)-1].Content != "carried on" {
				t.Errorf("on disk: %d messages (want %d)", len(after.Messages), len(full.Messages)+2)
			}
		})
	}
}

// A long session a kill stopped in a call: the resume says so at once, and
// the call is answered as interrupted when the history has been read.
func TestResumeOfALongSessionAnswersTheInterruptedCall(t *testing.T) {
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
	id := longSession(t, st, 1200, -1,
		session.Record{Type: session.TypeMessage, Message: &session.Message{Role: "user", Content: "run it"}},
		session.Record{Type: session.TypeMessage, Message: &session.Message{Role: "assistant", ToolCalls: []session.ToolCall{{ID: "killed", Type: "function", Name: "bash", Arguments: `{"command":"sleep 100"}`}}}})
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{text("after the kill")}})
	s, res := resumeLong(t, st, srv, id)
	if !res.Log.MessagesLater() {
		t.Fatal("the history was read at once")
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "1 call a stopped fawn never finished is answered as interrupted") {
		t.Errorf("notes %q", res.Notes)
	}
	checkInvariants(t, collect(t, s.Run(context.Background(), "go on"), nil))
	msgs := srv.ChatRequests()[0].Messages
	if n := len(msgs); n != 1+1202+2 || msgs[n-2].ToolCallID != "killed" || !strings.Contains(string(msgs[n-2].Content), "fawn stopped") {
		t.Errorf("the request has %d messages; the one before the prompt: %+v", n, msgs[len(msgs)-2])
	}
	l, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if m := l.Messages[1202]; m.ToolCallID != "killed" || !strings.Contains(m.Content, "fawn stopped") {
		t.Errorf("on disk after the call: %+v", m)
	}
}

// A session resumed lazily, then replaced (/new) before its history was
// read: the old history never comes into the new conversation.
func TestNewConversationDropsAHistoryNotRead(t *testing.T) {
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
	id := longSession(t, st, 1200, -1)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{text("fresh")}})
	s, res := resumeLong(t, st, srv, id)
	if !res.Log.MessagesLater() {
		t.Fatal("the history was read at once")
	}
	s.NewConversation(false)
	checkInvariants(t, collect(t, s.Run(context.Background(), "hello"), nil))
	if got := requestHistory(srv.ChatRequests()[0]); len(got) != 1 || got[0] != "user:hello" {
		t.Errorf("the new conversation's request: %q", got[:min(3, len(got))])
	}
}

// A rewind to an old turn right after a lazy resume waits for the history
// and cuts it where the user asked.
func TestRewindAfterALazyResume(t *testing.T) {
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
	id := longSession(t, st, 1200, -1)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{text("from turn two")}})
	s, res := resumeLong(t, st, srv, id)
	if !res.Log.MessagesLater() {
		t.Fatal("the history was read at once")
	}
	if err := s.RewindConversation(4, "prompt 4"); err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, collect(t, s.Run(context.Background(), "again"), nil))
	got := requestHistory(srv.ChatRequests()[0])
	want := []string{"user:prompt 0", "assistant:", "tool:output 2", "assistant:answer 3", "user:again"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the request after the rewind: %q", got)
	}
}
