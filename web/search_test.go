package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSearXNG(t *testing.T) {
	var q, format string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, format = r.URL.Query().Get("q"), r.URL.Query().Get("format")
		if r.URL.Path != "/search" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"results":[{"title":"Go","url":"https://go.dev/","content":"The Go language"},{"title":"Tour","url":"https://go.dev/tour","content":"A tour"},{"title":"Three","url":"https://x/","content":""}]}`))
	}))
	defer srv.Close()
	s, err := NewSearcher(TypeSearXNG, srv.URL+"/", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), "go generics & more", 2)
	if err != nil {
		t.Fatal(err)
	}
	if q != "go generics & more" || format != "json" || len(res) != 2 || res[0] != (Result{"Go", "https://go.dev/", "The Go language"}) {
		t.Errorf("q=%q format=%q results %+v", q, format, res)
	}
}

func TestSearXNGWithoutJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) }))
	defer srv.Close()
	s, _ := NewSearcher(TypeSearXNG, srv.URL, "")
	if _, err := s.Search(context.Background(), "x", 5); err == nil || !strings.Contains(err.Error(), "search.formats") {
		t.Errorf("403: %v", err)
	}
}

// TestBrave: the key travels in its header only, and is in no message.
func TestBrave(t *testing.T) {
	const key = "BSA-test-key-123"
	var token, rawQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, rawQuery = r.Header.Get("X-Subscription-Token"), r.URL.RawQuery
		if token != key {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"web":{"results":[{"title":"Brave","url":"https://brave.com/","description":"A browser"}]}}`))
	}))
	defer srv.Close()
	s, err := NewSearcher(TypeBrave, srv.URL, key)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), "browser", 5)
	if err != nil || len(res) != 1 || res[0].Snippet != "A browser" || strings.Contains(rawQuery, key) || !strings.Contains(rawQuery, "count=5") {
		t.Errorf("results %+v, %v, query %q", res, err, rawQuery)
	}
	bad, _ := NewSearcher(TypeBrave, srv.URL, "wrong-key-456")
	_, err = bad.Search(context.Background(), "x", 5)
	if err == nil || strings.Contains(err.Error(), "wrong-key-456") || !strings.Contains(err.Error(), "refused the key") {
		t.Errorf("bad key: %v", err)
	}
	if _, err := NewSearcher(TypeBrave, "", ""); err == nil || !strings.Contains(err.Error(), "BRAVE_SEARCH_API_KEY") {
		t.Errorf("no key: %v", err)
	}
	if _, err := NewSearcher(TypeSearXNG, "", ""); err == nil || !strings.Contains(err.Error(), "web.search.url") {
		t.Errorf("no url: %v", err)
	}
}
