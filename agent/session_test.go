package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// twoCallsScript: text, then two tool calls; then the final answer; then
// the answer of a second turn.
func twoCallsScript(d llmtest.Dialect) llmtest.Script {
	return llmtest.Script{Dialect: d, Responses: []llmtest.Response{
		{
			Reasoning: "The user wants the notes and a listing.",
			Text:      "I'll read the notes, then list the directory.",
			ToolCalls: []llmtest.ToolCall{
				{ID: "call_read", Name: "read_file", Arguments: `{"path":"notes.txt"}`},
				{ID: "call_ls", Name: "bash", Arguments: `{"command":"ls"}`},
			},
			ArgChunkSize: 7,
			Usage:        &llmtest.Usage{PromptTokens: 500, CompletionTokens: 40},
		},
		{
			Text:  "notes.txt says hello, and the directory holds just that file.",
			Usage: &llmtest.Usage{PromptTokens: 620, CompletionTokens: 15, CachedTokens: 480},
		},
		{
			Text:  "You're welcome.",
			Usage: &llmtest.Usage{PromptTokens: 700, CompletionTokens: 4, CachedTokens: 600},
		},
	}}
}

// TestTurnInEveryDialect is the heart of it: a turn with text, two tool
// calls and a final answer gives the same event stream whatever the
// server's dialect; the second request carries both results under the
// right IDs; and the history is there in the next turn.
func TestTurnInEveryDialect(t *testing.T) {
	for _, d := range llmtest.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			h := newHarness(t, twoCallsScript(d), ModeAsk)
			h.write("notes.txt", "hello\n")

			evs := h.run(context.Background(), "What do the notes say?", func(ev Event) {
				if ev.Type == EventPermissionAsked {
					h.s.Approve(ev.ID, Answer{Decision: AllowOnce})
				}
			})
			golden(t, "two_calls", render(evs))

			// The IDs the events announced are the ones the model got back.
			ready := ofType(evs, EventToolCallReady)
			if len(ready) != 2 {
				t.Fatalf("%d calls ready, want 2", len(ready))
			}
			reqs := h.srv.ChatRequests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			second := reqs[1].Messages
			roles := ""
			for _, m := range second {
				roles += m.Role[:1]
			}
			if roles != "suatt" { // system, user, assistant, tool, tool
				t.Fatalf("second request roles %q, want suatt", roles)
			}
			asst := second[2]
			if len(asst.ToolCalls) != 2 || asst.Content != "I'll read the notes, then list the directory." ||
				asst.ReasoningContent != "The user wants the notes and a listing." {
				t.Fatalf("assistant message sent back: %+v", asst)
			}
			for i, want := range []string{"hello\n", "notes.txt\n"} {
				call := asst.ToolCalls[i]
				res := second[3+i]
				if call.ID != ready[i].ID || res.ToolCallID != ready[i].ID {
					t.Errorf("call %d: announced %s, sent back call %s with result for %s", i, ready[i].ID, call.ID, res.ToolCallID)
				}
				if string(res.Content) != want {
					t.Errorf("result %d = %q, want %q", i, res.Content, want)
				}
			}
			if d != llmtest.NoIDs && (ready[0].ID != "call_read" || ready[1].ID != "call_ls") {
				t.Errorf("server IDs not kept: %s %s", ready[0].ID, ready[1].ID)
			}
			if ready[0].ID == ready[1].ID {
				t.Errorf("both calls have ID %s", ready[0].ID)
			}

			// The second turn's request holds the whole first turn.
			evs2 := h.run(context.Background(), "Thanks!", nil)
			if e := last(evs2); e.Err != nil {
				t.Fatalf("second turn: %v", e.Err)
			}
			third := h.srv.ChatRequests()[2].Messages
			roles = ""
			for _, m := range third {
				roles += m.Role[:1]
			}
			if third[2].ReasoningContent != "" {
				t.Errorf("the first turn's reasoning was sent again in the second")
			}
			if roles != "suattau" || third[5].Content != "notes.txt says hello, and the directory holds just that file." || third[6].Content != "Thanks!" {
				t.Errorf("third request: roles %q: %+v", roles, third)
			}
			u := h.s.Usage()
			if u.Turns != 2 || u.InputTokens != 1820 || u.OutputTokens != 59 || u.CachedTokens != 1080 || u.ContextTokens != 700 || u.ToolCalls != 2 || u.Steps != 3 {
				t.Errorf("session usage %+v", u)
			}
		})
	}
}

func TestSystemPrompt(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "ok"}}}, ModeAsk)
	h.write("AGENTS.md", "Always answer in haiku.")
	h.run(context.Background(), "hi", nil)
	sys := string(h.srv.ChatRequests()[0].Messages[0].Content)
	for _, want := range []string{
		"You are fawn", h.root, "not a git repository", "read_file, write_file, bash",
		"Instructions from " + h.root + "/AGENTS.md", "Always answer in haiku.",
		"View a file before you edit it", "todo_write", "line number",
	} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys)
		}
	}
	// Tools are offered with their schemas.
	tools := h.srv.ChatRequests()[0].Tools
	if len(tools) != 3 || tools[0].Function.Name != "read_file" || !json.Valid(tools[0].Function.Parameters) {
		t.Errorf("tools offered: %+v", tools)
	}
}

// A project's AGENTS.md that links outside the project is not put in the
// prompt: a hostile repository must not send the user's files to the model.
func TestSystemPromptSkipsLinkedInstructions(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "ok"}}}, ModeAsk)
	secret := filepath.Join(t.TempDir(), "credentials")
	if err := os.WriteFile(secret, []byte("aws_secret_access_key=SECRET-MARKER"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(h.root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	h.write("CLAUDE.md", "Use tabs. CLAUDE-MARKER")
	h.run(context.Background(), "hi", nil)
	sys := string(h.srv.ChatRequests()[0].Messages[0].Content)
	if strings.Contains(sys, "SECRET-MARKER") || !strings.Contains(sys, "CLAUDE-MARKER") {
		t.Errorf("system prompt:\n%s", sys)
	}
}
