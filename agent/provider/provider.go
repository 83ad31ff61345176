package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/model"

	"github.com/fawn-ide/fawn/config"
)

// Options is what New needs beyond the model's own configuration.
type Options struct {
	// HTTPClient carries the requests (nil: a default client). Give the
	// client HTTPClient made, so Capture sees the responses.
	HTTPClient *http.Client
	// Root is the project the demo model tours; ConfigDir is where its
	// closing help says the configuration goes.
	Root, ConfigDir string
	// DemoChunkDelay is the pause between the demo model's chunks (0: 12ms,
	// so it reads like a model typing; negative: none).
	DemoChunkDelay time.Duration
}

// Client is a chat model ready for requests, and what fawn says about it.
type Client struct {
	// Chat is the model, without tools bound.
	Chat model.ToolCallingChatModel
	// Provider is openai, anthropic or demo.
	Provider string
	// Model is the model's name as requests carry it ("fawn-demo" for the
	// demo).
	Model string
	// BaseURL is the server as configured, query and all ("" for the demo).
	BaseURL string
	// Note says why fawn runs on the demo model, when the configuration
	// fell back to it ("" otherwise).
	Note string
}

// Name is "provider/model", as fawn shows and records it: "openai/gpt-4o".
func (c Client) Name() string { return c.Provider + "/" + c.Model }

// New builds the chat model mc describes. It does no I/O: a mistake in mc
// (no model named, an unknown type) is an error here, one the server would
// refuse comes with the first request.
func New(ctx context.Context, mc config.Model, o Options) (Client, error) {
	typ := mc.Type
	if mc.Demo {
		typ = "demo"
	}
	c := Client{Model: mc.Model, BaseURL: mc.BaseURL}
	// A query in base_url (Azure's api-version, a gateway's key) goes on
	// every request's URL, not before the path the client library appends.
	baseURL, hc := mc.BaseURL, o.HTTPClient
	if u, err := url.Parse(mc.BaseURL); err == nil && (u.RawQuery != "" || u.Fragment != "") {
		q := u.Query()
		u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
		baseURL = u.String()
		hc = withQuery(hc, q)
	}
	switch typ {
	case "demo":
		c.Provider, c.Model, c.BaseURL = "demo", demoModelName, ""
		if mc.DemoReason != "" {
			const lead = "fawn is running on its offline demo model. "
			c.Note = "fawn is running on its offline demo model (" + mc.DemoReason + "). " +
				strings.TrimPrefix(config.DemoHelp(o.ConfigDir), lead)
		}
		delay := o.DemoChunkDelay
		if delay == 0 {
			delay = defaultDemoDelay
		}
		c.Chat = newDemoModel(o.Root, o.ConfigDir, delay)
		return c, nil

	case "openai", "":
		c.Provider = "openai"
		if mc.Model == "" {
			return Client{}, fmt.Errorf("agent: models.chat_model.model is empty: name the model to use (e.g. gpt-4o)")
		}
		oc := openaiConfig{
			APIKey:     mc.APIKey, // empty: no Authorization header (Ollama, llama.cpp)
			BaseURL:    baseURL,
			Model:      mc.Model,
			MaxTokens:  mc.MaxTokens,
			HTTPClient: hc,
			ExtraBody:  mc.ExtraBody,
		}
		if mc.Temperature != nil {
			oc.Temperature = ptr(float32(*mc.Temperature))
		}
		c.Chat = newOpenAIModel(oc)
		return c, nil

	case "anthropic":
		c.Provider = "anthropic"
		if mc.Model == "" {
			return Client{}, fmt.Errorf("agent: models.chat_model.model is empty: name the model to use (e.g. claude-sonnet-4-5)")
		}
		c.Chat = newAnthropicModel(anthropicConfig{
			APIKey:      mc.APIKey,
			BaseURL:     baseURL,
			Model:       mc.Model,
			MaxTokens:   mc.MaxTokens,
			Temperature: mc.Temperature,
			ExtraBody:   mc.ExtraBody,
			HTTPClient:  hc,
		})
		return c, nil
	}
	return Client{}, fmt.Errorf("agent: models.chat_model.type %q: want openai, anthropic or demo", typ)
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

func ptr[T any](v T) *T { return &v }
