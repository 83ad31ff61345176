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
