package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/fawn-ide/fawn/agent/provider"
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
func classify(turnCtx context.Context, err error, cause error, capture *provider.Capture, output bool) *failure {
	f := &failure{err: err, output: output}
	status, after, hasAfter, transportErr := capture.Get()
	f.retryAfter, f.hasAfter = after, hasAfter
	se := provider.ErrorOf(err, status)
	f.status, f.message = se.Status, se.Message
	if se.ContextLength {
		f.kind = failContextLength
		return f
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
	case !output && f.status/100 == 2 && capture.NotAStream():
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
