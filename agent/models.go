package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/schema"

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

// listTimeout bounds asking one server for its models.
const listTimeout = 10 * time.Second

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
			results[i], failures[i] = listModels(ctx, seen[e])
		}()
	}
	wg.Wait()
	for i, e := range order {
		if failures[i] != nil {
			errs = append(errs, failures[i])
			continue
		}
		host := hostOf(seen[e])
		for _, id := range results[i] {
			if slices.Contains(have[e], id) {
				continue
			}
			mc := seen[e]
			mc.Model = id
			choices = append(choices, ModelChoice{Name: id, Config: mc, Source: "listed by " + host})
		}
	}
	return choices, errs
}

// hostOf is the server a model is reached at, for people: "api.openai.com".
func hostOf(mc config.Model) string {
	base := mc.BaseURL
	if base == "" && mc.Type == "anthropic" {
		return "api.anthropic.com"
	}
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return base
}

// listModels asks one server for the ids of its models.
func listModels(ctx context.Context, mc config.Model) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	var endpoint string
	hdr := http.Header{}
	switch mc.Type {
	case "anthropic":
		base := mc.BaseURL
		if base == "" {
			base = "https://api.anthropic.com"
		}
		endpoint = joinURL(base, "v1/models", url.Values{"limit": {"1000"}}, "/v1")
		hdr.Set("x-api-key", mc.APIKey)
		hdr.Set("anthropic-version", "2023-06-01")
	default:
		endpoint = joinURL(mc.BaseURL, "models", nil, "")
		if mc.APIKey != "" {
			hdr.Set("Authorization", "Bearer "+mc.APIKey)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", hostOf(mc), err)
	}
	req.Header = hdr
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s does not answer: %v", hostOf(mc), errorCause(err))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s lists no models (%s)", hostOf(mc), resp.Status)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		Models []struct { // Ollama's own /api/tags shape, as some proxies answer
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("%s sent a model list fawn cannot read: %v", hostOf(mc), err)
	}
	var ids []string
	for _, d := range list.Data {
		if d.ID != "" {
			ids = append(ids, d.ID)
		}
	}
	for _, m := range list.Models {
		if m.Name != "" {
			ids = append(ids, m.Name)
		}
	}
	sort.Strings(ids)
	return slices.Compact(ids), nil
}

// errorCause is the innermost message of a request error, without the URL
// (which may carry a key in its query for some servers).
func errorCause(err error) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return err.Error()
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
	s.mu.Lock()
	s.nextModel = &modelSwitch{cfg: mc, client: c}
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
	mc, c := next.cfg, next.client
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
	s.baseChat, s.chat = c.Chat, chat
	s.provider, s.model, s.baseURLValue = c.Provider, c.Model, c.BaseURL
	s.modelCfg = mc
	s.maxTokens = mc.MaxTokens
	s.timeout = mc.Timeout
	if mc.StallTimeout > 0 {
		s.stallTimeout = mc.StallTimeout
	}
	rec := s.rec
	s.mu.Unlock()
	rec.setModel(c.Provider + "/" + c.Model) // the transcript says which model answered from here on
	return nil
}

// joinURL appends path to base's path (after dropping trimSuffix from it)
// and merges extra into base's query: a base URL with a query keeps it on
// the request instead of having the path glued after it.
func joinURL(base, path string, extra url.Values, trimSuffix string) string {
	u, err := url.Parse(base)
	if err != nil {
		return strings.TrimSuffix(base, "/") + "/" + path
	}
	p := strings.TrimSuffix(u.Path, "/")
	if trimSuffix != "" {
		p = strings.TrimSuffix(p, trimSuffix)
	}
	u.Path = p + "/" + path
	u.RawPath = ""
	q := u.Query()
	for k, vs := range extra {
		for _, v := range vs {
			q.Add(k, v)
		}
	}
	u.RawQuery = q.Encode()
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}
