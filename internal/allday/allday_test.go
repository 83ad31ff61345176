package allday

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// converse plays the client's side of turn t against p: the history the
// agent would send, step after step, with the subagent's own conversation
// at its task call. It returns the main history's new messages.
func converse(t *testing.T, p *Plan, history []llmtest.Message, turn Turn) []llmtest.Message {
	t.Helper()
	sys := llmtest.Message{Role: "system", Content: "You are fawn, a coding agent."}
	msgs := append(append([]llmtest.Message{sys}, history...), llmtest.Message{Role: "user", Content: llmtest.Content(turn.Prompt)})
	for step := 0; ; step++ {
		if step > 10 {
			t.Fatalf("turn %d: no end after 10 steps", turn.N)
		}
		r := p.Respond(&llmtest.ChatRequest{Model: ModelA, Messages: msgs}, 0)
		am := llmtest.Message{Role: "assistant", Content: llmtest.Content(r.Text)}
		var results []llmtest.Message
		for _, c := range r.ToolCalls {
			if !json.Valid([]byte(c.Arguments)) || c.ID == "" {
				t.Fatalf("turn %d: call %s has arguments %q, ID %q", turn.N, c.Name, c.Arguments, c.ID)
			}
			cm := llmtest.CallMessage{ID: c.ID, Type: "function"}
			cm.Function.Name, cm.Function.Arguments = c.Name, c.Arguments
			am.ToolCalls = append(am.ToolCalls, cm)
			result := "ok"
			if c.Name == "task" {
				result = subagent(t, p, c.Arguments)
			}
			results = append(results, llmtest.Message{Role: "tool", ToolCallID: c.ID, Content: llmtest.Content(result)})
		}
		msgs = append(append(msgs, am), results...)
		if len(r.ToolCalls) == 0 {
			if !strings.HasPrefix(r.Text, turn.Done+"\n") {
				t.Fatalf("turn %d ends with %q, want it to start with %q", turn.N, r.Text, turn.Done)
			}
			// A background note between turns, as fawn asks for one.
			p.Respond(&llmtest.ChatRequest{Messages: []llmtest.Message{
				{Role: "system", Content: "You keep notes of a coding session between a user and an AI coding agent, one note per turn, so ..."},
				{Role: "user", Content: llmtest.Content("The turn to note:\n\n" + turn.Prompt)},
			}}, 0)
			return msgs[1+len(history):]
		}
	}
}

func subagent(t *testing.T, p *Plan, args string) string {
	t.Helper()
	var a struct{ Prompt string }
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		t.Fatal(err)
	}
	msgs := []llmtest.Message{{Role: "system", Content: "You are a subagent of fawn"}, {Role: "user", Content: llmtest.Content(a.Prompt)}}
	for step := 0; step < 5; step++ {
		r := p.Respond(&llmtest.ChatRequest{Messages: msgs}, 0)
		if len(r.ToolCalls) == 0 {
			return r.Text
		}
		am := llmtest.Message{Role: "assistant", Content: llmtest.Content(r.Text)}
		msgs = append(msgs, am, llmtest.Message{Role: "tool", ToolCallID: r.ToolCalls[0].ID, Content: "3 src/f0.go"})
	}
	t.Fatal("the subagent did not end")
	return ""
}

// The plan answers every request of a session played through it: each
// turn ends on its Done line, subagents and notes get theirs, and nothing
// is left unknown; the session holds the mix the benchmark needs.
func TestPlanPlaysThrough(t *testing.T) {
	const turns = 100
	p := New(turns)
	if len(p.Turns) != turns {
		t.Fatalf("%d turns", len(p.Turns))
	}
	var history []llmtest.Message
	calls := map[string]int{}
	for _, turn := range p.Turns {
		if turn.Before == "/compact" {
			history = history[:0] // as a compaction leaves only a summary
			history = append(history, llmtest.Message{Role: "user", Content: "Summary of the conversation so far."})
		}
		added := converse(t, p, history, turn)
		for _, m := range added {
			for _, c := range m.ToolCalls {
				calls[c.Function.Name]++
			}
		}
		history = append(history, added...)
	}
	c := p.Counts()
	if c.Unknown != 0 || c.Other != 0 {
		t.Fatalf("counts %+v", c)
	}
	if c.Notes != turns || c.Subagent != 2*turns/25 {
		t.Errorf("notes %d, subagent steps %d; want %d and %d", c.Notes, c.Subagent, turns, 2*turns/25)
	}
	for _, name := range []string{"bash", "text_editor", "todo_write", "task"} {
		if calls[name] == 0 {
			t.Errorf("no %s call in %v", name, calls)
		}
	}
	// A turn asked again past its end is not answered as another.
	r := p.Respond(&llmtest.ChatRequest{Messages: append(history, llmtest.Message{Role: "assistant", Content: "extra"})}, 0)
	if p.Counts().Unknown != 1 || !strings.Contains(r.Text, "no answer for turn 100, step") {
		t.Errorf("a step too many: %q, %+v", r.Text, p.Counts())
	}
}

// The commands before turns: three compactions and two model switches,
// each on a turn of its own, at any length; a 2,000-turn plan makes a
// session of over 10,000 messages.
func TestPlanShape(t *testing.T) {
	for _, turns := range []int{50, 2000} {
		p := New(turns)
		var compacts, switches []string
		msgs := 0
		for _, tr := range p.Turns {
			switch {
			case tr.Before == "/compact":
				compacts = append(compacts, tr.Before)
			case strings.HasPrefix(tr.Before, "/model "):
				switches = append(switches, tr.Before)
			}
			msgs++ // the prompt
			for _, s := range tr.steps {
				msgs += 1 + len(s.ToolCalls)
			}
		}
		if len(compacts) != 3 || len(switches) != 2 || switches[0] != "/model "+ModelB || switches[1] != "/model "+ModelA {
			t.Errorf("%d turns: compactions %v, switches %v", turns, compacts, switches)
		}
		if turns == 2000 && msgs < 10000 {
			t.Errorf("a 2,000-turn session has %d messages, want over 10,000", msgs)
		}
	}
}
