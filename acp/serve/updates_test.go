package serve

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
)

func notes(ups []acp.SessionUpdate) []acp.SessionNotification {
	ns := make([]acp.SessionNotification, len(ups))
	for i, u := range ups {
		ns[i] = acp.SessionNotification{Update: u}
	}
	return ns
}

// checkStarted fails when an update names a call the client has not seen
// start, or a call starts twice.
func checkStarted(t *testing.T, ups []acp.SessionUpdate) {
	t.Helper()
	started := map[string]bool{}
	for i, u := range ups {
		k, id, _ := step(u)
		switch k {
		case "tool_call":
			if started[id] {
				t.Errorf("update %d: call %s started twice", i, id)
			}
			started[id] = true
		case "update":
			if !started[id] {
				t.Errorf("update %d: call %s updated before it started", i, id)
			}
		}
	}
}

func TestMapperOutOfOrderEnds(t *testing.T) {
	m := newMapper("/p")
	var ups []acp.SessionUpdate
	for _, ev := range []agent.Event{
		{Type: agent.EventToolCallStarted, ID: "a", Name: "grep"},
		{Type: agent.EventToolCallStarted, ID: "b", Name: "bash"},
		{Type: agent.EventToolCallReady, ID: "a", Name: "grep", Args: `{"pattern":"x"}`},
		{Type: agent.EventToolCallReady, ID: "b", Name: "bash", Args: `{"command":"make test"}`},
		{Type: agent.EventToolRunStarted, ID: "b", Name: "bash", Action: &tools.Action{Kind: tools.KindExec, Summary: "$ make test"}},
		{Type: agent.EventToolRunStarted, ID: "a", Name: "grep", Action: &tools.Action{Kind: tools.KindRead, Summary: "grep x"}},
		{Type: agent.EventToolRunEnded, ID: "b", Name: "bash", Result: "error: exit 2", IsError: true},
		{Type: agent.EventToolRunEnded, ID: "a", Name: "grep", Result: "a.go:1: x"},
		// A call the agent ends without having started it (the turn
		// ended before it ran): announced, then ended.
		{Type: agent.EventToolRunEnded, ID: "c", Name: "text_editor", Result: "error: not run", IsError: true},
	} {
		ups = append(ups, m.event(ev)...)
	}
	checkStarted(t, ups)
	ns := notes(ups)
	for id, want := range map[string]string{"a": "pending,in_progress,completed", "b": "pending,in_progress,failed", "c": "pending,failed"} {
		if got := strings.Join(statuses(ns, id), ","); got != want {
			t.Errorf("call %s went %s, want %s", id, got, want)
		}
	}
	if text, _ := contentOf(ns, "a"); !strings.Contains(text, "a.go:1: x") {
		t.Errorf("a's result is not shown: %q", text)
	}
}

func TestMapperCoalescesOutput(t *testing.T) {
	m := newMapper("/p")
	var ups []acp.SessionUpdate
	ups = append(ups, m.event(agent.Event{Type: agent.EventToolCallStarted, ID: "b", Name: "bash"})...)
	for _, chunk := range []string{"one\n", "two\n", "three\n"} {
		if got := m.event(agent.Event{Type: agent.EventToolOutput, ID: "b", Text: chunk}); len(got) != 0 {
			t.Fatalf("an output chunk was sent at once: %+v", got)
		}
	}
	flushed := m.flush()
	if len(flushed) != 1 {
		t.Fatalf("flush sent %d updates, want 1 for three chunks", len(flushed))
	}
	if text, _ := contentOf(notes(flushed), "b"); !strings.Contains(text, "one\ntwo\nthree") {
		t.Errorf("flushed output %q", text)
	}
	if again := m.flush(); len(again) != 0 {
		t.Errorf("a second flush with nothing new sent %d updates", len(again))
	}
	// The command's end replaces the live view; output held back is not
	// sent after it.
	m.event(agent.Event{Type: agent.EventToolOutput, ID: "b", Text: "four\n"})
	ended := m.event(agent.Event{Type: agent.EventToolUpdate, ID: "b", Data: tools.CommandDone{Output: "one\ntwo\nthree\nfour\n", ExitCode: 3}})
	ended = append(ended, m.event(agent.Event{Type: agent.EventToolRunEnded, ID: "b", Result: "exit 3"})...)
	if text, _ := contentOf(notes(ended), "b"); !strings.Contains(text, "four") || !strings.Contains(text, "exit status 3") {
		t.Errorf("the end's content %q", text)
	}
	if late := m.flush(); len(late) != 0 {
		t.Errorf("output was sent after the call ended: %+v", late)
	}
	checkStarted(t, append(ups, ended...))
}

// A subagent's words stream into its task call as text, not as a console.
func TestMapperSubagentWords(t *testing.T) {
	m := newMapper("/p")
	m.event(agent.Event{Type: agent.EventToolCallStarted, ID: "k", Name: "task"})
	m.event(agent.Event{Type: agent.EventToolOutput, ID: "k", Text: "Reading the code."})
	text, _ := contentOf(notes(m.flush()), "k")
	if text != "Reading the code.\n" {
		t.Errorf("the task's live content %q", text)
	}
}

func TestMapperEditDiffAndPlan(t *testing.T) {
	m := newMapper("/p")
	ups := m.event(agent.Event{Type: agent.EventToolUpdate, ID: "e", Name: "text_editor", Data: tools.FileChanged{Path: "/p/a.go", Before: []byte("old\n"), After: []byte("new\n")}})
	_, diffs := contentOf(notes(ups), "e")
	if len(diffs) != 1 || diffs[0].OldText == nil || *diffs[0].OldText != "old\n" || diffs[0].NewText != "new\n" || diffs[0].Path != "/p/a.go" {
		t.Errorf("diff %+v", diffs)
	}
	plan := m.event(agent.Event{Type: agent.EventToolUpdate, ID: "t", Name: "todo_write", Data: tools.TodosChanged{Items: []tools.Todo{
		{Title: "a", Status: "pending"}, {Title: "b", Status: "cancelled", Priority: "low"}}}})
	var p *acp.SessionUpdatePlan
	for _, u := range plan {
		if u.Plan != nil {
			p = u.Plan
		}
	}
	if p == nil || len(p.Entries) != 2 || p.Entries[1].Content != "b (cancelled)" || p.Entries[1].Status != acp.PlanEntryStatusCompleted || p.Entries[1].Priority != acp.PlanEntryPriorityLow {
		t.Errorf("plan %+v", p)
	}
}

func TestMapperCancelledTurnSaysNothing(t *testing.T) {
	m := newMapper("/p")
	if ups := m.event(agent.Event{Type: agent.EventError, Err: agent.ErrCancelled}); len(ups) != 0 {
		t.Errorf("a cancel is said as an error: %+v", ups)
	}
	ups := m.event(agent.Event{Type: agent.EventError, Err: errors.New("the server is down")})
	if len(ups) != 1 || !strings.Contains(ups[0].AgentMessageChunk.Content.Text.Text, "the server is down") {
		t.Errorf("an error is not said: %+v", ups)
	}
}

func TestMergeJoinsChunks(t *testing.T) {
	got := merge([]acp.SessionUpdate{
		acp.UpdateAgentMessageText("a"), acp.UpdateAgentMessageText("b"),
		acp.UpdateAgentThoughtText("c"), acp.UpdateAgentThoughtText("d"),
		acp.UpdateAgentMessageText("e"),
	})
	if len(got) != 3 || got[0].AgentMessageChunk.Content.Text.Text != "ab" || got[1].AgentThoughtChunk.Content.Text.Text != "cd" || got[2].AgentMessageChunk.Content.Text.Text != "e" {
		t.Errorf("merge: %+v", got)
	}
}

// A one-pixel PNG.
const pixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

func TestInputOf(t *testing.T) {
	in, err := inputOf([]acp.ContentBlock{
		acp.TextBlock("look at"),
		acp.ResourceLinkBlock("a.go", "file:///p/a.go"),
		acp.TextBlock("and this:"),
		acp.ImageBlock(pixelPNG, "image/png"),
		acp.ResourceBlock(acp.EmbeddedResourceResource{TextResourceContents: &acp.TextResourceContents{Uri: "file:///p/b.go", Text: "package b // unsaved"}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(in.Text, "look at @/p/a.go and this:") || !strings.Contains(in.Text, "<file path=\"/p/b.go\">\npackage b // unsaved\n</file>") {
		t.Errorf("text %q", in.Text)
	}
	png, _ := base64.StdEncoding.DecodeString(pixelPNG)
	if len(in.Images) != 1 || in.Images[0].MIME != "image/png" || string(in.Images[0].Data) != string(png) {
		t.Errorf("images %+v", in.Images)
	}
	if _, err := inputOf([]acp.ContentBlock{acp.ImageBlock("bm90IGFuIGltYWdl", "image/png")}); err == nil {
		t.Error("data that is no image was taken as one")
	}
}
