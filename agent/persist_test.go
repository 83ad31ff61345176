package agent

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// threeTurns is a conversation of three turns, the first with a tool call
// and a to-do list.
func threeTurns() llmtest.Script {
	todo := llmtest.Response{Text: "Planning.", ToolCalls: []llmtest.ToolCall{
		{ID: "t1", Name: "todo_write", Arguments: `{"todos":[{"id":"1","title":"read it","status":"in_progress"}]}`},
		{ID: "r1", Name: "read_file", Arguments: `{"path":"notes.txt"}`},
	}, Usage: &llmtest.Usage{PromptTokens: 300, CompletionTokens: 20, CachedTokens: 100}}
	return llmtest.Script{Responses: []llmtest.Response{
		todo,
		{Text: "It says hello.", Usage: &llmtest.Usage{PromptTokens: 400, CompletionTokens: 5}},
		{Text: "Second answer.", Usage: &llmtest.Usage{PromptTokens: 450, CompletionTokens: 3}},
		{Text: "Third answer."},
	}}
}

func withStore(st *session.Store) func(*Options) {
	return func(o *Options) {
		o.Store = st
		o.Tools = append(o.Tools, tools.NewTodoWrite(o.Env))
	}
}

func lastBody(srv *llmtest.Server) []byte {
	var last []byte
	for _, r := range srv.Requests() {
		if r.Chat != nil {
			last = r.Body
		}
	}
	return last
}

// The request after a resume is the request the session would have sent
// had it never stopped: same system prompt bytes (although the prompt would
// be built differently now), same messages, same order.
func TestResumeSendsTheSameRequest(t *testing.T) {
	data := t.TempDir()
	ctx := context.Background()

	// Control: three turns in one session.
	ctl := newHarness(t, threeTurns(), ModeYolo, withStore(nil))
	ctl.write("notes.txt", "hello\n")
	for _, p := range []string{"first", "second", "third"} {
		checkInvariants(t, ctl.run(ctx, p, nil))
	}
	want := lastBody(ctl.srv)

	// The same, stopped after two turns and resumed in a new session.
	h := newHarness(t, threeTurns(), ModeYolo)
	h.root = ctl.root // the same project: the prompt names it
	st, err := session.New(data, h.root, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.s.Close()
	h.env = &tools.Env{Root: h.root, Files: tools.NewFileTracker(), Todos: &tools.TodoStore{}}
	mk := func() *Session {
		o := Options{Config: testConfig(t, h.srv.URL(), ModeYolo), Env: h.env, Tools: testTools(h.root), Interactive: true, Store: st}
		o.Tools = append(o.Tools, tools.NewTodoWrite(h.env))
		s, err := NewSession(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	h.s = mk()
	for _, p := range []string{"first", "second"} {
		checkInvariants(t, h.run(ctx, p, nil))
	}
	id := h.s.ID()
	h.s.Close()

	// Things that would change a freshly built prompt.
	h.write("AGENTS.md", "Always answer in French.\n")
	h.env.Todos.Replace(nil)

	h.s = mk()
	res, err := h.s.Resume(id[:6])
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 0 || res.ForkedFrom != "" || h.s.ID() != id {
		t.Errorf("resume: notes %v forked %q id %s", res.Notes, res.ForkedFrom, h.s.ID())
	}
	if todos := h.s.Todos(); len(todos) != 1 || todos[0].Title != "read it" {
		t.Errorf("to-dos not restored: %+v", todos)
	}
	if u := h.s.Usage(); u.InputTokens != 1150 || u.OutputTokens != 28 || u.CachedTokens != 100 || u.Turns != 2 || u.ContextTokens != 450 {
		t.Errorf("usage not restored: %+v", u)
	}
	checkInvariants(t, h.run(ctx, "third", nil))
	got := lastBody(h.srv)
	if !bytes.Equal(got, want) {
		t.Errorf("the request after the resume differs:\n--- got\n%s\n--- want\n%s", got, want)
	}

	// The transcript holds the three turns, in order, and nothing twice.
	l, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range l.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, " ") != "user assistant tool tool assistant user assistant user assistant" {
		t.Errorf("conversation on disk: %v", roles)
	}
	if l.Info.Turns != 3 || l.Info.Title != "first" || l.Model != "openai/llmtest" || len(l.Warnings) != 0 {
		t.Errorf("info %+v warnings %v", l.Info, l.Warnings)
	}
}

// A session another fawn is writing is not written to: this one forks.
func TestResumeOfALockedSessionForks(t *testing.T) {
	ctx := context.Background()
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{text("one"), text("two")}}, ModeYolo, withStore(st))
	checkInvariants(t, h.run(ctx, "hi", nil))
	id := h.s.ID()
	// h.s still has the file open (as a running fawn would).
	o := Options{Config: testConfig(t, h.srv.URL(), ModeYolo), Env: &tools.Env{Root: h.root, Todos: &tools.TodoStore{}}, Tools: testTools(h.root), Store: st}
	other, err := NewSession(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	res, err := other.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	if res.ForkedFrom != id || other.ID() == id || len(res.Notes) == 0 || !strings.Contains(res.Notes[0], "open in another fawn") {
		t.Fatalf("resume of a locked session: %+v (id %s)", res, other.ID())
	}
	evs := collect(t, other.Run(ctx, "again"), nil)
	checkInvariants(t, evs)
	msgs := h.srv.ChatRequests()[1].Messages
	if len(msgs) != 4 || string(msgs[1].Content) != "hi" || string(msgs[3].Content) != "again" {
		t.Errorf("the fork's request: %+v", msgs)
	}
	orig, _ := st.Load(id)
	if len(orig.Messages) != 2 {
		t.Errorf("the original was written to: %d messages", len(orig.Messages))
	}
}

// A kill during a tool leaves a call without its result: the resume answers
// it, and the calls that had finished keep theirs.
func TestResumeAnswersCallsAKillInterrupted(t *testing.T) {
	ctx := context.Background()
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "a", Name: "read_file", Arguments: `{"path":"x.txt"}`},
			{ID: "b", Name: "bash", Arguments: `{"command":"echo hi"}`},
		}},
		text("resumed fine"),
	}}
	h := newHarness(t, script, ModeAsk, withStore(st))
	h.write("x.txt", "content of x\n")
	id := h.s.ID()
	var path string
	ctx2, cancel := context.WithCancel(ctx)
	collect(t, h.s.Run(ctx2, "go"), func(ev Event) {
		if ev.Type == EventPermissionAsked {
			// The first call's result is on disk before the second is answered.
			path = h.s.TranscriptPath()
			data, _ := os.ReadFile(path)
			if !bytes.Contains(data, []byte("content of x")) {
				t.Errorf("the finished call's result is not on disk yet:\n%s", data)
			}
			// Simulate the kill: copy the file as it is now.
			os.WriteFile(path+".killed", data, 0o600)
			cancel()
		}
	})
	h.s.Close()
	if err := os.Rename(path+".killed", path); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(st.Dir(), id+".meta.json"))

	o := Options{Config: testConfig(t, h.srv.URL(), ModeYolo), Env: &tools.Env{Root: h.root, Todos: &tools.TodoStore{}}, Tools: testTools(h.root), Store: st}
	s, err := NewSession(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "1 call a stopped fawn never finished is answered") {
		t.Errorf("notes %v", res.Notes)
	}
	checkInvariants(t, collect(t, s.Run(ctx, "continue"), nil))
	msgs := h.srv.ChatRequests()[1].Messages
	var got []string
	for _, m := range msgs[1:] {
		got = append(got, m.Role+":"+words.Clip(string(m.Content), 30))
	}
	if len(msgs) != 6 || !strings.Contains(string(msgs[3].Content), "content of x") || !strings.Contains(string(msgs[4].Content), "fawn stopped") {
		t.Errorf("request after the resume: %v", got)
	}
	// The answer given at the resume is on disk too.
	l, _ := st.Load(id)
	if len(l.Messages) != 6 || !strings.Contains(l.Messages[3].Content, "fawn stopped") {
		t.Errorf("%d messages on disk", len(l.Messages))
	}
}

// The key of the configuration never reaches the transcript, even when a
// hostile model or a file of the project puts it in the conversation.
func TestSessionFileHasNoKey(t *testing.T) {
	const key = "sk-proj-SECRETSECRET0123456789"
	ctx := context.Background()
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{Secrets: []string{key}})
	script := llmtest.Script{Responses: []llmtest.Response{
		call("r", "read_file", `{"path":".env"}`),
		text("Your key is " + key),
	}}
	h := newHarness(t, script, ModeYolo, withStore(st), func(o *Options) { o.Config.Models.Chat.APIKey = key })
	h.write(".env", "OPENAI_API_KEY="+key+"\n")
	checkInvariants(t, h.run(ctx, "what is in .env? "+key, nil))
	data, err := os.ReadFile(h.s.TranscriptPath())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(key)) || bytes.Contains(data, []byte("SECRETSECRET")) {
		t.Errorf("the key is in the session file:\n%s", data)
	}
	if !bytes.Contains(data, []byte("[redacted]")) {
		t.Errorf("nothing was redacted")
	}
}

// /new starts another file; the first stays and can be resumed.
func TestNewConversation(t *testing.T) {
	ctx := context.Background()
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{text("one"), text("two"), text("three")}}, ModeYolo, withStore(st))
	checkInvariants(t, h.run(ctx, "first session", nil))
	first := h.s.ID()
	h.s.NewConversation(false)
	if h.s.ID() == first || h.s.TranscriptPath() != "" || h.s.Usage().InputTokens != 0 {
		t.Errorf("new conversation: id %s path %q", h.s.ID(), h.s.TranscriptPath())
	}
	checkInvariants(t, h.run(ctx, "second session", nil))
	if msgs := h.srv.ChatRequests()[1].Messages; len(msgs) != 2 {
		t.Errorf("the new session's request carries %d messages", len(msgs))
	}
	list, _ := st.List()
	if len(list) != 2 || list[0].ID != h.s.ID() || list[1].ID != first {
		t.Errorf("sessions: %+v", list)
	}
	if _, err := h.s.Resume(first); err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h.run(ctx, "back", nil))
	if msgs := h.srv.ChatRequests()[2].Messages; len(msgs) != 4 || string(msgs[1].Content) != "first session" {
		t.Errorf("after resuming the first: %+v", msgs)
	}
}
