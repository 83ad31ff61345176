package provider

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestSSEReader: the event-stream format as servers and proxies write it —
// comments (keep-alives), CRLF line ends, data split over lines, events
// without data, and a last event cut off by the end of the stream.
func TestSSEReader(t *testing.T) {
	stream := ": keep-alive\n\n" +
		"event: ping\r\ndata: {\"type\": \"ping\"}\r\n\r\n" +
		"event: message_start\ndata:{\"a\":1,\ndata: \"b\":2}\n\n" +
		"event: nothing\n\n" +
		"id: 7\nretry: 100\ndata: last\n\n" +
		"data: cut off"
	r := newSSEReader(strings.NewReader(stream))
	for _, want := range []string{`{"type": "ping"}`, "{\"a\":1,\n\"b\":2}", "last"} {
		got, err := r.next()
		if err != nil || string(got) != want {
			t.Fatalf("next = %q, %v; want %q", got, err, want)
		}
	}
	if got, err := r.next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last whole event: %q, %v; want io.EOF", got, err)
	}
}

// TestAnthropicErrorMessage: an HTTP error shows the server's own words and
// the status; a body that is not Anthropic's error JSON still gives both
// the status and a readable error.
func TestAnthropicErrorMessage(t *testing.T) {
	e := &anthropicError{StatusCode: 401, raw: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}
	if got := e.Error(); got != "anthropic: 401 Unauthorized: invalid x-api-key" {
		t.Errorf("Error() = %q", got)
	}
	e = &anthropicError{StatusCode: 502, raw: "<html>Bad gateway</html>"}
	if got := e.Error(); got != "anthropic: 502 Bad Gateway" || anthropicMessage(e) != "" {
		t.Errorf("Error() = %q, message %q", got, anthropicMessage(e))
	}
}

// endless is a reader of n bytes of 'x' with no newline: a hostile or
// broken server's never-ending line.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	k := min(len(p), e.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	e.n -= k
	return k, nil
}

// TestSSEReaderBoundsAnEvent: a line that never ends stops the answer at
// maxSSEEvent with a clear error, not by holding the whole line.
func TestSSEReaderBoundsAnEvent(t *testing.T) {
	r := newSSEReader(io.MultiReader(strings.NewReader("data: "), &endless{n: maxSSEEvent + 1}))
	if _, err := r.next(); !errors.Is(err, errEventTooLong) {
		t.Fatalf("next = %v, want errEventTooLong", err)
	}
	// Many data lines that add up past the bound are stopped too.
	line := "data: " + strings.Repeat("y", 1<<20) + "\n"
	r = newSSEReader(strings.NewReader(strings.Repeat(line, 17) + "\n"))
	if _, err := r.next(); !errors.Is(err, errEventTooLong) {
		t.Fatalf("17 data lines of 1 MB: %v, want errEventTooLong", err)
	}
}
