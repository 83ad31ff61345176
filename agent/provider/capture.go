package provider

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Capture records what the transport saw of one model request: the status
// and Retry-After of the last response, or the transport error. eino's
// providers turn HTTP errors into Go errors without the headers, and the
// retry logic needs them.
type Capture struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	hasAfter   bool
	err        error
	// contentType is a successful response's Content-Type.
	contentType string
}

// Get returns the last response's status and Retry-After (hasAfter: the
// server said one), or the transport's error. A nil Capture saw nothing.
func (c *Capture) Get() (status int, retryAfter time.Duration, hasAfter bool, err error) {
	if c == nil {
		return 0, 0, false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status, c.retryAfter, c.hasAfter, c.err
}

// NotAStream reports whether the captured successful response was declared
// as something other than a server-sent event stream.
func (c *Capture) NotAStream() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.contentType != "" && !strings.Contains(c.contentType, "text/event-stream")
}

type captureKey struct{}

// WithCapture makes the requests made with ctx, through a client
// HTTPClient made, record their responses in c.
func WithCapture(ctx context.Context, c *Capture) context.Context {
	return context.WithValue(ctx, captureKey{}, c)
}

// HTTPClient returns a copy of hc (nil: a default client) whose transport
// records each response in the request's Capture.
func HTTPClient(hc *http.Client) *http.Client {
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

func newHTTPClient() *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{Transport: &transport{base: base}}
}

// transport wraps the HTTP transport of the providers: it records each
// response's status and Retry-After for the retry logic.
type transport struct {
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	c, _ := req.Context().Value(captureKey{}).(*Capture)
	if c != nil {
		c.mu.Lock()
		if err != nil {
			c.err = err
		} else {
			c.status = resp.StatusCode
			c.retryAfter, c.hasAfter = parseRetryAfter(resp.Header, time.Now())
			c.contentType = resp.Header.Get("Content-Type")
		}
		c.mu.Unlock()
	}
	return resp, err
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// wrapped transport.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// parseRetryAfter reads retry-after-ms (OpenAI, Anthropic) or Retry-After
// (seconds or an HTTP date).
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

// ServerError is what a provider's error says of the server's answer.
type ServerError struct {
	// Status is the HTTP status of the failure: the captured one, or the
	// one the error carries when none was captured, or, for an error that
	// came inside a successful stream, the status the same error has
	// outside one.
	Status int
	// Message is the server's own words ("" when it sent none).
	Message string
	// ContextLength is set when the server names the context window as the
	// cause by its code (OpenAI's context_length_exceeded).
	ContextLength bool
}

// ErrorOf reads err, from a client New built, given the status the
// transport captured for the request (0: none).
func ErrorOf(err error, captured int) ServerError {
	se := ServerError{Status: captured}
	var ae *anthropicError
	var ie *streamError
	var fe *OpenAIError
	switch {
	case errors.As(err, &fe):
		if se.Status == 0 {
			se.Status = fe.Status
		}
		se.Message = fe.Message
		se.ContextLength = fe.Code == "context_length_exceeded"
	case errors.As(err, &ae):
		if se.Status == 0 {
			se.Status = ae.StatusCode
		}
		se.Message = anthropicMessage(ae)
	case errors.As(err, &ie):
		if se.Status == 0 || se.Status < 400 {
			// The HTTP status was 200; the error came inside the stream.
			se.Status = ie.status
		}
		se.Message = ie.message
	}
	return se
}
