package agent

import (
	"encoding/json"
	"sync"

	"github.com/cloudwego/eino/schema"
)

// conversation is the session's history, without the system prompt. It is
// the graph's state: every run of the graph gets this same object, so what
// one turn appends the next turn's model sees.
type conversation struct {
	mu   sync.Mutex
	gen  int // bumped by clear; a turn only appends to the generation it began in
	msgs []*schema.Message
	// rec, when set, writes every change to the session's transcript.
	rec *recorder
	// later, when set, is the history of a resumed session still being
	// read (resetLater): what reads or changes msgs waits for it (ready).
	later *laterHistory
}

func (c *conversation) generation() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// append adds msgs unless the conversation was cleared since gen.
func (c *conversation) append(gen int, msgs ...*schema.Message) {
	c.ready()
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	c.rec.appended(len(c.msgs), msgs)
	c.msgs = append(c.msgs, msgs...)
}

func (c *conversation) snapshot() []*schema.Message {
	c.ready()
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*schema.Message(nil), c.msgs...)
}

// repair makes the history one a model accepts: every tool call of an
// assistant message is answered by a tool message right after it (a call
// left without one gets result), and no tool message answers nothing. It
// returns the calls it answered.
func (c *conversation) repair(gen int, result string) []schema.ToolCall {
	c.ready()
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return nil
	}
	return c.repairLocked(result)
}

// repairLocked is repair with the lock held.
func (c *conversation) repairLocked(result string) []schema.ToolCall {
	var out []*schema.Message
	var fixed []schema.ToolCall
	for i := 0; i < len(c.msgs); i++ {
		m := c.msgs[i]
		if m.Role == schema.Tool {
			continue // an orphan: answered calls are copied below with their call
		}
		out = append(out, m)
		if m.Role != schema.Assistant || len(m.ToolCalls) == 0 {
			continue
		}
		answers := map[string]*schema.Message{}
		j := i + 1
		for ; j < len(c.msgs) && c.msgs[j].Role == schema.Tool; j++ {
			if _, dup := answers[c.msgs[j].ToolCallID]; !dup {
				answers[c.msgs[j].ToolCallID] = c.msgs[j]
			}
		}
		for _, tc := range m.ToolCalls {
			if a, ok := answers[tc.ID]; ok {
				out = append(out, a)
				continue
			}
			out = append(out, schema.ToolMessage(result, tc.ID, schema.WithToolName(tc.Function.Name)))
			fixed = append(fixed, tc)
		}
		i = j - 1
	}
	c.record(out)
	c.msgs = out
	return fixed
}

// request builds what the model is sent: the system prompt, then the
// history. Arguments that are not JSON are replaced by an empty object in
// the copy sent (servers that parse them reject the whole request; the
// model learns what was wrong from the call's result). Reasoning is sent
// back only within the current turn, where reasoning models that call
// tools need it; earlier turns' reasoning is dropped, as their providers
// recommend, which also keeps it from filling the context.
func request(system string, history []*schema.Message) []*schema.Message {
	out := make([]*schema.Message, 0, len(history)+1)
	if system != "" {
		out = append(out, schema.SystemMessage(system))
	}
	lastUser := -1
	for i, m := range history {
		if m.Role == schema.User {
			lastUser = i
		}
	}
	for i, m := range history {
		if i < lastUser && m.Role == schema.Assistant && m.ReasoningContent != "" {
			cp := *m
			cp.ReasoningContent = ""
			m = &cp
		}
		if m.Role == schema.Assistant && len(m.ToolCalls) > 0 && hasBadArgs(m.ToolCalls) {
			cp := *m
			cp.ToolCalls = append([]schema.ToolCall(nil), m.ToolCalls...)
			for i := range cp.ToolCalls {
				if !json.Valid([]byte(cp.ToolCalls[i].Function.Arguments)) {
					cp.ToolCalls[i].Function.Arguments = "{}"
				}
			}
			m = &cp
		}
		out = append(out, m)
	}
	return out
}

func hasBadArgs(calls []schema.ToolCall) bool {
	for _, tc := range calls {
		if !json.Valid([]byte(tc.Function.Arguments)) {
			return true
		}
	}
	return false
}
