package web

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
)

const page = `<!doctype html>
<html><head><title>The  Widget
 Manual</title>
<style>body { color: red }</style>
<script>var secret = "SCRIPT-TEXT"; document.write("x")</script>
</head><body>
<header><a href="/">Home</a> SITE-HEADER</header>
<nav><ul><li><a href="/a">NAV-LINK</a></li></ul></nav>
<main>
<h1>Installing</h1>
<p>Run <code>make install</code> and read <a href="/docs/next">the next page</a>.</p>
<script>alert("INLINE-SCRIPT")</script>
<table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose</td></tr></table>
<form><input name="q"><button>SEARCH-BUTTON</button></form>
<div hidden>HIDDEN-TEXT</div>
</main>
<aside>ASIDE-TEXT</aside>
<footer>FOOTER-TEXT</footer>
</body></html>`

// testServer serves the pages the tests fetch.
func testServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/page", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) {
		// The same server under another name: another host to fawn.
		u := "http://localhost:" + strings.Split(r.Host, ":")[1] + "/page"
		http.Redirect(w, r, u, http.StatusFound)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		line := strings.Repeat("x", 1023) + "\n"
		for i := 0; i < 10<<10; i++ { // 10 MiB
			if _, err := w.Write([]byte(line)); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	})
	mux.HandleFunc("/pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write([]byte("%PDF-1.4"))
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		_, _ = w.Write([]byte("caf\xe9"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// local is a client that may reach the test server's hosts.
func local() *Client {
	return &Client{AllowPrivate: func(h string) bool { return h == "127.0.0.1" || h == "localhost" }}
}

func fetch(t *testing.T, c *Client, raw string) (*Page, error) {
	t.Helper()
	u, err := ParseURL(raw)
	if err != nil {
		t.Fatal(err)
	}
	return c.Fetch(context.Background(), u)
}

// TestFetchHTMLToMarkdown: the page's main content as Markdown, its links
// absolute; scripts, styles, navigation, forms and chrome gone.
func TestFetchHTMLToMarkdown(t *testing.T) {
	srv := testServer(t)
	p, err := fetch(t, local(), srv.URL+"/page")
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "The Widget Manual" || p.Status != 200 || p.ContentType != "text/html" {
		t.Errorf("title %q, status %d, type %q", p.Title, p.Status, p.ContentType)
	}
	for _, want := range []string{"# Installing", "`make install`", "[the next page](" + srv.URL + "/docs/next)", "| Flag | Meaning |", "| -v   | verbose |"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("markdown lacks %q:\n%s", want, p.Text)
		}
	}
	for _, gone := range []string{"SCRIPT-TEXT", "INLINE-SCRIPT", "color: red", "NAV-LINK", "SITE-HEADER", "ASIDE-TEXT", "FOOTER-TEXT", "SEARCH-BUTTON", "HIDDEN-TEXT"} {
		if strings.Contains(p.Text, gone) {
			t.Errorf("markdown keeps %q:\n%s", gone, p.Text)
		}
	}
}

func TestFetchRedirects(t *testing.T) {
	srv := testServer(t)
	// On the same host: followed.
	p, err := fetch(t, local(), srv.URL+"/moved")
	if err != nil || p.URL.Path != "/page" || !strings.Contains(p.Text, "# Installing") || p.RedirectTo != nil {
		t.Fatalf("same-host redirect: %+v, %v", p, err)
	}
	// To another host: returned, not followed.
	p, err = fetch(t, local(), srv.URL+"/elsewhere")
	if err != nil || p.RedirectTo == nil || Host(p.RedirectTo) != "localhost" || p.Text != "" {
		t.Fatalf("cross-host redirect: %+v, %v", p, err)
	}
	// A loop: stopped after a few.
	if _, err = fetch(t, local(), srv.URL+"/loop"); err == nil || !strings.Contains(err.Error(), "more than 5 redirects") {
		t.Fatalf("redirect loop: %v", err)
	}
}

// TestFetchCapsSize: a 10 MiB body is read up to the cap and no further.
func TestFetchCapsSize(t *testing.T) {
	srv := testServer(t)
	c := local()
	c.MaxBytes = 1 << 20
	p, err := fetch(t, c, srv.URL+"/big")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Cut || p.Bytes != 1<<20 || len(p.Text) != 1<<20 {
		t.Errorf("cut %v after %d bytes, text %d", p.Cut, p.Bytes, len(p.Text))
	}
	p, err = fetch(t, local(), srv.URL+"/big")
	if err != nil || !p.Cut || p.Bytes != DefaultMaxBytes {
		t.Errorf("default cap: %v, %v", p.Bytes, err)
	}
}

// TestFetchTimesOut: a server that never answers ends the fetch at the
// time limit, with a message saying so.
func TestFetchTimesOut(t *testing.T) {
	srv := testServer(t)
	c := local()
	c.Timeout = 300 * time.Millisecond
	_, err := fetch(t, c, srv.URL+"/slow")
	if err == nil || !strings.Contains(err.Error(), "did not answer within 300ms") {
		t.Fatalf("slow server: %v", err)
	}
}

// TestFetchRefusesPrivateAddresses: loopback is refused unless the user
// named the host; the check is on the address dialled, so a name that
// resolves to loopback (localhost) is refused as well.
func TestFetchRefusesPrivateAddresses(t *testing.T) {
	srv := testServer(t)
	port := strings.Split(srv.URL, ":")[2]
	for _, raw := range []string{srv.URL + "/page", "http://localhost:" + port + "/page"} {
		_, err := fetch(t, &Client{}, raw)
		var pe *PrivateError
		if !errors.As(err, &pe) || !pe.Addr.IsLoopback() || !strings.Contains(err.Error(), "web.fetch.allow_private") {
			t.Errorf("%s: %v", raw, err)
		}
	}
	// Naming one host allows that one only.
	only := &Client{AllowPrivate: func(h string) bool { return h == "localhost" }}
	if _, err := fetch(t, only, "http://localhost:"+port+"/page"); err != nil {
		t.Errorf("named host: %v", err)
	}
	if _, err := fetch(t, only, srv.URL+"/page"); err == nil {
		t.Error("127.0.0.1 fetched though only localhost was named")
	}
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "2606:4700::1111": true, "127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false,
		"192.168.1.1": false, "169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "::1": false,
		"fe80::1": false, "fd00::1": false, "::ffff:127.0.0.1": false, "::ffff:8.8.8.8": true, "224.0.0.1": false,
		"64:ff9b::a9fe:a9fe": false,
	} {
		if got := Public(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Public(%s) = %v", addr, got)
		}
	}
}

func TestFetchRefusesWhatItCannotRead(t *testing.T) {
	srv := testServer(t)
	if _, err := fetch(t, local(), srv.URL+"/pdf"); err == nil || !strings.Contains(err.Error(), "application/pdf") {
		t.Errorf("pdf: %v", err)
	}
	for _, raw := range []string{"ftp://example.com/x", "file:///etc/passwd", "https://user:pw@example.com/", "http://:80/"} {
		if _, err := ParseURL(raw); err == nil {
			t.Errorf("%s accepted", raw)
		} else if strings.Contains(err.Error(), "pw@") {
			t.Errorf("%s: the password is in the message: %v", raw, err)
		}
	}
	if u, err := ParseURL("go.dev/doc"); err != nil || u.Scheme != "https" {
		t.Errorf("no scheme: %v %v", u, err)
	}
	p, err := fetch(t, local(), srv.URL+"/latin1")
	if err != nil || p.Text != "café" {
		t.Errorf("latin-1: %q %v", p.Text, err)
	}
}

// TestFetchSendsNothingOfFawns: no credentials or cookies reach the server.
func TestFetchSendsNothingOfFawns(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		http.SetCookie(w, &http.Cookie{Name: "s", Value: "1"})
		if r.URL.Path == "/" {
			http.Redirect(w, r, "/next", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	defer srv.Close()
	t.Setenv("HTTP_PROXY", "http://proxy.invalid:1")
	t.Setenv("http_proxy", "http://proxy.invalid:1")
	if _, err := fetch(t, local(), srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key"} {
		if got.Get(h) != "" {
			t.Errorf("sent %s: %q", h, got.Get(h))
		}
	}
	u, _ := url.Parse(srv.URL)
	if got.Get("User-Agent") != "fawn (web_fetch)" || u == nil {
		t.Errorf("user agent %q", got.Get("User-Agent"))
	}
}

// headerTimeout is a transport's time limit, as net/http reports one.
type headerTimeout struct{}

func (headerTimeout) Error() string   { return "net/http: timeout awaiting response headers" }
func (headerTimeout) Timeout() bool   { return true }
func (headerTimeout) Temporary() bool { return true }

// The transport's time limit and the context's are the same: when the
// transport's fires first (the context still live), the message is the
// same time-limit message.
func TestTheTransportsTimeLimitSaysSo(t *testing.T) {
	c := local()
	c.Timeout = 300 * time.Millisecond
	u, _ := url.Parse("http://127.0.0.1:1/slow")
	err := c.explain(context.Background(), u, &url.Error{Op: "Get", URL: u.String(), Err: headerTimeout{}})
	if err == nil || !strings.Contains(err.Error(), "did not answer within 300ms") {
		t.Fatalf("%v", err)
	}
}
