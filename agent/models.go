package agent

import (
	"context"
	"slices"
	"sort"
	"sync"

	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/config"
)

// ModelChoice is a model the session can switch to (/model): one of the
// configuration or one a server lists.
type ModelChoice struct {
	// Name is the configuration's name for it ("mini"), "default" for
	// models.chat_model, or the model's id when a server listed it.
	Name string
	// Config is what SetModel takes: provider, model, server, key, limits.
	Config config.Model
	// Source says where it comes from: "models.chat_model",
	// "models.named.mini", "listed by localhost:11434".
	Source string
}

// modelSwitch is a model SetModel prepared, taken up at the next request.
type modelSwitch struct {
	cfg    config.Model
	client provider.Client
	entry  string
}

// ConfiguredModels returns models.chat_model and the models.named entries
// (by name), with chat_model's limits and timeouts filled in where an entry
// sets none.
func (s *Session) ConfiguredModels() []ModelChoice {
	def := s.cfg.Models.Chat
	out := []ModelChoice{{Name: "default", Config: def, Source: "models.chat_model"}}
	names := make([]string, 0, len(s.cfg.Models.Named))
	for name := range s.cfg.Models.Named {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		mc := s.cfg.Models.Named[name]
		if mc.Type == "" {
			mc.Type = "openai"
		}
		if mc.Type == "openai" && mc.BaseURL == "" {
			mc.BaseURL = "https://api.openai.com/v1"
		}
		if mc.MaxTokens == 0 {
			mc.MaxTokens = def.MaxTokens
		}
		if mc.ContextWindow == 0 {
			mc.ContextWindow = def.ContextWindow
		}
		if mc.Timeout == 0 {
			mc.Timeout = def.Timeout
		}
		if mc.StallTimeout == 0 {
			mc.StallTimeout = def.StallTimeout
		}
		mc.Demo = mc.Type == "demo"
		out = append(out, ModelChoice{Name: name, Config: mc, Source: "models.named." + name})
	}
	return out
}

// ListModels asks the server of every configured model which models it
// serves (GET …/models: OpenAI-compatible servers and Anthropic), all at
// once, each bounded. A listed model gets its server's configuration with
// the model replaced. Servers that cannot answer are reported in errs.
func (s *Session) ListModels(ctx context.Context) (choices []ModelChoice, errs []error) {
	type endpoint struct{ typ, base, key string }
	configured := s.ConfiguredModels()
	seen := map[endpoint]config.Model{}
	var order []endpoint
	have := map[endpoint][]string{}
	for _, c := range configured {
		mc := c.Config
		if mc.Demo || (mc.Type != "openai" && mc.Type != "anthropic" && mc.Type != "") {
			continue
		}
		e := endpoint{mc.Type, mc.BaseURL, mc.APIKey}
		if _, ok := seen[e]; !ok {
			seen[e] = mc
			order = append(order, e)
		}
		have[e] = append(have[e], mc.Model)
	}
	results := make([][]string, len(order))
	failures := make([]error, len(order))
	var wg sync.WaitGroup
	for i, e := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], failures[i] = provider.List(ctx, seen[e])
		}()
	}
	wg.Wait()
	for i, e := range order {
		if failures[i] != nil {
			errs = append(errs, failures[i])
			continue
		}
		host := provider.Host(seen[e])
		for _, id := range results[i] {
			if slices.Contains(have[e], id) {
				continue
			}
			mc := seen[e]
			mc.Model = id
			mc.PricePerMTok = nil // the entry's price is its own model's
			choices = append(choices, ModelChoice{Name: id, Config: mc, Source: "listed by " + host})
		}
	}
	return choices, errs
}

// SetModel switches the session to mc from the next model request on: the
// next turn's first, or, in a running turn, the one after the answer
// streaming now. The conversation is kept. The provider is built here, so
// a mistake (no model named, an unknown type) is returned at once and the
// model in use stays. ModelName reports the new model straight away.
func (s *Session) SetModel(ctx context.Context, mc config.Model) error {
	if mc.Type == "" {
		mc.Type = "openai"
	}
	if mc.Type == "demo" {
		mc.Demo = true
	}
	c, err := provider.New(ctx, mc, s.providerOptions())
	if err != nil {
		return err
	}
	entry := s.entryOf(mc)
	s.mu.Lock()
	s.nextModel = &modelSwitch{cfg: mc, client: s.pooled(c, entry), entry: entry}
	s.mu.Unlock()
	return nil
}

// providerOptions is what provider.New takes from the session besides the
// model's configuration.
func (s *Session) providerOptions() provider.Options {
	return provider.Options{HTTPClient: s.httpClient, Root: s.env.Root, ConfigDir: s.cfg.ConfigDir, DemoChunkDelay: s.demoDelay}
}

// ModelConfig is the configuration of the model in use (or switched to).
func (s *Session) ModelConfig() config.Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nextModel != nil {
		return s.nextModel.cfg
	}
	return s.modelCfg
}

// adoptModel takes up the model SetModel prepared, on the turn's goroutine
// before a model request, so no request is streaming while it swaps.
func (s *Session) adoptModel(ctx context.Context) error {
	s.mu.Lock()
	next := s.nextModel
	s.nextModel = nil
	s.mu.Unlock()
	if next == nil {
		return nil
	}
	if err := s.install(ctx, next.cfg, next.client); err != nil {
		return err
	}
	s.mu.Lock()
	s.ep = endpoint{entry: next.entry} // a model the user chose ends a failover
	s.mu.Unlock()
	return nil
}
