package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// checkpoints keeps the checkpoint book of the session in use: it is the
// tools' ChangeRecorder for the whole life of the Session and forwards to
// the book of the current session ID, opened at the first turn of each.
type checkpoints struct {
	s  *Session
	mu sync.Mutex
	id string
	b  *checkpoint.Book
}

// book returns the book of the current session (nil without a store).
func (c *checkpoints) book() *checkpoint.Book {
	if c == nil || c.s.store == nil {
		return nil
	}
	c.s.mu.Lock()
	id := c.s.id
	c.s.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.b != nil && c.id == id {
		return c.b
	}
	if c.b != nil {
		c.b.Close()
		c.b = nil
	}
	st := c.s.store
	b, err := checkpoint.Open(filepath.Join(st.Dir(), id), c.s.env.Root, st.Blobs(id), checkpoint.Options{Watch: c.s.env.Watch})
	if err != nil {
		return nil
	}
	c.id, c.b = id, b
	return b
}

func (c *checkpoints) Changed(ctx context.Context, abs string, before, after []byte) {
	if b := c.book(); b != nil {
		b.Changed(ctx, abs, before, after)
	}
}

func (c *checkpoints) CommandStarting(ctx context.Context) func() []string {
	if b := c.book(); b != nil {
		return b.CommandStarting(ctx)
	}
	return func() []string { return nil }
}

// Checkpoints returns the checkpoints of the session in use (nil when
// sessions are not kept): what each turn changed, and the way back.
func (s *Session) Checkpoints() *checkpoint.Book { return s.cps.book() }

// beginCheckpoint starts the checkpoint of a prompt, before the turn
// touches anything.
func (s *Session) beginCheckpoint(prompt string) {
	if b := s.cps.book(); b != nil {
		b.Begin(prompt, s.conv.length())
	}
}

func (c *conversation) length() int {
	c.ready()
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.msgs)
}

// RewindConversation drops the conversation from message keep on: a rewind
// to just before the prompt that began there (prompt, to check that it
// did). The next request is then what it would have been had the dropped
// turns never happened. It fails while a turn runs, and when the
// conversation was compacted since (the messages it counted are gone).
func (s *Session) RewindConversation(keep int, prompt string) error {
	s.mu.Lock()
	running := s.running
	s.mu.Unlock()
	if running {
		return ErrBusy
	}
	if err := s.conv.truncate(keep, prompt); err != nil {
		return err
	}
	// The to-do list goes back too: it is the one the last todo_write
	// call that is kept set.
	if s.env.Todos != nil {
		items := todosOf(s.conv.snapshot())
		s.env.Todos.Replace(items)
		s.recorder().setTodos(items)
	}
	s.mu.Lock()
	s.usage.ContextTokens, s.usage.ContextEstimated = 0, false
	s.mu.Unlock()
	s.recorder().sync()
	return nil
}

// truncate keeps the first keep messages, when the one at keep is the
// user's prompt.
func (c *conversation) truncate(keep int, prompt string) error {
	c.ready()
	c.mu.Lock()
	defer c.mu.Unlock()
	if keep < 0 || keep >= len(c.msgs) || c.msgs[keep].Role != schema.User || !strings.Contains(messageText(c.msgs[keep]), prompt) {
		return errors.New("the conversation no longer holds that prompt where it was (it was compacted or rewound since): only the files can be rewound")
	}
	c.msgs = c.msgs[:keep:keep]
	c.rec.truncated(keep)
	return nil
}

// truncated records the conversation cut to its first keep messages.
func (r *recorder) truncated(keep int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.writer() == nil {
		return
	}
	r.append(session.Record{Type: session.TypeTruncate, Keep: session.Of(keep)})
}

// todosOf is the to-do list that msgs leave: the one their last todo_write
// call with good arguments, or exit_plan call the user approved, set (none:
// empty).
func todosOf(msgs []*schema.Message) []tools.Todo {
	approved := map[string]bool{} // exit_plan calls whose result says so
	for _, m := range msgs {
		if m.Role == schema.Tool && strings.HasPrefix(m.Content, tools.PlanApproved) {
			approved[m.ToolCallID] = true
		}
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		calls := msgs[i].ToolCalls
		for j := len(calls) - 1; j >= 0; j-- {
			c := calls[j]
			switch c.Function.Name {
			case tools.TodoWriteName:
				if items, err := tools.ParseTodos(c.Function.Arguments); err == nil {
					return items
				}
			case tools.ExitPlanName:
				if plan, err := tools.ParsePlan(c.Function.Arguments); err == nil && approved[c.ID] {
					if items := tools.PlanTodos(plan); len(items) > 0 {
						return items
					}
				}
			}
		}
	}
	return nil
}
