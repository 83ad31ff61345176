package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cloudwego/eino-ext/components/model/openai"
)

const (
	// maxAttempts bounds the requests made for one model step when it fails
	// before any output.
	maxAttempts = 4
	// maxRetryAfter is the longest Retry-After fawn waits out; a server
	// asking for more ends the turn and says how long it asked for.
	maxRetryAfter = 5 * time.Minute
	maxBackoff    = 30 * time.Second
)

// failKind classifies why a model request failed, which decides whether it
// is retried and what the user is told.
type failKind int

const (
	failOther failKind = iota
	failCancelled
	failRateLimit     // 429
	failServer        // 5xx, 408, 409
	failConnection    // no response, reset, refused, cut before any output
	failStalled       // no chunk for stall_timeout
	failDropped       // the stream broke after output had arrived
	failBadResponse   // a chunk that could not be decoded
	failContextLength // 400 saying the prompt is too long
	failAuth          // 401, 403
	failNotFound      // 404
	failBadRequest    // other 4xx
	failTimeout       // the whole request took longer than models.chat_model.timeout
	failLength        // the output limit cut the response inside a tool call
)

var (
	errStalled        = errors.New("stalled")
	errRequestTimeout = errors.New("request timeout")
)

// failure is one failed attempt at a model request.
type failure struct {
	kind       failKind
	status     int
	retryAfter time.Duration // from the server, when it said
	hasAfter   bool
	output     bool   // chunks had arrived before it failed
	message    string // the server's own words, when there are some
	err        error
}

func (f *failure) retryable() bool {
	switch f.kind {
	case failRateLimit, failServer, failConnection, failStalled, failBadResponse:
		return true
	}
	return false
}

// reason is the short text of a retry event: "rate limited (429)".
func (f *failure) reason() string {
	if errors.Is(f.err, errNoFinish) {
		if f.output {
			return "the answer was cut off (no finish reason)"
		}
		return "the server sent no answer (an empty or non-streaming body)"
	}
	switch f.kind {
	case failRateLimit:
		return "rate limited (429)"
	case failServer:
		return fmt.Sprintf("server error (%d)", f.status)
	case failStalled:
		if f.output {
			return "the answer stalled mid-stream"
		}
		return "no answer from the server"
	case failDropped:
		return "connection dropped mid-answer"
	case failBadResponse:
		return "the server sent a malformed chunk"
	default:
		return "connection failed"
	}
}

// classify turns a request error into a failure. cause is the request
// context's cause (a stall or a timeout), capture what the transport saw.
func classify(turnCtx context.Context, err error, cause error, cap *httpCapture, output bool) *failure {
	f := &failure{err: err, output: output}
	status, after, hasAfter, transportErr := cap.get()
	f.status, f.retryAfter, f.hasAfter = status, after, hasAfter

	var oe *openai.APIError
	var ae *anthropicError
	var se *streamError
	switch {
	case errors.As(err, &oe):
		if f.status == 0 {
			f.status = oe.HTTPStatusCode
		}
		f.message = oe.Message
		if code, _ := oe.Code.(string); code == "context_length_exceeded" {
			f.kind = failContextLength
			return f
		}
	case errors.As(err, &ae):
		if f.status == 0 {
			f.status = ae.StatusCode
		}
		f.message = anthropicMessage(ae)
	case errors.As(err, &se):
		if f.status == 0 || f.status < 400 {
			// The HTTP status was 200; the error came inside the stream.
			f.status = se.status
		}
		f.message = se.message
	}

	switch {
	case turnCtx.Err() != nil:
		f.kind = failCancelled
	case errors.Is(cause, errStalled):
		f.kind = failStalled
	case errors.Is(cause, errRequestTimeout):
		f.kind = failTimeout
	case f.status == http.StatusTooManyRequests:
		f.kind = failRateLimit
	case f.status >= 500 || f.status == http.StatusRequestTimeout || f.status == http.StatusConflict:
		f.kind = failServer
	case f.status == http.StatusBadRequest || f.status == http.StatusRequestEntityTooLarge:
		if isContextLength(f.message + " " + err.Error()) {
			f.kind = failContextLength
		} else {
			f.kind = failBadRequest
		}
	case f.status == http.StatusUnauthorized || f.status == http.StatusForbidden:
		f.kind = failAuth
	case f.status == http.StatusNotFound:
		f.kind = failNotFound
	case f.status >= 400:
		f.kind = failBadRequest
	case !output && f.status/100 == 2 && notAStream(cap):
		// A server that ignored "stream" (or a page in its place): no answer
		// arrived, whatever the client library made of the body.
		f.kind = failBadResponse
		f.err = errNoFinish
	case isDecodeError(err):
		f.kind = failBadResponse
	case transportErr != nil || isConnError(err):
		f.kind = failConnection
	default:
		f.kind = failOther
	}
	if output && (f.kind == failConnection || f.kind == failStalled || f.kind == failBadResponse) {
		// Mid-answer, all three mean the same: the answer is cut short.
		if f.kind == failConnection {
			f.kind = failDropped
		}
	}
	return f
}

func isContextLength(s string) bool {
	s = strings.ToLower(s)
	for _, p := range []string{
		"context_length_exceeded", "context length", "context window", "maximum context",
		"prompt is too long", "too many tokens", "reduce the length", "input is too long",
	} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

func isDecodeError(err error) bool {
	s := err.Error()
	return strings.Contains(s, "invalid character") || strings.Contains(s, "unexpected end of JSON") ||
		strings.Contains(s, "cannot unmarshal") || strings.Contains(s, "Syntax error") ||
		strings.Contains(s, "syntax error")
}

// isConnError recognises a broken or refused connection. Providers wrap
// these in their own errors, often only as text, hence the strings.
func isConnError(err error) bool {
	var ne net.Error
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) || errors.As(err, &ne) {
		return true
	}
	s := err.Error()
	for _, p := range []string{"connection reset", "unexpected EOF", "connection refused", "broken pipe", "server closed", "EOF"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// backoff is the wait before attempt+1: base·2^(attempt-1), ±20% jitter,
// at most maxBackoff; a server's Retry-After wins.
func backoff(base time.Duration, attempt int, f *failure) time.Duration {
	if f.hasAfter {
		return f.retryAfter
	}
	d := base << (attempt - 1)
	if d > maxBackoff || d <= 0 {
		d = maxBackoff
	}
	jitter := 0.8 + 0.4*rand.Float64()
	return time.Duration(float64(d) * jitter)
}

// httpCapture records what the transport saw of one model request: the
// status and Retry-After of the last response, or the transport error.
// eino's providers turn HTTP errors into Go errors without the headers.
type httpCapture struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	hasAfter   bool
	err        error
	// contentType is a successful response's Content-Type.
	contentType string
}

func (c *httpCapture) get() (int, time.Duration, bool, error) {
	if c == nil {
		return 0, 0, false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status, c.retryAfter, c.hasAfter, c.err
}

type captureKey struct{}

func withCapture(ctx context.Context, c *httpCapture) context.Context {
	return context.WithValue(ctx, captureKey{}, c)
}

// transport wraps the HTTP transport of the providers: it records each
// response's status and Retry-After for the retry logic.
type transport struct {
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	c, _ := req.Context().Value(captureKey{}).(*httpCapture)
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

func newHTTPClient() *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{Transport: &transport{base: base}}
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// wrapped transport.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// notAStream reports whether the captured successful response was declared
// as something other than a server-sent event stream.
func notAStream(c *httpCapture) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.contentType != "" && !strings.Contains(c.contentType, "text/event-stream")
}
