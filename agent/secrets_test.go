package agent

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/session"
)

// errorTexts are the texts of every error the events carry: what the UI
// and headless mode show.
func errorTexts(evs []Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.Err != nil {
			b.WriteString(ev.Err.Error() + "\n")
		}
	}
	return b.String()
}

// A server that echoes the key it got (and a proxy that echoes others) in
// its 401: the error shown and the one recorded hold none of them, and
// still say what the server said.
func TestEchoedKeysAreRedacted(t *testing.T) {
	const (
		key   = "sk-proj-configured0123456789"
		given = "corp-llm-token-0a1b2c3d4e"
		other = "sk-ant-unknown-abcdef0123456"
	)
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{Secrets: []string{key}})
	msg := "Incorrect API key provided: " + key + "; also " + other + ", token " + given + ", Authorization: Bearer abc123def456ghi"
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Fault: &llmtest.Fault{Kind: llmtest.ServerError, Status: 401, Message: msg}}}}, ModeAsk,
		withStore(st), func(o *Options) {
			o.Config.Models.Chat.APIKey = key
			o.Redactor = secret.NewRedactor(key, given)
		})
	evs := runChecked(t, h, context.Background(), "hi", nil)
	shown := errorTexts(evs)
	if !strings.Contains(shown, "refused the credentials (401): Incorrect API key provided: [redacted]; also [redacted], token [redacted], Authorization: Bearer [redacted]") {
		t.Errorf("the errors shown:\n%s", shown)
	}
	data, err := os.ReadFile(h.s.TranscriptPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{key, given, other, "abc123def456ghi"} {
		if strings.Contains(shown, s) {
			t.Errorf("an error shown holds %s:\n%s", s, shown)
		}
		if strings.Contains(string(data), s) {
			t.Errorf("the session file holds %s:\n%s", s, data)
		}
	}
}

// Without a Redactor the session still hides the keys of its
// configuration.
func TestConfiguredKeyRedactedByDefault(t *testing.T) {
	const key = "plainkey-without-shape-42"
	h := newHarness(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Fault: &llmtest.Fault{Kind: llmtest.ServerError, Status: 500, Message: "upstream said " + key}}}}, ModeAsk,
		func(o *Options) { o.Config.Models.Chat.APIKey = key })
	evs := runChecked(t, h, context.Background(), "hi", nil)
	if shown := errorTexts(evs); strings.Contains(shown, key) || !strings.Contains(shown, "upstream said [redacted]") {
		t.Errorf("the errors shown:\n%s", shown)
	}
}

// A password in base_url is not in the message that names the server, nor
// in the session file.
func TestURLPasswordRedacted(t *testing.T) {
	const pass = "pw-in-the-url-31337"
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
	h := newHarness(t, llmtest.Script{}, ModeAsk, withStore(st), func(o *Options) {
		o.Config.Models.Chat.BaseURL = "http://alice:" + pass + "@127.0.0.1:1/v1" // nothing listens on port 1
	})
	evs := runChecked(t, h, context.Background(), "hi", nil)
	shown := errorTexts(evs)
	if !strings.Contains(shown, "cannot reach the model server at http://alice:redacted@127.0.0.1:1/v1") || strings.Contains(shown, pass) {
		t.Errorf("the errors shown:\n%s", shown)
	}
	data, err := os.ReadFile(h.s.TranscriptPath())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), pass) {
		t.Errorf("the session file holds the password:\n%s", data)
	}
}
