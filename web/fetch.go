package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// The limits of a fetch, unless the Client says otherwise.
const (
	// DefaultTimeout bounds a whole fetch: connecting, the redirects and
	// reading the body.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxBytes caps the bytes of a body read; the rest is not
	// downloaded (a page cut there says so).
	DefaultMaxBytes = 5 << 20
	// DefaultMaxRedirects is how many redirects on the same host are
	// followed.
	DefaultMaxRedirects = 5
)

// Client fetches pages. The zero value works, with the defaults above and
// no private address allowed.
type Client struct {
	Timeout      time.Duration
	MaxBytes     int64
	MaxRedirects int
	// AllowPrivate reports whether host (as [Host] spells it) may be
	// reached at an address that is not public: the hosts the user named
	// in web.fetch.allow_private. Nil allows none.
	AllowPrivate func(host string) bool
	// UserAgent is sent as User-Agent.
	UserAgent string
}

// Page is what a fetch brought back.
type Page struct {
	// URL is where the content came from, after the redirects followed.
	URL *url.URL
	// Status is the HTTP status code; ContentType the media type (no
	// parameters).
	Status      int
	ContentType string
	// Title is the HTML page's title ("" for other content).
	Title string
	// Text is the content: Markdown for HTML, the text itself otherwise.
	Text string
	// Bytes is how many bytes of the body were read; Cut says the body was
	// longer than MaxBytes and the rest was not read.
	Bytes int64
	Cut   bool
	// RedirectTo, when set, is a redirect to another host that was not
	// followed (the caller asks for that host first); Text is then empty.
	RedirectTo *url.URL
}

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c *Client) maxBytes() int64 {
	if c.MaxBytes > 0 {
		return c.MaxBytes
	}
	return DefaultMaxBytes
}

func (c *Client) maxRedirects() int {
	if c.MaxRedirects > 0 {
		return c.MaxRedirects
	}
	return DefaultMaxRedirects
}

// dial connects to addr, refusing an address that is not public unless
// the user allowed the host. The check runs on the address being dialled
// (after DNS), so no name can point fawn at the machine's own services.
func (c *Client) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	d := &net.Dialer{Timeout: 10 * time.Second}
	if c.AllowPrivate == nil || !c.AllowPrivate(host) {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("cannot read the address %s: %w", address, err)
			}
			if !Public(ap.Addr()) {
				return &PrivateError{Host: host, Addr: ap.Addr().Unmap()}
			}
			return nil
		}
	}
	return d.DialContext(ctx, network, addr)
}

// httpClient is a client of fawn's own: no cookie jar, no proxy (the
// environment's proxy would see every address and defeat the check on
// it), the checked dialer, and redirects followed only on the same host.
func (c *Client) httpClient(start *url.URL, other **url.URL) *http.Client {
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           c.dial,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: c.timeout(),
		MaxIdleConns:          1,
		IdleConnTimeout:       time.Second,
		DisableKeepAlives:     true,
	}
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if err := checkURL(req.URL); err != nil {
				return fmt.Errorf("a redirect to %w", err)
			}
			if Host(req.URL) != Host(start) {
				*other = req.URL
				return http.ErrUseLastResponse
			}
			if len(via) > c.maxRedirects() {
				return fmt.Errorf("more than %d redirects (%s last): open the page in a browser to see where it goes", c.maxRedirects(), req.URL.Redacted())
			}
			// Nothing that identifies the user rides along, even on the same host.
			req.Header.Del("Authorization")
			req.Header.Del("Cookie")
			return nil
		},
	}
}

// Fetch reads u (checked with [ParseURL]'s rules) and turns it into text.
func (c *Client) Fetch(ctx context.Context, u *url.URL) (*Page, error) {
	if err := checkURL(u); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	var other *url.URL
	hc := c.httpClient(u, &other)
	defer hc.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	ua := c.UserAgent
	if ua == "" {
		ua = "fawn (web_fetch)"
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, c.explain(ctx, u, err)
	}
	defer resp.Body.Close()
	page := &Page{URL: resp.Request.URL, Status: resp.StatusCode}
	if other != nil {
		page.RedirectTo = other
		return page, nil
	}
	ct, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	page.ContentType = ct
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBytes()+1))
	if err != nil {
		return nil, c.explain(ctx, page.URL, err)
	}
	if int64(len(body)) > c.maxBytes() {
		body, page.Cut = body[:c.maxBytes()], true
	}
	page.Bytes = int64(len(body))
	if ct == "" {
		ct = http.DetectContentType(body)
		page.ContentType, params, _ = mime.ParseMediaType(ct)
	}
	if !textual(page.ContentType) {
		return page, fmt.Errorf("%s is %s (%d bytes), not a page or text: web_fetch reads HTML and text only", page.URL.Redacted(), page.ContentType, len(body))
	}
	r, err := charset.NewReader(bytes.NewReader(body), mime.FormatMediaType(page.ContentType, params))
	if err != nil {
		r = bytes.NewReader(body)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if isHTML(page.ContentType) {
		page.Title, page.Text, err = ToMarkdown(ctx, text, page.URL)
		if err != nil {
			return nil, c.explain(ctx, page.URL, err)
		}
		return page, nil
	}
	page.Text = strings.ToValidUTF8(string(text), string(utf8.RuneError))
	return page, nil
}

// explain turns a transport error into what happened, for the model.
func (c *Client) explain(ctx context.Context, u *url.URL, err error) error {
	var pe *PrivateError
	switch {
	case errors.As(err, &pe):
		return pe
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || isTimeout(err):
		// The headers' time limit and the context's are the same: which
		// one fires first is a matter of scheduling.
		return fmt.Errorf("%s did not answer within %s: the server is slow or unreachable; try again later or another source", u.Redacted(), c.timeout())
	case errors.Is(err, context.Canceled):
		return errors.New("cancelled")
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Errorf("%s: the host name does not resolve (%s): check the URL", u.Redacted(), dns.Err)
	}
	return fmt.Errorf("fetching %s: %v", u.Redacted(), err)
}

func isHTML(ct string) bool { return ct == "text/html" || ct == "application/xhtml+xml" }

// textual reports whether content of type ct is read as text.
func textual(ct string) bool {
	switch {
	case strings.HasPrefix(ct, "text/"):
		return true
	case strings.HasSuffix(ct, "+json"), strings.HasSuffix(ct, "+xml"):
		return true
	}
	switch ct {
	case "application/json", "application/xml", "application/xhtml+xml", "application/javascript", "application/x-yaml", "application/yaml", "application/toml":
		return true
	}
	return false
}

// isTimeout reports a transport's time limit running out.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
