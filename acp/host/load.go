package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/session"
)

// ErrNoLoad: the agent cannot open a conversation it had before.
var ErrNoLoad = errors.New("the agent does not offer to load a past conversation (session/load)")

// replay collects what an agent sends while it loads a past conversation
// (its history as session updates) into a transcript the chat shows as a
// resumed session's.
type replay struct {
	entries []session.Entry
	calls   map[string]*call
	// order are the calls in the order first seen, with the message whose
	// ToolCalls holds each.
	order []*call
	owner map[string]*session.Message
}

// last is the last message of the transcript if it has role; else a new
// one is added.
func (r *replay) last(role string, fresh func(*session.Message) bool) *session.Message {
	if n := len(r.entries); n > 0 {
		if m := r.entries[n-1].Message; m != nil && m.Role == role && (fresh == nil || fresh(m)) {
			return m
		}
	}
	m := &session.Message{Role: role}
	r.entries = append(r.entries, session.Entry{Message: m, N: len(r.entries)})
	return m
}

// add folds one history update into the transcript.
func (r *replay) add(h *Host, u acp.SessionUpdate) {
	noCalls := func(m *session.Message) bool { return len(m.ToolCalls) == 0 }
	switch {
	case u.UserMessageChunk != nil:
		m := r.last("user", nil)
		m.Content += blockText(u.UserMessageChunk.Content)
	case u.AgentMessageChunk != nil:
		m := r.last("assistant", noCalls)
		m.Content += blockText(u.AgentMessageChunk.Content)
	case u.AgentThoughtChunk != nil:
		m := r.last("assistant", func(m *session.Message) bool { return noCalls(m) && m.Content == "" })
		m.Reasoning += blockText(u.AgentThoughtChunk.Content)
	case u.ToolCall != nil:
		r.call(h, patchOfCall(u.ToolCall))
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		r.call(h, patch{id: string(tu.ToolCallId), title: tu.Title, kind: tu.Kind, status: tu.Status, content: tu.Content, locations: tu.Locations, rawInput: tu.RawInput, rawOutput: tu.RawOutput})
	}
}

// call merges a tool call's update, as a turn does, without showing it.
func (r *replay) call(h *Host, p patch) {
	if p.id == "" {
		return
	}
	c, ok := r.calls[p.id]
	if !ok {
		c = &call{id: p.id, status: acp.ToolCallStatusPending}
		r.calls[p.id] = c
		r.order = append(r.order, c)
		r.owner[p.id] = r.last("assistant", nil)
		r.owner[p.id].ToolCalls = append(r.owner[p.id].ToolCalls, session.ToolCall{ID: p.id})
	}
	if p.title != nil && *p.title != "" {
		c.title = *p.title
	}
	if p.kind != nil {
		c.kind = *p.kind
	}
	if p.rawInput != nil {
		c.rawInput = p.rawInput
	}
	if p.rawOutput != nil {
		c.rawOutput = p.rawOutput
	}
	for _, l := range p.locations {
		c.addPath(h.abs(l.Path))
	}
	if p.content != nil {
		c.diffs, c.text = nil, ""
		for _, cc := range p.content {
			switch {
			case cc.Diff != nil:
				d := *cc.Diff
				d.Path = h.abs(d.Path)
				c.diffs = append(c.diffs, d)
				c.addPath(d.Path)
			case cc.Content != nil:
				if s := blockText(cc.Content.Content); s != "" {
					if c.text != "" {
						c.text += "\n"
					}
					c.text += s
				}
			}
		}
	}
	if p.status != nil && rank(*p.status) > rank(c.status) {
		c.status = *p.status
	}
}

// log is the transcript as a session log: each call under the message that
// made it, its result after (a call the history leaves open has none).
func (r *replay) log(h *Host, id string) *session.Log {
	for _, c := range r.order {
		c.name = nameOf(c)
		m := r.owner[c.id]
		for i := range m.ToolCalls {
			if m.ToolCalls[i].ID == c.id {
				m.ToolCalls[i].Name, m.ToolCalls[i].Arguments = c.name, c.argsJSON(h)
			}
		}
		res := ""
		switch c.status {
		case acp.ToolCallStatusCompleted:
			res = c.result()
		case acp.ToolCallStatusFailed:
			res = "error: " + c.result()
		default:
			continue
		}
		r.entries = append(r.entries, session.Entry{Message: &session.Message{Role: "tool", ToolCallID: c.id, ToolName: c.name, Content: res}})
	}
	n := 0
	for _, e := range r.entries {
		if e.Message != nil && e.Message.Role != "tool" {
			n++
		}
	}
	return &session.Log{Info: session.Info{ID: id, Messages: n, Updated: time.Now()}, Transcript: r.entries}
}

// Load opens the agent's conversation id (session/load), starting the
// agent: what it replays of it comes back as a resumed session's log for
// the chat, and the next message carries the conversation on. An agent
// that does not offer it fails with ErrNoLoad (wrapped).
func (h *Host) Load(ctx context.Context, id string) (*agent.Resumed, error) {
	h.mu.Lock()
	if h.running || h.proc != nil {
		h.mu.Unlock()
		return nil, fmt.Errorf("the agent %s is running already: a conversation is loaded before the first message", h.opts.Name)
	}
	h.mu.Unlock()
	p, err := h.start(ctx)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.proc = p
	h.mu.Unlock()
	if !p.caps.LoadSession {
		return nil, fmt.Errorf("%s: %w; your next message starts a new one", h.opts.Name, ErrNoLoad)
	}
	r := &replay{calls: map[string]*call{}, owner: map[string]*session.Message{}}
	h.mu.Lock()
	h.replay = r
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.replay = nil
		h.mu.Unlock()
	}()
	lctx, cancel := context.WithTimeout(ctx, h.opts.StartTimeout)
	defer cancel()
	resp, err := p.conn.LoadSession(lctx, acp.LoadSessionRequest{SessionId: acp.SessionId(id), Cwd: h.opts.Root, McpServers: h.mcpServers(p.caps)})
	if err != nil {
		return nil, fmt.Errorf("the agent %s did not load its conversation %s: %s; your next message starts a new one", h.opts.Name, id, h.opts.Redactor.String(p.failure(err, lctx)))
	}
	p.caughtUp() // the history sent before the answer is all in
	h.mu.Lock()
	h.session = id
	if resp.Modes != nil {
		h.modes, h.agentMode = resp.Modes.AvailableModes, resp.Modes.CurrentModeId
	}
	log := r.log(h, id)
	h.mu.Unlock()
	h.syncMode(p, id)
	return &agent.Resumed{Log: log}, nil
}
