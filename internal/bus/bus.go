// Package bus owns fawn's notice bus: typed topics on which the parts of
// fawn that run on their own goroutines and may start before their
// listeners exist (the MCP servers, the language servers, the terminals)
// say what happened, and on which the parts that show it (the IDE)
// subscribe once they exist. A publisher knows no subscriber, and a notice
// published while nobody listens is dropped, as a callback not yet set
// would have dropped it.
//
// A topic is [MustDeliver] or [Lossy]. On a must-deliver topic every
// notice reaches every subscriber, in the order published; a slow
// subscriber's notices queue and the publisher never waits. On a lossy
// topic a subscriber that has not yet taken a notice misses the ones
// published meanwhile: for notices that only say "look again", such as a
// request to redraw, where the one pending covers the ones missed.
//
// Each subscription delivers on a goroutine of its own, so a subscriber
// may take its time or publish on another topic; it ends with the
// function Subscribe returns.
//
// It imports nothing of fawn; cmd/fawn declares the topics and connects
// publishers to subscribers.
package bus

import "sync"

// Mode is how a topic delivers to a subscriber that is behind.
type Mode int

const (
	// MustDeliver queues every notice for every subscriber.
	MustDeliver Mode = iota
	// Lossy drops a notice for a subscriber that still has one to take.
	Lossy
)

// Topic carries notices of type T.
type Topic[T any] struct {
	mode Mode

	mu   sync.Mutex
	subs []*subscription[T]
}

// NewTopic returns a topic with nobody subscribed.
func NewTopic[T any](mode Mode) *Topic[T] {
	return &Topic[T]{mode: mode}
}

// subscription is one subscriber's queue and the goroutine that empties it.
type subscription[T any] struct {
	fn func(T)

	mu      sync.Mutex
	queue   []T
	wake    chan struct{} // holds a token while queue has notices
	stopped chan struct{}
	done    chan struct{} // closed when the goroutine has ended
}

// Subscribe calls fn with every notice published from now on, one at a
// time, on a goroutine of the subscription's own. The function it returns
// ends the subscription: notices not yet delivered are dropped, and it
// returns once fn is no longer running, so what fn reaches may be closed
// after it.
func (t *Topic[T]) Subscribe(fn func(T)) (unsubscribe func()) {
	s := &subscription[T]{fn: fn, wake: make(chan struct{}, 1), stopped: make(chan struct{}), done: make(chan struct{})}
	t.mu.Lock()
	t.subs = append(t.subs, s)
	t.mu.Unlock()
	go s.run()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			for i, o := range t.subs {
				if o == s {
					t.subs = append(t.subs[:i:i], t.subs[i+1:]...)
					break
				}
			}
			t.mu.Unlock()
			close(s.stopped)
			<-s.done
		})
	}
}

// Publish hands v to every subscriber and returns without waiting for
// any of them.
func (t *Topic[T]) Publish(v T) {
	t.mu.Lock()
	subs := t.subs
	t.mu.Unlock()
	for _, s := range subs {
		s.mu.Lock()
		if t.mode == MustDeliver || len(s.queue) == 0 {
			s.queue = append(s.queue, v)
		}
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default: // a token is there already: the goroutine will look
		}
	}
}

func (s *subscription[T]) run() {
	defer close(s.done)
	for {
		select {
		case <-s.stopped:
			return
		case <-s.wake:
		}
		for {
			s.mu.Lock()
			if len(s.queue) == 0 {
				s.mu.Unlock()
				break
			}
			v := s.queue[0]
			var zero T
			s.queue[0] = zero // let it go once delivered
			s.queue = s.queue[1:]
			s.mu.Unlock()
			select {
			case <-s.stopped:
				return
			default:
			}
			s.fn(v)
		}
	}
}
