package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// requestChars is the size of a recorded request's messages.
func requestSize(r *llmtest.ChatRequest) int {
	n := 0
	for _, m := range r.Messages {
		n += len(m.Content)
		for _, tc := range m.ToolCalls {
			n += len(tc.Function.Arguments)
		}
	}
	return n
}

// nonSystem are a request's messages after the system prompt.
func nonSystem(r *llmtest.ChatRequest) []llmtest.Message {
	var out []llmtest.Message
	for _, m := range r.Messages {
		if m.Role != "system" {
			out = append(out, m)
		}
	}
	return out
}

func systemOf(r *llmtest.ChatRequest) string {
	for _, m := range r.Messages {
		if m.Role == "system" {
			return string(m.Content)
		}
	}
	return ""
}

// The server answers "context length exceeded" in the middle of a task:
// fawn compacts the conversation and the same step succeeds; the request
// after the compaction is smaller and still holds the user's request, the
// project's instructions and the open to-dos.
func TestContextLengthCompactsAndRetriesTheStep(t *testing.T) {
	st, err := session.New(t.TempDir(), t.TempDir(), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		text("Noted: tabs everywhere."),
		call("c1", "read_file", `{"path":"big.txt"}`),
		{Fault: &llmtest.Fault{Kind: llmtest.ContextLength}},
		text("## Goal\nPort the parser. SUMMARY-MARKER\n## Next steps\nFinish."),
		text("Finished after the compaction."),
	}}, ModeYolo, withStore(st))
	h.write("AGENTS.md", "Indent with tabs. AGENTS-MARKER\n")
	h.write("big.txt", strings.Repeat("a line of the big file\n", 2000))
	h.env.Todos.Replace([]tools.Todo{{ID: "1", Title: "Port the parser", Status: "in_progress"}, {ID: "2", Title: "Old chore", Status: "completed"}})

	h.run(context.Background(), "remember: tabs", nil)
	evs := h.run(context.Background(), "now read big.txt and port the parser", nil)
	if end := last(evs); end.Err != nil {
		t.Fatalf("the turn failed: %v\n%s", end.Err, render(evs))
	}
	if got := answerText(evs); !strings.HasSuffix(got, "Finished after the compaction.") {
		t.Errorf("answer %q", got)
	}
	done := ofType(evs, EventCompacted)
	if len(ofType(evs, EventCompacting)) != 1 || len(done) != 1 || done[0].Err != nil {
		t.Fatalf("compaction events: %s", render(evs))
	}
	c := done[0].Compact
	if c.Reason != "overflow" || !strings.Contains(c.Summary, "SUMMARY-MARKER") || c.TokensAfter >= c.TokensBefore ||
		len(c.Todos) != 1 || len(c.Instructions) != 1 {
		t.Errorf("compaction %+v", c)
	}

	reqs := h.srv.ChatRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests", len(reqs))
	}
	sum := reqs[3]
	if len(sum.Tools) != 0 || !strings.Contains(systemOf(sum), "summarising a coding session") {
		t.Errorf("the summary request: tools %d, system %q", len(sum.Tools), systemOf(sum))
	}
	if tr := string(nonSystem(sum)[0].Content); !strings.Contains(tr, "remember: tabs") || !strings.Contains(tr, "→ call read_file") || !strings.Contains(tr, "characters cut") {
		t.Errorf("the transcript summarised:\n%s", words.Clip(tr, 2000))
	}
	before, after := reqs[2], reqs[4]
	if systemOf(after) != systemOf(before) || !strings.Contains(systemOf(after), "AGENTS-MARKER") {
		t.Errorf("the system prompt changed or lost AGENTS.md")
	}
	if requestSize(after) >= requestSize(before)/4 {
		t.Errorf("the request after compaction is %d characters, before %d", requestSize(after), requestSize(before))
	}
	msgs := nonSystem(after)
	if len(msgs) != 1 || msgs[0].Role != "user" {
		t.Fatalf("after compaction: %+v", msgs)
	}
	for _, want := range []string{"SUMMARY-MARKER", "[in_progress] Port the parser", "now read big.txt and port the parser", "AGENTS.md"} {
		if !strings.Contains(string(msgs[0].Content), want) {
			t.Errorf("the compacted conversation lacks %q:\n%s", want, msgs[0].Content)
		}
	}
	if strings.Contains(string(msgs[0].Content), "Old chore") {
		t.Errorf("a completed to-do was carried over")
	}

	// On disk: the compaction is a record, and a resume carries on from the
	// compacted conversation.
	l, err := st.Load(h.s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Messages) != 2 || !strings.Contains(l.Messages[0].Content, "SUMMARY-MARKER") {
		t.Errorf("stored conversation: %+v", l.Messages)
	}
	var compacts int
	for _, e := range l.Transcript {
		if e.Record != nil && e.Record.Type == session.TypeCompact {
			compacts++
		}
	}
	if compacts != 1 {
		t.Errorf("%d compact records", compacts)
	}
}

// /compact between turns, with a focus: the next turn's request holds the
// summary, an acknowledgement and the new prompt.
func TestManualCompactWithAFocus(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		text("First answer, long enough to be worth compacting."),
		text("SUMMARY-OF-ONE"),
		text("Second answer."),
	}}, ModeYolo)
	h.run(context.Background(), "first question", nil)
	evs := collect(t, h.s.Compact(context.Background(), "the parser"), nil)
	if end := last(evs); end.Type != EventTurnEnded || end.Err != nil {
		t.Fatalf("compact: %s", render(evs))
	}
	if d := ofType(evs, EventCompacted); len(d) != 1 || d[0].Compact.Reason != "manual" || d[0].Compact.Focus != "the parser" {
		t.Fatalf("compact: %s", render(evs))
	}
	h.run(context.Background(), "second question", nil)
	reqs := h.srv.ChatRequests()
	if !strings.Contains(systemOf(reqs[1]), "keep in particular: the parser") {
		t.Errorf("the focus did not reach the summary request: %q", systemOf(reqs[1]))
	}
	msgs := nonSystem(reqs[2])
	if len(msgs) != 3 || msgs[0].Role != "user" || !strings.Contains(string(msgs[0].Content), "SUMMARY-OF-ONE") ||
		msgs[1].Role != "assistant" || string(msgs[2].Content) != "second question" {
		t.Errorf("after /compact: %+v", msgs)
	}
	// Nothing to compact in a fresh conversation: said, not done.
	h.s.NewConversation(true)
	evs = collect(t, h.s.Compact(context.Background(), ""), nil)
	if end := last(evs); end.Err == nil || !strings.Contains(end.Err.Error(), "nothing to compact") {
		t.Errorf("compact of nothing: %s", render(evs))
	}
}

// TestCompactUsesTheModelJustSwitchedTo: /compact right after /model X
// summarises with X.
func TestCompactUsesTheModelJustSwitchedTo(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		text("First answer."),
		text("SUMMARY"),
	}}, ModeYolo)
	h.run(context.Background(), "first question", nil)
	other := h.s.ModelConfig()
	other.Model = "bigger"
	if err := h.s.SetModel(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	evs := collect(t, h.s.Compact(context.Background(), ""), nil)
	if end := last(evs); end.Err != nil {
		t.Fatalf("compact: %s", render(evs))
	}
	reqs := h.srv.ChatRequests()
	if len(reqs) != 2 || reqs[1].Model != "bigger" {
		t.Errorf("the summary was asked of %q, want bigger", reqs[len(reqs)-1].Model)
	}
	if got := h.s.ModelName(); got != "openai/bigger" {
		t.Errorf("model after /compact: %q", got)
	}
}

// Past agent.auto_compact the conversation is compacted before the request
// is sent, and the turn goes on.
func TestAutoCompactPastTheThreshold(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "read_file", `{"path":"big.txt"}`),
		text("SUMMARY-AUTO"),
		text("Done."),
	}}, ModeYolo, func(o *Options) {
		o.Config.Models.Chat.ContextWindow = 4000
		o.Config.Agent.AutoCompact = 85
	})
	h.write("big.txt", strings.Repeat("x", 16000))
	evs := h.run(context.Background(), "read big.txt", nil)
	if end := last(evs); end.Err != nil {
		t.Fatalf("turn: %v\n%s", end.Err, render(evs))
	}
	d := ofType(evs, EventCompacted)
	if len(d) != 1 || d[0].Compact.Reason != "auto" {
		t.Fatalf("no auto compaction: %s", render(evs))
	}
	reqs := h.srv.ChatRequests()
	if len(reqs) != 3 || !strings.Contains(string(nonSystem(reqs[2])[0].Content), "SUMMARY-AUTO") {
		t.Errorf("requests: %d", len(reqs))
	}
}

// agent.auto_compact: 0 turns the pressure off: a conversation far past
// the window is neither trimmed nor compacted; it is sent as it is (and
// only the server's saying it is too long would compact it).
func TestAutoCompactZeroIsOff(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "read_file", `{"path":"big.txt"}`),
		text("Read it."),
		text("Two."),
		text("Three."),
	}}, ModeYolo, func(o *Options) {
		o.Config.Models.Chat.ContextWindow = 4000
		o.Config.Agent.AutoCompact = 0
	})
	h.write("big.txt", strings.Repeat("z", 40000))
	for _, p := range []string{"read big.txt", "two", "three"} {
		evs := h.run(context.Background(), p, nil)
		if end := last(evs); end.Err != nil {
			t.Fatalf("%s: %v", p, end.Err)
		}
		if d := ofType(evs, EventCompacted); len(d) != 0 {
			t.Fatalf("compacted with agent.auto_compact 0: %s", render(evs))
		}
	}
	reqs := h.srv.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (no summary asked for)", len(reqs))
	}
	for _, m := range reqs[3].Messages {
		if m.Role == "tool" && (strings.HasPrefix(string(m.Content), "[fawn: ") || !strings.Contains(string(m.Content), strings.Repeat("z", 1000))) {
			t.Errorf("the old result was trimmed: %.100q", m.Content)
		}
	}
	if n := len(nonSystem(reqs[3])); n != 7 {
		t.Errorf("the last request has %d messages, want the whole conversation (7)", n)
	}
}

// Old tool results are shortened before anything is compacted; the newest
// two turns are never touched.
func TestOldToolResultsAreTrimmedFirst(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "read_file", `{"path":"big.txt"}`),
		text("Read it."),
		text("Two."),
		text("Three."),
	}}, ModeYolo, func(o *Options) {
		o.Config.Models.Chat.ContextWindow = 7000
		o.Config.Agent.AutoCompact = 85
	})
	h.write("big.txt", strings.Repeat("y", 20000))
	for _, p := range []string{"read big.txt", "two", "three"} {
		if end := last(h.run(context.Background(), p, nil)); end.Err != nil {
			t.Fatal(end.Err)
		}
	}
	reqs := h.srv.ChatRequests()
	result := func(r *llmtest.ChatRequest) string {
		for _, m := range r.Messages {
			if m.Role == "tool" {
				return string(m.Content)
			}
		}
		return ""
	}
	if got := result(reqs[2]); strings.Contains(got, "[fawn: ") {
		t.Errorf("the result was trimmed while its turn was among the newest two")
	}
	got := result(reqs[3])
	if !strings.HasPrefix(got, "[fawn: shortened to save context]") || len(got) > 2000 {
		t.Errorf("the old result was not trimmed: %d characters %q", len(got), words.Clip(got, 200))
	}
	if len(h.s.History()) != 8 {
		t.Errorf("the conversation lost messages: %d", len(h.s.History()))
	}
}

func TestWindowFor(t *testing.T) {
	for _, c := range []struct {
		model      string
		configured int
		want       int
		source     string
	}{
		{"gpt-4o-mini", 0, 128000, "table"},
		{"anthropic/claude-sonnet-4-5", 0, 200000, "table"},
		{"gpt-4", 0, 8192, "table"},
		{"gpt-4.1-mini", 0, 1047576, "table"},
		{"my-local-model", 0, defaultContextWindow, "default"},
		{"gpt-4o", 50000, 50000, "context_window"},
	} {
		n, src := windowFor(c.model, c.configured)
		if n != c.want || !strings.Contains(src, c.source) {
			t.Errorf("%s/%d: %d from %q", c.model, c.configured, n, src)
		}
	}
}
