package pool

import (
	"context"
	"io"
	"runtime"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Model is a chat model whose requests hold a slot of its endpoint (or of
// the first free of its endpoints) for their round-trip.
type Model struct {
	set    *Set
	slots  []*Slot
	models []model.ToolCallingChatModel
}

// Wrap returns m with its requests held to slot.
func (s *Set) Wrap(m model.ToolCallingChatModel, slot *Slot) *Model {
	return &Model{set: s, slots: []*Slot{slot}, models: []model.ToolCallingChatModel{m}}
}

// Spread returns a model that sends each request to the first of models
// (each on the slot of the same index) with a free slot.
func (s *Set) Spread(models []model.ToolCallingChatModel, slots []*Slot) *Model {
	return &Model{set: s, slots: slots, models: models}
}

// Generate holds a slot for the whole request.
func (m *Model) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	i, release, err := m.set.Acquire(ctx, m.slots)
	if err != nil {
		return nil, err
	}
	defer release()
	acquired(ctx)
	return m.models[i].Generate(ctx, in, opts...)
}

// Stream holds a slot from the request until the stream ends, fails, or
// its request's context ends (a reader closed half-read: every caller ends
// the request's context with it; a reader dropped with its context alive
// gives the slot back when it is collected).
//
// The chunks are passed on in the goroutine that calls Recv, as the
// client's reader gives them: no goroutine and no pipe between the client
// and the agent, so a chunk costs no hand-over from one goroutine to
// another here.
func (m *Model) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	i, release, err := m.set.Acquire(ctx, m.slots)
	if err != nil {
		return nil, err
	}
	acquired(ctx)
	sr, err := m.models[i].Stream(ctx, in, opts...)
	if err != nil {
		release()
		return nil, err
	}
	stop := context.AfterFunc(ctx, release)
	done := func() {
		stop()
		release()
	}
	out := schema.StreamReaderWithConvert(sr, passOn,
		schema.WithOnEOF(func() (any, error) {
			done()
			return nil, io.EOF
		}),
		schema.WithErrWrapper(func(err error) error {
			done()
			return err
		}))
	runtime.AddCleanup(out, func(release func()) { release() }, release)
	return out, nil
}

// passOn is the conversion of a stream into itself.
func passOn(m *schema.Message) (*schema.Message, error) { return m, nil }

// WithTools binds tools to every endpoint's model.
func (m *Model) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	out := &Model{set: m.set, slots: m.slots, models: make([]model.ToolCallingChatModel, len(m.models))}
	for i, x := range m.models {
		b, err := x.WithTools(tools)
		if err != nil {
			return nil, err
		}
		out.models[i] = b
	}
	return out, nil
}

type waitingKey struct{}

// WithWaiting returns ctx whose request calls wait once when every slot
// it may take is full (other requests — another task's turn, a subagent —
// hold them), before it waits for one.
func WithWaiting(ctx context.Context, wait func()) context.Context {
	return context.WithValue(ctx, waitingKey{}, wait)
}

func waiting(ctx context.Context) {
	if wait, ok := ctx.Value(waitingKey{}).(func()); ok {
		wait()
	}
}

type acquiredKey struct{}

// WithAcquired returns ctx whose request calls start once it has its slot:
// a request's timeout and stall clock start there, not while it queues.
func WithAcquired(ctx context.Context, start func()) context.Context {
	return context.WithValue(ctx, acquiredKey{}, start)
}

func acquired(ctx context.Context) {
	if start, ok := ctx.Value(acquiredKey{}).(func()); ok {
		start()
	}
}
