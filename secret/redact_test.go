package secret

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestRedactorString(t *testing.T) {
	r := NewRedactor("sk-user-known-0123456789", "corp-token-abcdefgh", "short", "")
	for _, c := range []struct{ in, want string }{
		// Known values, wherever they are.
		{"Incorrect API key provided: sk-user-known-0123456789.", "Incorrect API key provided: [redacted]."},
		{"got corp-token-abcdefgh twice: corp-token-abcdefgh", "got [redacted] twice: [redacted]"},
		// Shapes of keys nobody told it about.
		{"also tried sk-proj-unknownkey0123456789", "also tried [redacted]"},
		{"key AIzaSyA1234567890abcdefghijklmnopqrstu is invalid", "key [redacted] is invalid"},
		{"header Authorization: Bearer tok_9f8e7d6c5b4a", "header Authorization: Bearer [redacted]"},
		{"basic Zm9vOmJhcjEyMw==", "basic [redacted]"},
		{`{"api_key": "abc123def456"}`, `{"api_key": "[redacted]"}`},
		{"x-api-key=Zz81726354ab; next", "x-api-key=[redacted]; next"},
		// URL credentials.
		{`Post "http://alice:pw-0000@127.0.0.1:1/v1/chat/completions": refused`, `Post "http://alice:redacted@127.0.0.1:1/v1/chat/completions": refused`},
		{"see https://h.example/v1?api_key=zzz9&x=1.", "see https://h.example/v1?api_key=redacted&x=1."},
		// Prose and ordinary numbers stay.
		{"use Bearer authentication (i.e. Authorization: Bearer YOUR_KEY)", "use Bearer authentication (i.e. Authorization: Bearer YOUR_KEY)"},
		{"max_tokens: 4096, short, sk-learn", "max_tokens: 4096, short, sk-learn"},
		{"the token: exceeded the limit", "the token: exceeded the limit"},
		{"", ""},
	} {
		if got := r.String(c.in); got != c.want {
			t.Errorf("String(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
	}
	var none *Redactor
	if got := none.String("sk-proj-unknownkey0123456789 corp-token-abcdefgh"); got != "[redacted] corp-token-abcdefgh" {
		t.Errorf("a nil Redactor: %q", got)
	}
}

func TestRedactorLongestFirst(t *testing.T) {
	r := NewRedactor("abcdefgh", "abcdefgh-longer")
	if got := r.String("abcdefgh-longer"); got != "[redacted]" {
		t.Errorf("a value inside another left part of it: %q", got)
	}
}

func TestRedactorError(t *testing.T) {
	r := NewRedactor("sk-user-known-0123456789")
	base := fmt.Errorf("refused sk-user-known-0123456789: %w", io.ErrUnexpectedEOF)
	err := r.Error(base)
	if err.Error() != "refused [redacted]: unexpected EOF" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Error = %q (is EOF: %v)", err, errors.Is(err, io.ErrUnexpectedEOF))
	}
	if plain := errors.New("nothing here"); r.Error(plain) != plain {
		t.Error("an error with nothing to hide was wrapped")
	}
	if r.Error(nil) != nil {
		t.Error("nil is not nil")
	}
	if v := r.With("another-secret-1").Values(); len(v) != 2 || !strings.HasPrefix(v[0], "sk-user") {
		t.Errorf("With: %q", v)
	}
}

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pass@host/v1":                "https://user:redacted@host/v1",
		"https://ghp_abcdefghijklmnop@github.com/": "https://redacted@github.com/",
		"https://h/v1?api-version=2&api_key=k":     "https://h/v1?api-version=2&api_key=redacted",
		"https://h/v1?key=${GEMINI_KEY}":           "https://h/v1?key=${GEMINI_KEY}",
		"http://localhost:11434/v1":                "http://localhost:11434/v1",
		"not a url":                                "not a url",
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}
