package agent

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
