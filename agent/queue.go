package agent

import "sync"

// queue carries a turn's events from the goroutines that produce them (the
// graph, tools, the permission wait) to the channel the consumer reads.
//
// Producers never block and nothing is dropped. While the consumer keeps
// up, push puts each event straight into the channel, in the producer's
// goroutine: a delta costs one channel send, not a hand-over to a
// forwarding goroutine as well. When the channel is full (the consumer
// fell behind), events wait in the queue and forward sends them, in order;
// consecutive deltas of the same kind (text, reasoning, argument fragments
// and output of one call) waiting there are joined into one event, so a
// slow reader sees fewer, larger events instead of a stalled model stream.
type queue struct {
	mu    sync.Mutex
	out   chan<- Event
	items []Event
	// joined is the text of the last item while deltas are joined to it
	// (one growing buffer rather than a new string per delta); nil when
	// the last item's Text is whole.
	joined []byte
	// sending is set while forward sends what it took from items: a push
	// then waits its turn in items, so that order holds.
	sending bool
	closed  bool
	wake    chan struct{}
}

// newQueue returns a queue into out; forward must run for what cannot be
// sent at once (and to close out at the end).
func newQueue(out chan<- Event) *queue {
	return &queue{out: out, wake: make(chan struct{}, 1)}
}

// push adds ev. It is safe to call from any goroutine, also after close (the
// event is then dropped: the turn is over and the channel closed).
func (q *queue) push(ev Event) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	if len(q.items) == 0 && !q.sending {
		select {
		case q.out <- ev:
			q.mu.Unlock()
			return
		default: // full: the consumer is behind
		}
	}
	if n := len(q.items); n > 0 && joinable(&q.items[n-1], &ev) {
		if q.joined == nil {
			q.joined = append(make([]byte, 0, 2*(len(q.items[n-1].Text)+len(ev.Text))), q.items[n-1].Text...)
		}
		q.joined = append(q.joined, ev.Text...)
	} else {
		q.settle()
		q.items = append(q.items, ev)
	}
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// settle makes the joined text the last item's. q.mu is held.
func (q *queue) settle() {
	if q.joined != nil {
		q.items[len(q.items)-1].Text = string(q.joined)
		q.joined = nil
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

// forward sends the events that could not be sent at once to out, in
// order, and closes out after the last.
func (q *queue) forward() {
	defer close(q.out)
	var batch []Event
	for {
		q.mu.Lock()
		q.settle()
		batch, q.items = q.items, batch[:0]
		q.sending = len(batch) > 0
		closed := q.closed
		q.mu.Unlock()
		for i := range batch {
			q.out <- batch[i]
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
