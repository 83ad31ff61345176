package agent

import (
	"sync"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/session"
)

// A resumed session whose conversation reaches back before the messages
// read at once (session.Log.MessagesLater: no compaction since, or one long
// ago) gets its history later: Resume hands the conversation a loader, and
// the first thing that reads or changes the history — a turn's first
// request, /context, a rewind, a compaction — waits for it, so a prompt sent
// at once waits for the history rather than being sent without it. The UI
// reads the same log whole after its first frame, so the loader usually
// finds it decoded already.

// laterHistory is a conversation's history still being read.
type laterHistory struct {
	once sync.Once
	load func() []*schema.Message
	// result answers the calls a stopped fawn never finished (repair).
	result string
}

// resetLater is reset for a history that load returns: the calls it leaves
// unanswered are answered with result, as Resume does, when it arrives.
func (c *conversation) resetLater(load func() []*schema.Message, result string, rec *recorder) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.msgs = nil
	c.rec = rec
	c.later = &laterHistory{load: load, result: result}
	return c.gen
}

// ready waits for a history resetLater gave, loading it on the first call.
func (c *conversation) ready() {
	c.mu.Lock()
	p := c.later
	c.mu.Unlock()
	if p == nil {
		return
	}
	p.once.Do(func() {
		msgs := p.load()
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.later != p {
			return // reset since: a new session or another resume
		}
		c.later = nil
		c.msgs = msgs
		if len(c.repairLocked(p.result)) > 0 {
			c.rec.sync()
		}
	})
}

// laterMessages is the loader of l's conversation for resetLater: it reads
// l whole (once, however many ask) and claims its calls' IDs in ids.
func laterMessages(l *session.Log, blobs *session.Blobs, ids *provider.IDSet) func() []*schema.Message {
	return func() []*schema.Message {
		full := l.Whole()
		msgs := make([]*schema.Message, len(full.Messages))
		for i, m := range full.Messages {
			msgs[i] = fromRecord(m, blobs)
			for _, tc := range m.ToolCalls {
				ids.Claim(tc.ID)
			}
		}
		return msgs
	}
}

// unanswered counts the calls of the messages of entries that no tool
// message right after them answers: those the repair of a history that
// ends with them answers as interrupted.
func unanswered(entries []session.Entry) int {
	var msgs []*session.Message
	for _, e := range entries {
		if e.Message != nil {
			msgs = append(msgs, e.Message)
		}
	}
	n := 0
	for i, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		answered := map[string]bool{}
		for _, r := range msgs[i+1:] {
			if r.Role != "tool" {
				break
			}
			answered[r.ToolCallID] = true
		}
		for _, tc := range m.ToolCalls {
			if !answered[tc.ID] {
				n++
			}
		}
	}
	return n
}
