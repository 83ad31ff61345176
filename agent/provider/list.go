package provider

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
	"time"

	"github.com/fawn-ide/fawn/config"
)

// listTimeout bounds asking one server for its models.
const listTimeout = 10 * time.Second

// Host is the server a model is reached at, for people: "api.openai.com".
func Host(mc config.Model) string {
	base := mc.BaseURL
	if base == "" && mc.Type == "anthropic" {
		return "api.anthropic.com"
	}
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return base
}

// List asks the server of mc which models it serves (GET …/models, as
// OpenAI-compatible servers and Anthropic answer it), bounded by listTimeout.
// The error says which server failed and how, without the URL.
func List(ctx context.Context, mc config.Model) ([]string, error) {
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
		return nil, fmt.Errorf("%s: %v", Host(mc), err)
	}
	req.Header = hdr
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s does not answer: %v", Host(mc), errorCause(err))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s lists no models (%s)", Host(mc), resp.Status)
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
		return nil, fmt.Errorf("%s sent a model list fawn cannot read: %v", Host(mc), err)
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
