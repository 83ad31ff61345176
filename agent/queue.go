package agent

import "sync"

// queue carries a turn's events from the goroutines that produce them (the
// graph, tools, the permission wait) to the channel the consumer reads.
//
// Producers never block and nothing is dropped: when the consumer falls
// behind, consecutive deltas of the same kind (text, reasoning, argument
// fragments and output of one call) are joined into one event, so a slow
// reader sees fewer, larger events instead of a stalled model stream.
type queue struct {
	mu     sync.Mutex
	items  []Event
	closed bool
	wake   chan struct{}
}

func newQueue() *queue {
	return &queue{wake: make(chan struct{}, 1)}
}

// push adds ev. It is safe to call from any goroutine, also after close (the
// event is then dropped: the turn is over and the channel closed).
func (q *queue) push(ev Event) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	if n := len(q.items); n > 0 && joinable(&q.items[n-1], &ev) {
		q.items[n-1].Text += ev.Text
	} else {
		q.items = append(q.items, ev)
	}
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func joinable(last, ev *Event) bool {
	if last.Type != ev.Type {
		return false
	}
	switch ev.Type {
	case EventText, EventReasoning:
		return true
	case EventToolArgs, EventToolOutput:
		return last.ID == ev.ID
	}
	return false
}

// close ends the stream: forward delivers what is queued, then closes out.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// forward sends every event to out, in order, and closes out after the last.
func (q *queue) forward(out chan<- Event) {
	defer close(out)
	var batch []Event
	for {
		q.mu.Lock()
		batch, q.items = q.items, batch[:0]
		closed := q.closed
		q.mu.Unlock()
		for i := range batch {
			out <- batch[i]
			batch[i] = Event{} // let payloads go
		}
		if len(batch) == 0 {
			if closed {
				return
			}
			<-q.wake
		}
	}
}
