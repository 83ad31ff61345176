package agent

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/pool"
	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/secret"
)

// endpoint is which entry of models a session's requests go to, and, after
// a failover, the entry it came from and returns to after the cool-down.
type endpoint struct {
	// entry is the name of the entry in use (pool.Default for chat_model;
	// "" for a subagent spread over several, which does not fail over).
	entry string
	// home is the entry the session failed over from (nil: none).
	home *homeEndpoint
}

type homeEndpoint struct {
	entry  string
	cfg    config.Model
	client provider.Client
}

// entryOf names the entry mc is: the configured entry with its server and
// model, else the entry on the same server (a model the server listed
// shares the server's slots), else an endpoint of its own.
func (s *Session) entryOf(mc config.Model) string {
	choices := s.ConfiguredModels()
	for _, c := range choices {
		if c.Config.Type == mc.Type && c.Config.BaseURL == mc.BaseURL && c.Config.Model == mc.Model {
			return c.Name
		}
	}
	for _, c := range choices {
		if c.Config.Type == mc.Type && c.Config.BaseURL == mc.BaseURL {
			return c.Name
		}
	}
	return mc.Type + " " + secret.URL(mc.BaseURL) + " " + mc.Model
}

// choice is the configured entry named name.
func (s *Session) choice(name string) (ModelChoice, bool) {
	for _, c := range s.ConfiguredModels() {
		if c.Name == name {
			return c, true
		}
	}
	return ModelChoice{}, false
}

// pooled returns c with its requests held to the slots of entry.
func (s *Session) pooled(c provider.Client, entry string) provider.Client {
	c.Chat = s.pools.Wrap(c.Chat, s.pools.Slot(entry))
	return c
}

// install makes c (pooled) the model of the next requests, with the
// session's tools bound to it.
func (s *Session) install(ctx context.Context, mc config.Model, c provider.Client) error {
	chat := c.Chat
	if len(s.tools) > 0 {
		infos := make([]*schema.ToolInfo, 0, len(s.tools))
		for _, tl := range s.tools {
			info, err := tl.Info(ctx)
			if err != nil {
				return fmt.Errorf("agent: tool %s: %w", tl.Name(), err)
			}
			infos = append(infos, info)
		}
		var err error
		if chat, err = chat.WithTools(infos); err != nil {
			return fmt.Errorf("agent: binding the tools to %s/%s: %w", c.Provider, c.Model, err)
		}
	}
	s.mu.Lock()
	s.client, s.chat = c, chat
	s.modelCfg = mc
	s.maxTokens = mc.MaxTokens
	s.timeout = mc.Timeout
	if mc.StallTimeout > 0 {
		s.stallTimeout = mc.StallTimeout
	}
	rec := s.rec
	s.mu.Unlock()
	rec.setModel(c.Name()) // the transcript says which model answered from here on
	return nil
}

// failsOver reports whether f may move the turn to a fallback: the server
// is down, overloaded or silent, not refusing the request.
func (f *failure) failsOver() bool {
	return f.retryable() || f.kind == failDropped
}

// givesUp reports whether the retry policy below would end the turn on f,
// the n-th failure of budget: where a fallback may take over.
func (t *turn) givesUp(f *failure, n, budget int) bool {
	if f.output {
		return t.toolRan || t.dropRetried || !(f.kind == failDropped || f.kind == failStalled || f.kind == failBadResponse)
	}
	return !f.retryable() || n >= budget || (f.hasAfter && f.retryAfter > maxRetryAfter)
}

// failOver moves the session to the next usable fallback of its entry
// (the first entry's list, after a failover) and marks the entry it leaves
// down for the cool-down. It reports whether it moved; tried are the
// entries this step already failed on.
func (s *Session) failOver(ctx context.Context, t *turn, f *failure, tried []string) bool {
	cur := s.ep.entry
	if cur == "" || s.pools == nil {
		return false
	}
	homeEntry := cur
	if s.ep.home != nil {
		homeEntry = s.ep.home.entry
	}
	from, ok := s.choice(homeEntry)
	if !ok {
		return false
	}
	for _, name := range from.Config.Fallbacks {
		if name == cur || name == homeEntry || slices.Contains(tried, name) || s.pools.Down(name) {
			continue
		}
		c, ok := s.choice(name)
		if !ok {
			continue
		}
		cl, err := provider.New(ctx, c.Config, s.providerOptions())
		if err != nil {
			t.emit(Event{Type: EventInfo, Text: fmt.Sprintf("the fallback %s cannot be used: %v", name, err)})
			continue
		}
		s.mu.Lock()
		home := s.ep.home
		if home == nil {
			home = &homeEndpoint{entry: cur, cfg: s.modelCfg, client: s.client}
		}
		s.mu.Unlock()
		if err := s.install(ctx, c.Config, s.pooled(cl, name)); err != nil {
			t.emit(Event{Type: EventInfo, Text: fmt.Sprintf("the fallback %s cannot be used: %v", name, err)})
			continue
		}
		s.pools.MarkDown(cur)
		s.mu.Lock()
		s.ep = endpoint{entry: name, home: home}
		s.mu.Unlock()
		t.emit(Event{Type: EventRetry, Retry: &RetryInfo{Reason: fmt.Sprintf("%s down (%s)", cur, f.reason()), Failover: name}})
		return true
	}
	return false
}

// returnHome moves a session that failed over back to its own entry once
// that entry's cool-down has passed.
func (s *Session) returnHome(ctx context.Context, t *turn) {
	s.mu.Lock()
	home := s.ep.home
	s.mu.Unlock()
	if home == nil || s.pools.Down(home.entry) {
		return
	}
	if err := s.install(ctx, home.cfg, home.client); err != nil {
		t.emit(Event{Type: EventError, Err: err})
		return
	}
	s.mu.Lock()
	s.ep = endpoint{entry: home.entry}
	s.mu.Unlock()
	t.emit(Event{Type: EventInfo, Text: fmt.Sprintf("trying %s again after its cool-down (models.failover_cooldown)", home.entry)})
}

// spread is the model of a subagent with no model of its own while
// models.background names entries: each request goes to the first of the
// background entries, then chat_model, with a free slot. ok is false when
// there are no background entries (the subagent runs on the session's
// model).
func (s *Session) spread(ctx context.Context) (provider.Client, config.Model, bool, error) {
	bg := s.pools.Background()
	s.mu.Lock()
	custom := s.client.Provider == "custom" // Options.Model: no configured endpoint to spread over
	s.mu.Unlock()
	if len(bg) == 0 || custom {
		return provider.Client{}, config.Model{}, false, nil
	}
	names := append(bg, pool.Default)
	var (
		models []model.ToolCallingChatModel
		slots  []*pool.Slot
		first  provider.Client
		mc     config.Model
	)
	for i, name := range names {
		c, ok := s.choice(name)
		if !ok {
			continue
		}
		cl, err := provider.New(ctx, c.Config, s.providerOptions())
		if err != nil {
			return provider.Client{}, config.Model{}, false, fmt.Errorf("agent: models.named.%s: %w", name, err)
		}
		if i == 0 {
			first, mc = cl, c.Config
		}
		models = append(models, cl.Chat)
		slots = append(slots, s.pools.Slot(name))
	}
	first.Chat = s.pools.Spread(models, slots)
	return first, mc, true, nil
}

// clock is one request's timeout (models.*.timeout) and stall timer
// (stall_timeout), started when the request has its slot: time spent
// queueing for a busy endpoint is neither.
type clock struct {
	mu             sync.Mutex
	stall, timeout *time.Timer
	stallAfter     time.Duration
	stopped        bool
}

// requestClock returns a request's clock and the function that starts it
// (once; later calls do nothing).
func (s *Session) requestClock(cancel context.CancelCauseFunc) (*clock, func()) {
	c := &clock{stallAfter: s.stallTimeout}
	timeout := s.timeout
	return c, sync.OnceFunc(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.stopped {
			return
		}
		c.stall = time.AfterFunc(c.stallAfter, func() { cancel(errStalled) })
		if timeout > 0 {
			c.timeout = time.AfterFunc(timeout, func() { cancel(errRequestTimeout) })
		}
	})
}

// reset restarts the stall timer: a chunk arrived.
func (c *clock) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stall != nil {
		c.stall.Reset(c.stallAfter)
	}
}

func (c *clock) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	if c.stall != nil {
		c.stall.Stop()
	}
	if c.timeout != nil {
		c.timeout.Stop()
	}
}
