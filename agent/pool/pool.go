package pool

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/fawn-ide/fawn/config"
)

// Default is the name of models.chat_model among the endpoints.
const Default = "default"

// Set is the slots of every configured endpoint, and their failover state.
type Set struct {
	mu    sync.Mutex
	slots map[string]*Slot
	// freed is closed and replaced whenever a slot is released, waking
	// every request that waits for one.
	freed      chan struct{}
	background []string
	cooldown   time.Duration
	down       map[string]time.Time
	now        func() time.Time
}

// Slot is one endpoint's capacity.
type Slot struct {
	Name  string
	cap   int
	inUse int
}

// New builds the slots of m's entries. A background entry or a fallback
// that names no entry of models.named is an error saying which.
func New(m config.Models) (*Set, error) {
	s := &Set{slots: map[string]*Slot{}, freed: make(chan struct{}), cooldown: m.FailoverCooldown, down: map[string]time.Time{}, now: time.Now}
	if s.cooldown <= 0 {
		s.cooldown = time.Minute
	}
	s.slots[Default] = &Slot{Name: Default, cap: max(1, m.Chat.Parallel)}
	for name, mc := range m.Named {
		s.slots[name] = &Slot{Name: name, cap: max(1, mc.Parallel)}
	}
	for _, b := range m.Background {
		if _, ok := m.Named[b]; !ok {
			return nil, fmt.Errorf("models.background names %q, which is not an entry of models.named", b)
		}
		if !slices.Contains(s.background, b) {
			s.background = append(s.background, b)
		}
	}
	check := func(owner string, fb []string) error {
		for _, f := range fb {
			if _, ok := m.Named[f]; !ok {
				return fmt.Errorf("%s.fallbacks names %q, which is not an entry of models.named", owner, f)
			}
		}
		return nil
	}
	if err := check("models.chat_model", m.Chat.Fallbacks); err != nil {
		return nil, err
	}
	for name, mc := range m.Named {
		if err := check("models.named."+name, mc.Fallbacks); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Background is models.background: the entries subagents prefer.
func (s *Set) Background() []string { return slices.Clone(s.background) }

// Slot is the slot of the entry named name ("default": chat_model); an
// endpoint no entry names (a model a server listed) gets a slot of its own
// with room for one request.
func (s *Set) Slot(name string) *Slot {
	s.mu.Lock()
	defer s.mu.Unlock()
	sl := s.slots[name]
	if sl == nil {
		sl = &Slot{Name: name, cap: 1}
		s.slots[name] = sl
	}
	return sl
}

// Acquire takes a slot of the first of slots with room, in order, waiting
// for one to free when all are full. It returns which one and the function
// that gives it back (call it once).
func (s *Set) Acquire(ctx context.Context, slots []*Slot) (int, func(), error) {
	for first := true; ; first = false {
		s.mu.Lock()
		for i, sl := range slots {
			if sl.inUse < sl.cap {
				sl.inUse++
				s.mu.Unlock()
				var once sync.Once
				return i, func() { once.Do(func() { s.release(sl) }) }, nil
			}
		}
		wait := s.freed
		s.mu.Unlock()
		if first {
			waiting(ctx)
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return -1, nil, ctx.Err()
		}
	}
}

func (s *Set) release(sl *Slot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sl.inUse--
	close(s.freed)
	s.freed = make(chan struct{})
}

// MarkDown records that name failed over: it is skipped for the cool-down.
func (s *Set) MarkDown(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down[name] = s.now().Add(s.cooldown)
}

// Down reports whether name failed over less than the cool-down ago.
func (s *Set) Down(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	until, ok := s.down[name]
	if ok && !s.now().Before(until) {
		delete(s.down, name)
		return false
	}
	return ok
}
