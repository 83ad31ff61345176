package provider

import (
	"io"
	"time"
)

// readEvery is how often a streamed answer that trickles in is read: once a
// frame (fawn draws at most 60 a second). Each read takes every chunk that
// arrived since the last, so a fast model's answer (hundreds of chunks a
// second) wakes fawn once a frame rather than once a chunk — each wake-up
// of a Go program from idle costs more CPU than reading and decoding the
// chunk — and the text reaches the screen no later than its next frame
// would have shown it.
const readEvery = time.Second / 60

// pacedSmall is the most a read may return and still count as the stream
// trickling: a read that returns more found a backlog, and the next one
// follows at once, so a burst (a long answer sent whole, a fast server)
// is read at full speed.
const pacedSmall = 2 << 10

// pacedBody reads a response body no more often than every readEvery while
// what it reads comes in small pieces.
type pacedBody struct {
	body  io.ReadCloser
	every time.Duration
	// last is when the last small read returned (zero: after a big one,
	// or before the first).
	last  time.Time
	now   func() time.Time
	sleep func(time.Duration)
}

func newPacedBody(body io.ReadCloser) *pacedBody {
	return &pacedBody{body: body, every: readEvery, now: time.Now, sleep: time.Sleep}
}

func (p *pacedBody) Read(b []byte) (int, error) {
	if !p.last.IsZero() {
		if wait := p.every - p.now().Sub(p.last); wait > 0 {
			p.sleep(wait)
		}
	}
	n, err := p.body.Read(b)
	if n > 0 && n <= pacedSmall {
		p.last = p.now()
	} else {
		p.last = time.Time{}
	}
	return n, err
}

func (p *pacedBody) Close() error { return p.body.Close() }
