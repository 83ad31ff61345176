package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// Each prompt starts a checkpoint, and the real text_editor's writes land
// in it, before and after, under the session's ID.
func TestTurnsAreCheckpointed(t *testing.T) {
	st, err := session.New(t.TempDir(), t.TempDir(), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "e1", Name: "text_editor", Arguments: `{"command":"create","path":"a.txt","file_text":"one\r\n"}`}}},
		{Text: "Made it."},
		{ToolCalls: []llmtest.ToolCall{{ID: "e2", Name: "text_editor", Arguments: `{"command":"str_replace","path":"a.txt","old_str":"one","new_str":"two"}`}}},
		{Text: "Changed it."},
	}}
	h := newHarness(t, script, ModeYolo, func(o *Options) {
		o.Store = st
		o.Tools = append(o.Tools, tools.NewTextEditor(o.Env))
	})
	ctx := context.Background()
	checkInvariants(t, h.run(ctx, "make a", nil))
	checkInvariants(t, h.run(ctx, "change a", nil))

	b := h.s.Checkpoints()
	if b == nil {
		t.Fatal("no checkpoints with a store")
	}
	turns := b.Turns()
	if len(turns) != 2 || turns[0].Prompt != "make a" || turns[1].Prompt != "change a" {
		t.Fatalf("turns: %+v", turns)
	}
	if turns[1].Messages <= turns[0].Messages {
		t.Fatalf("the second prompt should start later in the conversation: %d then %d", turns[0].Messages, turns[1].Messages)
	}
	c := turns[1].Changes
	if len(c) != 1 || c[0].Path != "a.txt" || c[0].Call != "e2" || !c[0].Before.Kept || !c[0].After.Kept {
		t.Fatalf("changes of turn 2: %+v", c)
	}
	if _, err := b.Rewind(turns[1].ID, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(h.env.Root, "a.txt")); err != nil || string(got) != "one\r\n" {
		t.Fatalf("after the rewind a.txt = %q, %v", got, err)
	}
}

// A rewind of the conversation to before the second prompt: the next
// request is the one that would have been sent had the second turn never
// happened, on disk too (a resume sees the same).
func TestRewindConversation(t *testing.T) {
	st, err := session.New(t.TempDir(), t.TempDir(), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	script := llmtest.Script{Responses: []llmtest.Response{
		{Text: "One."}, {Text: "Two."}, {Text: "Three."},
	}}
	h := newHarness(t, script, ModeYolo, withStore(st))
	ctx := context.Background()
	h.run(ctx, "first", nil)
	h.run(ctx, "second", nil)
	turns := h.s.Checkpoints().Turns()
	if len(turns) != 2 {
		t.Fatalf("turns %+v", turns)
	}
	if err := h.s.RewindConversation(turns[1].Messages, "first"); err == nil {
		t.Error("a rewind whose prompt is not where the turn began was taken")
	}
	if err := h.s.RewindConversation(turns[1].Messages, turns[1].Prompt); err != nil {
		t.Fatal(err)
	}
	h.run(ctx, "third", nil)
	reqs := h.srv.ChatRequests()
	got := nonSystem(reqs[2])
	if len(got) != 3 || string(got[0].Content) != "first" || string(got[1].Content) != "One." || string(got[2].Content) != "third" {
		t.Errorf("after the rewind: %+v", got)
	}
	if systemOf(reqs[2]) != systemOf(reqs[0]) {
		t.Error("the system prompt changed")
	}
	l, err := st.Load(h.s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Messages) != 4 || l.Messages[2].Content != "third" {
		t.Errorf("stored: %+v", l.Messages)
	}
}

// A rewind of the conversation takes the to-do list back to what it was
// before the prompt, on disk too.
func TestRewindConversationTakesBackTheTodos(t *testing.T) {
	st, err := session.New(t.TempDir(), t.TempDir(), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	two := `{"todos":[{"id":"1","title":"Read","status":"in_progress"},{"id":"2","title":"Write","status":"pending"}]}`
	three := `{"todos":[{"id":"1","title":"Read","status":"completed"},{"id":"2","title":"Write","status":"in_progress"},{"id":"3","title":"Test","status":"pending"}]}`
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "t1", Name: "todo_write", Arguments: two}}},
		{Text: "Planned."},
		{ToolCalls: []llmtest.ToolCall{{ID: "t2", Name: "todo_write", Arguments: three}, {ID: "t3", Name: "todo_write", Arguments: `{"todos":"not a list"}`}}},
		{Text: "Moved on."},
	}}
	h := newHarness(t, script, ModeYolo, func(o *Options) {
		o.Store = st
		o.Tools = append(o.Tools, tools.NewTodoWrite(o.Env))
	})
	ctx := context.Background()
	h.run(ctx, "plan", nil)
	h.run(ctx, "go on", nil)
	if n := len(h.s.Todos()); n != 3 {
		t.Fatalf("before the rewind: %d to-dos, want 3", n)
	}
	turns := h.s.Checkpoints().Turns()
	if err := h.s.RewindConversation(turns[1].Messages, turns[1].Prompt); err != nil {
		t.Fatal(err)
	}
	got := h.s.Todos()
	if len(got) != 2 || got[0].Status != "in_progress" || got[1].Title != "Write" {
		t.Fatalf("after the rewind the to-dos are %+v; want the two of the first prompt", got)
	}
	l, err := st.Load(h.s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Todos) != 2 || l.Todos[0].Status != "in_progress" {
		t.Errorf("stored to-dos after the rewind: %+v", l.Todos)
	}
	// Back to before the first prompt: no list at all.
	if err := h.s.RewindConversation(turns[0].Messages, turns[0].Prompt); err != nil {
		t.Fatal(err)
	}
	if got := h.s.Todos(); len(got) != 0 {
		t.Errorf("before any todo_write the list is %+v", got)
	}
}
