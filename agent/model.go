package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/pool"
	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/pricing"
)

// modelStep is the graph's model node: one model response, streamed. It
// sends the deltas as events while they arrive, retries what can be retried,
// and returns the complete message only when the response is whole, so the
// branch after it decides on the full message (text before tool calls does
// not end the turn) and the history never holds half a message.
func (s *Session) modelStep(ctx context.Context, in []*schema.Message) (*schema.Message, error) {
	t := turnOf(ctx)
	if t.stuck != "" {
		return nil, t.failWith(errors.New(t.stuck))
	}
	if err := s.adoptModel(ctx); err != nil {
		t.emit(Event{Type: EventError, Err: err})
	}
	s.returnHome(ctx, t)
	if changed, err := s.relieve(ctx, t, in); err != nil {
		if ctx.Err() != nil {
			return nil, ErrCancelled
		}
		t.emit(Event{Type: EventError, Err: err})
	} else if changed {
		in = s.requestNow(s.conv)
	}
	budget := maxAttempts
	var tried []string // the entries this step failed on
	for n := 1; ; n++ {
		msg, f := s.attempt(ctx, t, in)
		if f == nil {
			t.steps++
			if u := msg.ResponseMeta; u != nil && u.Usage != nil {
				s.calibrate(in, u.Usage.PromptTokens)
			}
			return msg, nil
		}
		if f.kind == failContextLength && t.compactedAt != t.steps+1 && len(s.conv.snapshot()) > 1 {
			// The server says the request no longer fits: compact and ask
			// again, the same step, the user's request kept.
			t.compactedAt = t.steps + 1
			if err := s.compact(ctx, t, "overflow", ""); err != nil {
				if ctx.Err() != nil {
					return nil, ErrCancelled
				}
				return nil, t.failWith(fmt.Errorf("%w (after: %v)", err, s.describe(f, n)))
			}
			in = s.requestNow(s.conv)
			n--
			continue
		}
		if f.kind == failCancelled {
			t.keepPartial(msg)
			return nil, ErrCancelled
		}
		if cur := s.ep.entry; t.givesUp(f, n, budget) && f.failsOver() && s.failOver(ctx, t, f, tried) {
			// The retries are spent: the same step goes on at a fallback;
			// the answer that broke off (if any) is dropped, its calls
			// never ran.
			tried = append(tried, cur)
			n, budget = 0, maxAttempts
			continue
		}
		var wait time.Duration
		switch {
		case f.output:
			// The answer broke off. Asking again is safe only while no tool
			// has acted on anything this turn; and only once.
			if t.toolRan || t.dropRetried || !(f.kind == failDropped || f.kind == failStalled || f.kind == failBadResponse) {
				t.keepPartial(msg)
				return nil, t.failWith(s.describe(f, n))
			}
			t.dropRetried = true
			budget++
			wait = backoff(s.retryBase, 1, &failure{})
		case f.retryable() && n < budget:
			wait = backoff(s.retryBase, n, f)
			if wait > maxRetryAfter {
				return nil, t.failWith(fmt.Errorf("the model server is rate limiting fawn and asks to wait %s: send your message again later", wait.Round(time.Second)))
			}
		default:
			return nil, t.failWith(s.describe(f, n))
		}
		t.emit(Event{Type: EventRetry, Retry: &RetryInfo{Attempt: n, MaxAttempts: budget, Wait: wait, Reason: f.reason()}})
		if !sleep(ctx, wait) {
			return nil, ErrCancelled
		}
	}
}

// attempt makes one streamed request. On failure it returns the partial
// answer (text only) and why it failed.
func (s *Session) attempt(ctx context.Context, t *turn, in []*schema.Message) (*schema.Message, *failure) {
	reqCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	capture := &provider.Capture{}
	norm := provider.NewNormalizer(s.ids)
	reqCtx = provider.WithNormalizer(provider.WithCapture(reqCtx, capture), norm)
	stall, start := s.requestClock(cancel)
	defer stall.stop()
	reqCtx = pool.WithAcquired(reqCtx, start)
	reqCtx = pool.WithWaiting(reqCtx, func() {
		t.emit(Event{Type: EventInfo, Text: "waiting for the model: every request it takes at once (its `parallel`) is in use by another task or a subagent"})
	})

	begin := time.Now()
	sr, err := s.chat.Stream(reqCtx, in, provider.StreamOptions()...)
	start() // a model no pool holds: its clock starts with the answer
	if err != nil {
		return nil, classify(ctx, err, context.Cause(reqCtx), capture, false)
	}
	defer sr.Close()

	acc := &accumulator{t: t, started: map[int]*acall{}}
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			f := classify(ctx, err, context.Cause(reqCtx), capture, acc.output)
			if f.kind == failCancelled {
				acc.abort("error: cancelled by the user")
			} else {
				acc.abort("error: the model's answer broke off before this call was complete; it was not run")
			}
			return acc.partial(), f
		}
		stall.reset()
		if chunk == nil {
			continue
		}
		norm.Chunk(chunk)
		acc.add(chunk)
	}
	if !acc.finished() {
		// The stream ended without saying it was complete (no finish
		// reason): a proxy closed it, the body was empty or not a stream.
		// What arrived may be cut anywhere, so no call in it is run.
		acc.abort("error: the model's answer ended before this call was complete; it was not run")
		kind := failDropped
		if !acc.output {
			kind = failBadResponse
		}
		return acc.partial(), &failure{kind: kind, output: acc.output, err: errNoFinish}
	}
	cutAtLimit := acc.finishReason() == "length"
	if cutAtLimit && len(acc.order) > 0 {
		// The output limit fell inside the calls: their arguments may be
		// cut anywhere, so none of them runs.
		acc.abort("error: the answer was cut off at the output limit before this call was complete; it was not run")
		t.cutOff = true
		return acc.partial(), &failure{kind: failLength, output: acc.output, err: errLengthInCall}
	}
	msg, err := acc.finish()
	if err != nil {
		return nil, &failure{kind: failOther, err: err}
	}
	s.account(t, msg, begin, acc.first)
	if strings.TrimSpace(msg.Content) == "" && len(msg.ToolCalls) == 0 {
		t.emit(Event{Type: EventInfo, Text: "the model sent an empty answer"})
	}
	t.cutOff = cutAtLimit
	if cutAtLimit {
		t.emit(Event{Type: EventInfo, Text: fmt.Sprintf("the answer was cut off at the output limit (models.chat_model.max_tokens = %d)", s.outputLimit())})
	}
	return msg, nil
}

// minStreamForRate is the shortest stream whose own duration gives a
// meaningful tokens/s; a response that arrives in one burst (whole tool calls,
// a non-streaming server, a short answer) is measured from its request.
const minStreamForRate = 250 * time.Millisecond

// genDuration is the time one response counts for tokens/s: from its first
// chunk to its end, or from the request when the stream itself was a burst.
func genDuration(begin, first, end time.Time) time.Duration {
	if first.IsZero() || end.Sub(first) < minStreamForRate {
		return end.Sub(begin)
	}
	return end.Sub(first)
}

// account adds one response's usage to the turn.
func (s *Session) account(t *turn, msg *schema.Message, begin, first time.Time) {
	t.genTime += genDuration(begin, first, time.Now())
	if w, ok := msg.Extra[provider.ExtraCacheWrite].(int); ok {
		t.usage.CacheWriteTokens += w
		delete(msg.Extra, provider.ExtraCacheWrite) // not for the history
	}
	if msg.ResponseMeta == nil || msg.ResponseMeta.Usage == nil {
		t.usage.Cost.Unpriced++ // no count, no cost
		return
	}
	u := msg.ResponseMeta.Usage
	t.usage.InputTokens += u.PromptTokens
	t.usage.OutputTokens += u.CompletionTokens
	t.usage.CachedTokens += u.PromptTokenDetails.CachedTokens
	if u.PromptTokens > 0 {
		t.usage.ContextTokens, t.usage.ContextEstimated = u.PromptTokens, false
	}
	t.usage.Cost.Add(costOf(s.modelCfg, u.PromptTokens, u.PromptTokenDetails.CachedTokens, u.CompletionTokens))
}

// costOf is one response's cost at mc's price (unpriced when it has none).
func costOf(mc config.Model, prompt, cached, output int) Cost {
	p, ok := pricing.Of(mc)
	if !ok {
		return Cost{Unpriced: 1}
	}
	return Cost{USD: p.Cost(prompt, cached, output), Priced: 1}
}

// accumulator turns one response's chunks into events and, at the end, into
// the message.
type accumulator struct {
	t       *turn
	chunks  []*schema.Message
	started map[int]*acall
	order   []*acall
	output  bool // something the user can see has arrived
	first   time.Time
}

type acall struct {
	id, name string
}

// errLengthInCall is why a response cut at the output limit inside its tool
// calls failed.
var errLengthInCall = errors.New("the answer was cut off at the output limit in the middle of a tool call")

// finishReason is the finish reason the server gave, or "".
func (a *accumulator) finishReason() string {
	for i := len(a.chunks) - 1; i >= 0; i-- {
		if m := a.chunks[i].ResponseMeta; m != nil && m.FinishReason != "" {
			return m.FinishReason
		}
	}
	return ""
}

// outputLimit is the max_tokens a request is sent with (Anthropic's default
// when none is configured), for messages.
func (s *Session) outputLimit() int {
	limit := s.maxTokens
	if limit <= 0 && s.client.Provider == "anthropic" {
		limit = provider.AnthropicDefaultMaxTokens
	}
	return limit
}

// errNoFinish is why a stream that ended without a finish reason failed.
var errNoFinish = errors.New("the answer ended without a finish reason: it was cut off")

// finished reports whether the server said the answer was complete: a
// finish reason (OpenAI's finish_reason, Anthropic's stop_reason) arrived.
func (a *accumulator) finished() bool {
	for _, c := range a.chunks {
		if c.ResponseMeta != nil && c.ResponseMeta.FinishReason != "" {
			return true
		}
	}
	return false
}

func (a *accumulator) add(chunk *schema.Message) {
	a.chunks = append(a.chunks, chunk)
	if a.first.IsZero() {
		a.first = time.Now()
	}
	if chunk.ReasoningContent != "" {
		a.output = true
		a.t.emit(Event{Type: EventReasoning, Text: chunk.ReasoningContent})
	}
	if chunk.Content != "" {
		a.output = true
		a.t.emit(Event{Type: EventText, Text: chunk.Content})
	}
	for _, tc := range chunk.ToolCalls {
		a.output = true
		ix := 0
		if tc.Index != nil {
			ix = *tc.Index
		}
		c := a.started[ix]
		if c == nil {
			c = &acall{id: tc.ID, name: tc.Function.Name}
			a.started[ix] = c
			a.order = append(a.order, c)
			a.t.emit(Event{Type: EventToolCallStarted, ID: c.id, Name: c.name})
		} else if c.name == "" {
			c.name = tc.Function.Name
		}
		if tc.Function.Arguments != "" {
			a.t.emit(Event{Type: EventToolArgs, ID: c.id, Text: tc.Function.Arguments})
		}
	}
}

// abort ends the calls this response announced, which will never run.
func (a *accumulator) abort(result string) {
	for _, c := range a.order {
		a.t.emit(Event{Type: EventToolRunEnded, ID: c.id, Name: c.name, Result: result, IsError: true})
	}
}

// partial is what the user saw of a response that broke off: its text and
// reasoning, without the unfinished calls.
func (a *accumulator) partial() *schema.Message {
	var text, reasoning strings.Builder
	for _, c := range a.chunks {
		text.WriteString(c.Content)
		reasoning.WriteString(c.ReasoningContent)
	}
	if text.Len() == 0 {
		return nil
	}
	return &schema.Message{Role: schema.Assistant, Content: text.String(), ReasoningContent: reasoning.String()}
}

func (a *accumulator) finish() (*schema.Message, error) {
	msg := &schema.Message{Role: schema.Assistant}
	if len(a.chunks) > 0 {
		m, err := schema.ConcatMessages(a.chunks)
		if err != nil {
			return nil, fmt.Errorf("merging the streamed answer: %w", err)
		}
		msg = m
		msg.Role = schema.Assistant
	}
	for i := range msg.ToolCalls {
		tc := &msg.ToolCalls[i]
		tc.Index = nil // the merge is done; servers need no index in the history
		if strings.TrimSpace(tc.Function.Arguments) == "" {
			tc.Function.Arguments = "{}" // a call without parameters, as some servers send it
		}
		a.t.emit(Event{Type: EventToolCallReady, ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments})
	}
	a.t.lastText = msg.Content
	return msg, nil
}

// describe says what went wrong with a model request, and what to do.
func (s *Session) describe(f *failure, attempts int) error {
	server := f.message
	if server == "" && f.err != nil {
		server = f.err.Error()
	}
	// A server may echo the key it was sent, or a proxy the whole request.
	server = words.Clip(s.redact.String(server), 300)
	tries := ""
	if attempts > 1 {
		tries = fmt.Sprintf(" (%d attempts)", attempts)
	}
	switch f.kind {
	case failRateLimit:
		return fmt.Errorf("the model server is still rate limiting fawn (429)%s: %s. Wait a little, then send your message again", tries, server)
	case failServer:
		return fmt.Errorf("the model server failed (%d)%s: %s. Try again later", f.status, tries, server)
	case failConnection:
		return fmt.Errorf("cannot reach the model server at %s%s: %s. Check models.chat_model.base_url and the network", s.baseURL(), tries, server)
	case failStalled:
		if f.output {
			return fmt.Errorf("the model's answer stalled: nothing for %s (models.chat_model.stall_timeout); the part that arrived is kept", s.stallTimeout)
		}
		return fmt.Errorf("the model server sent nothing for %s (models.chat_model.stall_timeout)%s", s.stallTimeout, tries)
	case failDropped:
		if errors.Is(f.err, errNoFinish) {
			return errors.New("the model's answer was cut off: the stream ended without a finish reason; the part that arrived is kept and no tool call in it was run")
		}
		return fmt.Errorf("the connection to the model server dropped mid-answer (%s); the part that arrived is kept", server)
	case failBadResponse:
		if errors.Is(f.err, errNoFinish) {
			return fmt.Errorf("the model server sent no answer%s: the response was empty or not a stream. Check models.chat_model.base_url (%s)", tries, s.baseURL())
		}
		return fmt.Errorf("the model server sent a malformed answer%s: %s", tries, server)
	case failContextLength:
		return fmt.Errorf("the conversation no longer fits the model's context window (%s). Compact it with /compact, or start a new conversation with /new", server)
	case failAuth:
		return fmt.Errorf("the model server refused the credentials (%d): %s. Check models.chat_model.api_key (or OPENAI_API_KEY / ANTHROPIC_API_KEY)", f.status, server)
	case failNotFound:
		return fmt.Errorf("the model server answered 404: %s. Check models.chat_model.model (%q) and base_url (%s; an OpenAI-compatible URL ends in /v1)", server, s.client.Model, s.baseURL())
	case failBadRequest:
		return fmt.Errorf("the model server rejected the request (%d): %s", f.status, server)
	case failTimeout:
		return fmt.Errorf("the model request took longer than %s (models.chat_model.timeout)", s.timeout)
	case failLength:
		return fmt.Errorf("the answer was cut off at the output limit (models.chat_model.max_tokens = %d) in the middle of a tool call, which was not run. Raise max_tokens, or ask for smaller steps", s.outputLimit())
	}
	return fmt.Errorf("the model request failed: %s", server)
}

// sleep waits d unless ctx ends first; it reports whether it waited.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
