package agent

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/fawn-ide/fawn/checkpoint"
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
	b, err := checkpoint.Open(filepath.Join(st.Dir(), id), c.s.env.Root, st.Blobs(id), checkpoint.Options{})
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

func (c *checkpoints) CommandStarting(ctx context.Context) func() {
	if b := c.book(); b != nil {
		return b.CommandStarting(ctx)
	}
	return func() {}
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
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.msgs)
}
