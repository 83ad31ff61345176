package serve

import (
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// replay is a stored session as the updates a client shows: the user's
// messages, the agent's reasoning and text, its tool calls with their
// results, compactions, and the to-do list as it was left. The calls go
// through the same mapping as a live turn's events, so a loaded session
// looks like the turns that made it (less what the store does not keep:
// diffs and live output; a call's result stands for them).
func replay(l *session.Log, root string) []acp.SessionUpdate {
	if l == nil {
		return nil
	}
	m := newMapper(root)
	var out []acp.SessionUpdate
	for _, e := range l.Transcript {
		if r := e.Record; r != nil {
			if r.Type == session.TypeCompact {
				out = append(out, acp.UpdateAgentThoughtText(fmt.Sprintf("(the conversation was compacted: about %d → %d tokens)\n", r.TokensBefore, r.TokensAfter)))
			}
			continue
		}
		msg := e.Message
		if msg == nil {
			continue
		}
		switch msg.Role {
		case "user":
			if t := msg.Text(); t != "" {
				out = append(out, acp.UpdateUserMessageText(t))
			}
		case "assistant":
			if msg.Reasoning != "" {
				out = append(out, acp.UpdateAgentThoughtText(msg.Reasoning))
			}
			if t := msg.Text(); t != "" {
				out = append(out, acp.UpdateAgentMessageText(t))
			}
			for _, tc := range msg.ToolCalls {
				out = append(out, m.event(agent.Event{Type: agent.EventToolCallStarted, ID: tc.ID, Name: tc.Name})...)
				out = append(out, m.event(agent.Event{Type: agent.EventToolCallReady, ID: tc.ID, Name: tc.Name, Args: tc.Arguments})...)
			}
		case "tool":
			res := msg.Text()
			out = append(out, m.event(agent.Event{Type: agent.EventToolRunEnded, ID: msg.ToolCallID, Name: msg.ToolName,
				Result: res, IsError: strings.HasPrefix(res, "error")})...)
		}
	}
	if len(l.Todos) > 0 {
		items := make([]tools.Todo, len(l.Todos))
		for i, t := range l.Todos {
			items[i] = tools.Todo{ID: t.ID, Title: t.Title, Status: t.Status, Priority: t.Priority}
		}
		out = append(out, planUpdate(items))
	}
	return out
}
