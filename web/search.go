package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Result is one search hit.
type Result struct {
	Title   string
	URL     string
	Snippet string
}

// Searcher runs a web search on a configured backend.
type Searcher interface {
	// Name says which backend this is, for messages ("SearXNG at …").
	Name() string
	// Search returns at most n results for query.
	Search(ctx context.Context, query string, n int) ([]Result, error)
}

// The backends' names, as web.search.type spells them.
const (
	TypeSearXNG = "searxng"
	TypeBrave   = "brave"
)

// BraveURL is the Brave Search API's web search endpoint.
const BraveURL = "https://api.search.brave.com/res/v1/web/search"

// searchTimeout bounds one search request.
const searchTimeout = 20 * time.Second

// maxSearchBody caps a backend's answer read.
const maxSearchBody = 4 << 20

// NewSearcher returns the backend of type typ at endpoint (for Brave, ""
// is the public API) with key (Brave's subscription token; never put in a
// URL, a message or a log).
func NewSearcher(typ, endpoint, key string) (Searcher, error) {
	hc := &http.Client{Timeout: searchTimeout, Transport: &http.Transport{Proxy: nil, ResponseHeaderTimeout: searchTimeout}}
	switch typ {
	case TypeSearXNG:
		if endpoint == "" {
			return nil, errors.New("web.search.url is not set: give your SearXNG instance's address, e.g. http://localhost:8888")
		}
		return &searxng{base: strings.TrimRight(endpoint, "/"), hc: hc}, nil
	case TypeBrave:
		if key == "" {
			return nil, errors.New("no Brave Search API key: export it in the variable web.search.api_key_env names (BRAVE_SEARCH_API_KEY by default)")
		}
		if endpoint == "" {
			endpoint = BraveURL
		}
		return &brave{endpoint: endpoint, key: key, hc: hc}, nil
	}
	return nil, fmt.Errorf("web.search.type %q: want %s or %s", typ, TypeSearXNG, TypeBrave)
}

type searxng struct {
	base string
	hc   *http.Client
}

func (s *searxng) Name() string { return "SearXNG at " + s.base }

func (s *searxng) Search(ctx context.Context, query string, n int) ([]Result, error) {
	u := s.base + "/search?" + url.Values{"q": {query}, "format": {"json"}}.Encode()
	var body struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := getJSON(ctx, s.hc, u, nil, s.Name(), &body); err != nil {
		if errors.Is(err, errForbidden) {
			return nil, fmt.Errorf("%s refuses JSON (403): add json to search.formats in its settings.yml", s.Name())
		}
		return nil, err
	}
	var out []Result
	for _, r := range body.Results {
		if len(out) == n {
			break
		}
		out = append(out, Result{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return out, nil
}

type brave struct {
	endpoint, key string
	hc            *http.Client
}

func (b *brave) Name() string { return "the Brave Search API" }

func (b *brave) Search(ctx context.Context, query string, n int) ([]Result, error) {
	if n > 20 {
		n = 20 // the API's maximum
	}
	u := b.endpoint + "?" + url.Values{"q": {query}, "count": {strconv.Itoa(n)}}.Encode()
	var body struct {
		Web struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
			} `json:"results"`
		} `json:"web"`
	}
	hdr := http.Header{"X-Subscription-Token": {b.key}}
	if err := getJSON(ctx, b.hc, u, hdr, b.Name(), &body); err != nil {
		if errors.Is(err, errForbidden) {
			return nil, fmt.Errorf("%s refused the key: check the key in the variable web.search.api_key_env names", b.Name())
		}
		return nil, err
	}
	var out []Result
	for _, r := range body.Web.Results {
		if len(out) == n {
			break
		}
		out = append(out, Result{Title: r.Title, URL: r.URL, Snippet: r.Description})
	}
	return out, nil
}

var errForbidden = errors.New("forbidden")

// getJSON GETs u and decodes its JSON answer into v.
func getJSON(ctx context.Context, hc *http.Client, u string, hdr http.Header, name string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	for k, vs := range hdr {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "fawn (web_search)")
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return errors.New("cancelled")
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is in the message already
		}
		return fmt.Errorf("%s did not answer: %v", name, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxSearchBody))
	if err != nil {
		return fmt.Errorf("reading %s's answer: %v", name, err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("%w", errForbidden)
	case resp.StatusCode == http.StatusTooManyRequests:
		return fmt.Errorf("%s says too many requests (429): wait a little before searching again", name)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("%s answered %s", name, resp.Status)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s's answer is not the JSON expected: %v", name, err)
	}
	return nil
}
