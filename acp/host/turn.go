package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
)

// ErrBusy: a turn was started while another runs.
var ErrBusy = errors.New("the agent is still working on the last message: wait for it, or press Esc to stop it")

// turn is one prompt's run: its event queue and the tool calls it saw.
type turn struct {
	h     *Host
	q     *queue
	start time.Time
	// born is the file system's time the turn's prompt was sent after
	// (fsBoundary): a file born at or after it was created in the turn.
	born time.Time

	mu    sync.Mutex
	calls map[string]*call
	order []*call
	// approved are the files an answer of this turn allowed the agent to
	// change (a write of one of them is not asked again).
	approved map[string]bool
	calls0   int // tool calls seen
	// cancelled is closed when the user cancelled the turn: permission
	// requests then answer "cancelled" at once.
	cancelled chan struct{}
	cancelOne sync.Once
}

func (t *turn) cancel() { t.cancelOne.Do(func() { close(t.cancelled) }) }

func (t *turn) isCancelled() bool {
	select {
	case <-t.cancelled:
		return true
	default:
		return false
	}
}

// emit queues ev; the caller holds t.mu, which orders the stream.
func (t *turn) emit(ev agent.Event) { t.q.push(ev) }

// Run starts a turn: the prompt goes to the agent (started first if it is
// not running) and what it reports comes back as events, the last one
// EventTurnEnded. Cancelling ctx sends session/cancel; an agent that does
// not end its turn within CancelGrace is stopped.
func (h *Host) Run(ctx context.Context, prompt string) <-chan agent.Event {
	return h.run(ctx, prompt, nil)
}

// run starts a turn of prompt, with the files and images of in (nil: the
// prompt alone) sent as the agent takes them (mention.go).
func (h *Host) run(ctx context.Context, prompt string, in *agent.Input) <-chan agent.Event {
	out := make(chan agent.Event, 64)
	q := newQueue(out)
	h.mu.Lock()
	if h.running {
		h.mu.Unlock()
		q.push(agent.Event{Type: agent.EventTurnStarted, Text: prompt})
		q.push(agent.Event{Type: agent.EventError, Err: ErrBusy})
		q.push(agent.Event{Type: agent.EventTurnEnded, Err: ErrBusy, Usage: &agent.Usage{}, SessionUsage: ptr(h.usage)})
		q.close()
		return out
	}
	t := &turn{h: h, q: q, start: time.Now(), calls: map[string]*call{}, approved: map[string]bool{}, cancelled: make(chan struct{})}
	h.running = true
	h.turn = t
	h.wg.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.wg.Done()
		h.runTurn(ctx, t, prompt, in)
	}()
	return out
}

type promptResult struct {
	resp acp.PromptResponse
	err  error
}

func (h *Host) runTurn(ctx context.Context, t *turn, prompt string, in *agent.Input) {
	t.mu.Lock()
	t.emit(agent.Event{Type: agent.EventTurnStarted, Text: prompt})
	t.mu.Unlock()
	if b := h.opts.Checkpoints; b != nil && strings.TrimSpace(prompt) != "" {
		b.Begin(prompt, 0)
	}
	var (
		usage  agent.Usage
		cutOff string
	)
	err := func() error {
		if strings.TrimSpace(prompt) == "" {
			return errors.New("nothing to do: the message is empty")
		}
		born := fsBoundary("")
		t.mu.Lock()
		t.born = born
		t.mu.Unlock()
		p, sid, err := h.connect(ctx, t)
		if err != nil {
			if ctx.Err() != nil {
				return agent.ErrCancelled
			}
			return err
		}
		blocks, err := h.blocks(p.caps.PromptCapabilities, prompt, in)
		if err != nil {
			return err
		}
		res := make(chan promptResult, 1)
		go func() {
			// Not ctx: a cancelled turn is ended by session/cancel, and the
			// agent's answer to the prompt is still awaited.
			r, err := p.conn.Prompt(context.Background(), acp.PromptRequest{SessionId: acp.SessionId(sid), Prompt: blocks})
			res <- promptResult{r, err}
		}()
		var r promptResult
		select {
		case r = <-res:
		case <-p.exited:
			r = h.afterExit(p, res)
		case <-ctx.Done():
			t.cancel()
			_ = p.conn.Cancel(context.Background(), acp.CancelNotification{SessionId: acp.SessionId(sid)})
			select {
			case r = <-res:
			case <-p.exited:
				r = h.afterExit(p, res)
			case <-time.After(h.opts.CancelGrace):
				h.drop(p)
				p.stop()
				<-res
				return fmt.Errorf("the agent %s did not stop within %s of being cancelled, so fawn stopped it; your next message starts it again in a new conversation (its log: %s)",
					h.opts.Name, h.opts.CancelGrace, h.logName())
			}
		}
		if r.err != nil {
			if !p.alive() {
				why := p.failure(r.err, nil)
				h.drop(p)
				p.stop()
				return fmt.Errorf("the agent %s stopped in the middle of the turn: %s. Your next message starts it again in a new conversation (its log: %s); or start fawn with another --agent",
					h.opts.Name, why, h.logName())
			}
			if ctx.Err() != nil {
				return agent.ErrCancelled
			}
			if authRequired(r.err) {
				return h.authError()
			}
			return fmt.Errorf("the agent %s could not take the message: %s", h.opts.Name, describe(r.err))
		}
		if u := r.resp.Usage; u != nil {
			usage.InputTokens, usage.OutputTokens = u.InputTokens, u.OutputTokens
			if u.CachedReadTokens != nil {
				usage.CachedTokens = *u.CachedReadTokens
			}
			if u.CachedWriteTokens != nil {
				usage.CacheWriteTokens = *u.CachedWriteTokens
			}
		}
		switch r.resp.StopReason {
		case acp.StopReasonCancelled:
			return agent.ErrCancelled
		case acp.StopReasonMaxTokens:
			cutOff = "max_tokens"
		case acp.StopReasonRefusal:
			return fmt.Errorf("the agent %s refused to go on with this message", h.opts.Name)
		case acp.StopReasonMaxTurnRequests:
			t.mu.Lock()
			t.emit(agent.Event{Type: agent.EventInfo, Text: "the agent stopped: it reached its limit of requests for one turn; say \"go on\" to let it continue"})
			t.mu.Unlock()
		}
		if ctx.Err() != nil {
			return agent.ErrCancelled
		}
		return nil
	}()
	h.endTurn(t, usage, cutOff, err)
}

// endTurn ends the calls left open, counts the turn and closes its stream.
func (h *Host) endTurn(t *turn, usage agent.Usage, cutOff string, err error) {
	t.cancel() // what still asks now is too late
	t.mu.Lock()
	why := "error: the agent ended its turn without finishing this call"
	if errors.Is(err, agent.ErrCancelled) {
		why = "error: cancelled by the user"
	} else if err != nil {
		why = "error: " + err.Error()
	}
	for _, c := range t.order {
		if !c.ended {
			t.finish(c, why, true)
		}
	}
	h.mu.Lock()
	usage.Duration = time.Since(t.start)
	usage.Turns = 1
	usage.ToolCalls = t.calls0
	h.usage.InputTokens += usage.InputTokens
	h.usage.OutputTokens += usage.OutputTokens
	h.usage.CachedTokens += usage.CachedTokens
	h.usage.CacheWriteTokens += usage.CacheWriteTokens
	h.usage.Duration += usage.Duration
	h.usage.Turns++
	h.usage.ToolCalls += usage.ToolCalls
	usage.ContextTokens = h.usage.ContextTokens
	session := h.usage
	h.running = false
	h.turn = nil
	h.mu.Unlock()
	err = h.opts.Redactor.Error(err)
	if err != nil && !errors.Is(err, agent.ErrCancelled) {
		t.emit(agent.Event{Type: agent.EventError, Err: err})
	}
	t.emit(agent.Event{Type: agent.EventTurnEnded, Usage: &usage, SessionUsage: &session, Duration: usage.Duration, Err: err, CutOff: cutOff})
	t.mu.Unlock()
	t.q.close()
}

// connect returns the running agent and its session, starting either when
// there is none (the first turn, after Clear, after the agent ended).
func (h *Host) connect(ctx context.Context, t *turn) (*agentProc, string, error) {
	h.mu.Lock()
	p, sid := h.proc, h.session
	h.mu.Unlock()
	if p != nil && !p.alive() {
		h.drop(p)
		p.stop()
		p = nil
	}
	if p == nil {
		var err error
		if p, err = h.start(ctx); err != nil {
			return nil, "", err
		}
		h.mu.Lock()
		h.proc = p
		h.session = ""
		h.mu.Unlock()
		if sid != "" {
			t.mu.Lock()
			t.emit(agent.Event{Type: agent.EventInfo, Text: fmt.Sprintf("the agent %s was started again: it begins a new conversation", h.opts.Name)})
			t.mu.Unlock()
		}
		sid = ""
	}
	if sid == "" {
		var err error
		if sid, err = h.newSession(ctx, p); err != nil {
			if !p.alive() {
				h.drop(p)
				p.stop()
			}
			return nil, "", err
		}
		h.mu.Lock()
		h.session = sid
		h.mu.Unlock()
		if h.opts.OnSession != nil {
			h.opts.OnSession(sid)
		}
		h.syncMode(p, sid)
	}
	return p, sid, nil
}

// afterExit is the prompt's result once the agent exited: what the SDK
// returns, or, when something the agent left still holds its stdout open,
// a disconnection after a moment.
func (h *Host) afterExit(p *agentProc, res chan promptResult) promptResult {
	select {
	case r := <-res:
		return r
	case <-time.After(time.Second):
		h.drop(p)
		p.stop()
		return <-res
	}
}

// drop forgets p as the running agent (if it still is).
func (h *Host) drop(p *agentProc) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.proc == p {
		h.proc = nil
	}
}

// logName is where the agent's stderr goes, for messages.
func (h *Host) logName() string {
	if h.opts.LogPath == "" {
		return "none kept"
	}
	return h.opts.LogPath
}

func ptr[T any](v T) *T { return &v }

// queue passes events to the turn's channel without ever blocking the
// agent's side: the SDK delivers updates on one goroutine, and a UI slow to
// read must not hold the agent's next message.
type queue struct {
	mu     sync.Mutex
	items  []agent.Event
	closed bool
	wake   chan struct{}
}

func newQueue(out chan<- agent.Event) *queue {
	q := &queue{wake: make(chan struct{}, 1)}
	go q.forward(out)
	return q
}

func (q *queue) push(ev agent.Event) {
	q.mu.Lock()
	if !q.closed {
		q.items = append(q.items, ev)
	}
	q.mu.Unlock()
	q.poke()
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.poke()
}

func (q *queue) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *queue) forward(out chan<- agent.Event) {
	defer close(out)
	for {
		q.mu.Lock()
		items, closed := q.items, q.closed
		q.items = nil
		q.mu.Unlock()
		for _, ev := range items {
			out <- ev
		}
		if closed && len(items) == 0 {
			return
		}
		if len(items) == 0 {
			<-q.wake
		}
	}
}
