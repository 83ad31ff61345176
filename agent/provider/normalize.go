package provider

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Normalizer rewrites the tool-call fragments of one streamed response so
// that every fragment carries the index and ID of the call it belongs to,
// whatever the server's dialect: indexes missing or all 0, IDs missing,
// repeated, or only on a call's first fragment. eino merges fragments by
// index alone, so without this two calls become one or the merge fails.
//
// IDs are also made unique within the session (the UI routes by ID, so a
// server that numbers its calls call_0, call_1 in every response must not
// send a second call_0 to the first one's card).
type Normalizer struct {
	ids   *IDSet
	calls []*ncall
	byID  map[string]*ncall // the server's ID → call
	byIx  map[int]*ncall    // the server's index → the latest call with it
	last  *ncall
	// viaModifier is set when the provider calls apply itself (the
	// OpenAI-compatible reader), so the agent must not apply it a second
	// time.
	viaModifier atomic.Bool
}

type ncall struct {
	index int
	id    string
	name  string
	args  int // bytes of arguments seen
}

// NewNormalizer returns the normalizer of one response; ids are the
// session's.
func NewNormalizer(ids *IDSet) *Normalizer {
	return &Normalizer{ids: ids, byID: map[string]*ncall{}, byIx: map[int]*ncall{}}
}

// apply rewrites msg's tool calls in place.
func (n *Normalizer) apply(msg *schema.Message) {
	if msg == nil {
		return
	}
	for i := range msg.ToolCalls {
		n.fragment(&msg.ToolCalls[i])
	}
}

func (n *Normalizer) fragment(tc *schema.ToolCall) {
	var c *ncall
	switch {
	case tc.ID != "":
		c = n.byID[tc.ID]
		// A known ID at an index not seen yet is a second call the server
		// gave the same ID: it gets an ID of its own.
		if c == nil || tc.Index != nil && n.byIx[*tc.Index] == nil {
			c = n.newCall(tc.ID)
		}
	case tc.Index != nil:
		c = n.byIx[*tc.Index]
		if c == nil {
			c = n.newCall("")
		}
	default:
		// Neither index nor ID: a fragment continues the call before it,
		// unless it names a new call after one that already has arguments.
		name := tc.Function.Name
		if n.last == nil || name != "" && n.last.name != "" && (n.last.args > 0 || name != n.last.name) {
			c = n.newCall("")
		} else {
			c = n.last
		}
	}
	if tc.Index != nil {
		n.byIx[*tc.Index] = c
	}
	if c.name == "" {
		c.name = tc.Function.Name
	}
	c.args += len(tc.Function.Arguments)
	ix := c.index
	tc.Index = &ix
	tc.ID = c.id
	if tc.Type == "" {
		tc.Type = "function"
	}
	n.last = c
}

func (n *Normalizer) newCall(serverID string) *ncall {
	c := &ncall{index: len(n.calls), id: n.ids.Claim(serverID)}
	if serverID != "" {
		n.byID[serverID] = c
	}
	n.calls = append(n.calls, c)
	return c
}

// IDSet hands out tool-call IDs that are unique within a session.
type IDSet struct {
	mu   sync.Mutex
	used map[string]bool
	seq  int
}

// NewIDSet returns an empty set: a new session's.
func NewIDSet() *IDSet { return &IDSet{used: map[string]bool{}} }

// Claim returns id if it is new in the session, else a fresh variant of it;
// an empty id gets a made-up one.
func (s *IDSet) Claim(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	base := id
	if base == "" {
		base = "call_fawn"
	}
	if id != "" && !s.used[id] {
		s.used[id] = true
		return id
	}
	for {
		s.seq++
		cand := fmt.Sprintf("%s_%d", base, s.seq)
		if !s.used[cand] {
			s.used[cand] = true
			return cand
		}
	}
}

type normalizerKey struct{}

// WithNormalizer makes the chunks of the response streamed with ctx go
// through n inside the provider, where it can (see Chunk).
func WithNormalizer(ctx context.Context, n *Normalizer) context.Context {
	return context.WithValue(ctx, normalizerKey{}, n)
}

// Chunk normalises a chunk the reader received, unless the provider did
// already (the OpenAI-compatible reader does, as it decodes each chunk).
func (n *Normalizer) Chunk(msg *schema.Message) {
	if !n.viaModifier.Load() {
		n.apply(msg)
	}
}

// StreamOptions are the options every streamed request is made with. There
// are none today: the OpenAI-compatible reader finds the Normalizer in the
// request's context itself. Callers pass them so that an option a provider
// needs one day reaches every request.
func StreamOptions() []model.Option {
	return nil
}
