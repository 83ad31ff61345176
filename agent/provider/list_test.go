package provider

import (
	"net/url"
	"testing"
)

// A base_url with a query (Azure's api-version, a gateway's key) keeps its
// query on the model list's URL, and the path goes where it belongs, not
// after the query string.
func TestJoinURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/v1?api-version=1":  "http://h/v1/models?api-version=1",
		"http://h/v1/":               "http://h/v1/models",
		"http://u:p@h:8/x/v1?k=a#fr": "http://u:p@h:8/x/v1/models?k=a",
	} {
		if got := joinURL(in, "models", nil, ""); got != want {
			t.Errorf("joinURL(%q) = %q, want %q", in, got, want)
		}
	}
	if got := joinURL("https://h/v1?x=1", "v1/models", url.Values{"limit": {"1000"}}, "/v1"); got != "https://h/v1/models?limit=1000&x=1" {
		t.Errorf("anthropic models URL %q", got)
	}
}
