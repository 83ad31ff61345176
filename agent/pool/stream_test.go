package pool

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/config"
)

// cannedBody answers every request with the same event stream, read from
// memory: the client's own reading, without the transport's goroutines.
type cannedBody string

func (b cannedBody) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(strings.NewReader(string(b))), Request: req}, nil
}

// answer is an event stream of n text chunks, complete unless it fails
// (the server's error object in the stream).
func answer(n int, fails bool) cannedBody {
	var b strings.Builder
	for range n {
		b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"}}]}\n\n")
	}
	if fails {
		b.WriteString("data: {\"error\":{\"message\":\"overloaded\"}}\n\n")
		return cannedBody(b.String())
	}
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	return cannedBody(b.String())
}

// pooled is an OpenAI-compatible client reading body, on a slot of room 1.
func pooled(t *testing.T, body cannedBody) (*Set, *Model) {
	t.Helper()
	c, err := provider.New(context.Background(), config.Model{Type: "openai", Model: "m", BaseURL: "http://llm.invalid/v1"},
		provider.Options{HTTPClient: &http.Client{Transport: body}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(config.Models{})
	if err != nil {
		t.Fatal(err)
	}
	return s, s.Wrap(c.Chat, s.Slot(Default))
}

// free reports whether the default slot has room, without waiting.
func free(s *Set) bool {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, release, err := s.Acquire(ctx, []*Slot{s.Slot(Default)})
	if err != nil {
		return false
	}
	release()
	return true
}

// waitFree waits (generously) for the default slot to have room.
func waitFree(t *testing.T, s *Set, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !free(s); {
		if time.Now().After(deadline) {
			t.Fatalf("the slot is still held %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// A pooled stream is read in the goroutine that calls Recv, as the
// client's is: no goroutine passes the chunks on.
func TestStreamStartsNoGoroutine(t *testing.T) {
	_, m := pooled(t, answer(100, false))
	sr, err := m.Stream(context.Background(), []*schema.Message{schema.UserMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	if _, err := sr.Recv(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	if strings.Contains(stacks, "pool.(*Model).Stream") {
		t.Errorf("a goroutine of Stream runs while the answer streams:\n%s", stacks)
	}
}

// The slot is held while the stream is read and given back when it ends,
// when it fails, and when the request's context ends after the reader was
// closed half-read; every chunk is passed on, in order.
func TestStreamHoldsItsSlotUntilItEnds(t *testing.T) {
	read := func(t *testing.T, sr *schema.StreamReader[*schema.Message]) (string, error) {
		var b strings.Builder
		for {
			m, err := sr.Recv()
			if errors.Is(err, io.EOF) {
				return b.String(), nil
			}
			if err != nil {
				return b.String(), err
			}
			b.WriteString(m.Content)
		}
	}
	t.Run("end", func(t *testing.T) {
		s, m := pooled(t, answer(50, false))
		sr, err := m.Stream(context.Background(), []*schema.Message{schema.UserMessage("go")})
		if err != nil {
			t.Fatal(err)
		}
		defer sr.Close()
		if free(s) {
			t.Fatal("the slot has room while the stream is open")
		}
		text, err := read(t, sr)
		if err != nil || text != strings.Repeat("Hello", 50) {
			t.Fatalf("read %d bytes (%v), want 50 Hellos", len(text), err)
		}
		if !free(s) {
			t.Error("the slot is still held after the stream ended")
		}
	})
	t.Run("failure", func(t *testing.T) {
		s, m := pooled(t, answer(3, true))
		sr, err := m.Stream(context.Background(), []*schema.Message{schema.UserMessage("go")})
		if err != nil {
			t.Fatal(err)
		}
		defer sr.Close()
		if _, err := read(t, sr); err == nil {
			t.Fatal("a failing stream read without an error")
		}
		if !free(s) {
			t.Error("the slot is still held after the stream failed")
		}
	})
	t.Run("closed", func(t *testing.T) {
		s, m := pooled(t, answer(50, false))
		ctx, cancel := context.WithCancel(context.Background())
		sr, err := m.Stream(ctx, []*schema.Message{schema.UserMessage("go")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sr.Recv(); err != nil {
			t.Fatal(err)
		}
		sr.Close()
		cancel()
		waitFree(t, s, "after the request was given up")
	})
}
