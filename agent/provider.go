package agent

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/components/model"

	"github.com/fawn-ide/fawn/config"
)

// newProvider builds the chat model models.chat_model describes.
func (s *Session) newProvider(ctx context.Context, o Options) (model.ToolCallingChatModel, error) {
	mc := s.modelCfg
	typ := mc.Type
	if mc.Demo {
		typ = "demo"
	}
	s.model = mc.Model
	s.baseURLValue = mc.BaseURL
	// A query in base_url (Azure's api-version, a gateway's key) goes on
	// every request's URL, not before the path the client library appends.
	baseURL, hc := mc.BaseURL, s.httpClient
	if u, err := url.Parse(mc.BaseURL); err == nil && (u.RawQuery != "" || u.Fragment != "") {
		q := u.Query()
		u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
		baseURL = u.String()
		hc = withQuery(hc, q)
	}
	switch typ {
	case "demo":
		s.provider, s.model, s.baseURLValue = "demo", demoModelName, ""
		if mc.DemoReason != "" {
			const lead = "fawn is running on its offline demo model. "
			s.demoNote = "fawn is running on its offline demo model (" + mc.DemoReason + "). " +
				strings.TrimPrefix(config.DemoHelp(s.cfg.ConfigDir), lead)
		}
		delay := o.DemoChunkDelay
		if delay == 0 {
			delay = defaultDemoDelay
		}
		return newDemoModel(s.env.Root, s.cfg.ConfigDir, delay), nil

	case "openai", "":
		s.provider = "openai"
		if mc.Model == "" {
			return nil, fmt.Errorf("agent: models.chat_model.model is empty: name the model to use (e.g. gpt-4o)")
		}
		c := &openai.ChatModelConfig{
			APIKey:      mc.APIKey, // empty: no Authorization header (Ollama, llama.cpp)
			BaseURL:     baseURL,
			Model:       mc.Model,
			HTTPClient:  hc,
			ExtraFields: mc.ExtraBody,
		}
		if mc.MaxTokens > 0 {
			c.MaxTokens = ptr(mc.MaxTokens)
		}
		if mc.Temperature != nil {
			c.Temperature = ptr(float32(*mc.Temperature))
		}
		cm, err := openai.NewChatModel(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("agent: the openai model: %w", err)
		}
		return cm, nil

	case "anthropic":
		s.provider = "anthropic"
		if mc.Model == "" {
			return nil, fmt.Errorf("agent: models.chat_model.model is empty: name the model to use (e.g. claude-sonnet-4-5)")
		}
		return newAnthropicModel(anthropicConfig{
			APIKey:      mc.APIKey,
			BaseURL:     baseURL,
			Model:       mc.Model,
			MaxTokens:   mc.MaxTokens,
			Temperature: mc.Temperature,
			ExtraBody:   mc.ExtraBody,
			HTTPClient:  hc,
		}), nil
	}
	return nil, fmt.Errorf("agent: models.chat_model.type %q: want openai, anthropic or demo", typ)
}

// wrapClient returns a client whose transport records error statuses and
// Retry-After for the retry logic.
func wrapClient(hc *http.Client) *http.Client {
	if hc == nil {
		return newHTTPClient()
	}
	cp := *hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport.(*http.Transport).Clone()
	}
	cp.Transport = &transport{base: base}
	return &cp
}

// withQuery returns a client that adds q to every request's query.
func withQuery(hc *http.Client, q url.Values) *http.Client {
	if hc == nil {
		hc = newHTTPClient()
	}
	cp := *hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = &queryTransport{base: base, q: q}
	return &cp
}

type queryTransport struct {
	base http.RoundTripper
	q    url.Values
}

func (t *queryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	qs := r.URL.Query()
	for k, vs := range t.q {
		for _, v := range vs {
			qs.Add(k, v)
		}
	}
	r.URL.RawQuery = qs.Encode()
	return t.base.RoundTrip(r)
}
