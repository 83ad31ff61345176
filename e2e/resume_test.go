package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// A session of 10,000 messages, resumed with --continue: its last answer
// on screen, its first prompt at the top of the chat once the earlier
// messages are read, /export with every message, and the next prompt sent
// with the whole history.
func TestContinueALongSession(t *testing.T) {
	if noTmux != "" {
		t.Skip(noTmux)
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "CARRIED-ON"}}})
	tm := continueLongSession(t, srv)

	// The top of the chat: the first prompt (the notice that the earlier
	// messages are being read, until they are).
	tm.Keys("M-s")
	tm.Keys("g")
	tm.WaitFor("step 0: make the parser handle case 0")
	tm.Keys("i") // back to the input

	out := filepath.Join(t.TempDir(), "long.md")
	tm.prompt("/export " + out)
	tm.WaitFor("wrote the session")
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	if n := strings.Count(md, "\n## User\n"); n != 2500 || !strings.Contains(md, "step 0: make the parser") || !strings.Contains(md, longLast) {
		t.Errorf("the export has %d prompts (want 2500), the first %v, the last answer %v", n, strings.Contains(md, "step 0:"), strings.Contains(md, longLast))
	}

	tm.prompt("carry on")
	tm.WaitFor("CARRIED-ON")
	reqs := srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[0].Messages
	if len(msgs) != 1+10000+1 || !strings.HasPrefix(string(msgs[1].Content), "step 0:") || string(msgs[10000].Content) != longLast || string(msgs[10001].Content) != "carry on" {
		t.Errorf("the request has %d messages (want the system prompt, 10,000 and the prompt): %q … %q", len(msgs), msgs[1].Content, msgs[len(msgs)-1].Content)
	}
}

// /rewind in a session of 10,000 messages: the chat shown again is the
// rewound conversation — its end at once, the first prompt at the top once
// the earlier messages are read, the answer rewound away gone — and the
// next prompt is sent with the whole history up to the rewind.
func TestRewindALongSession(t *testing.T) {
	if noTmux != "" {
		t.Skip(noTmux)
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "CARRIED-ON"}, {Text: "AGAIN-ANSWERED"}}})
	tm := continueLongSession(t, srv)
	tm.prompt("carry on")
	tm.WaitFor("CARRIED-ON", "idle")

	tm.prompt("/rewind")
	tm.WaitFor("Rewind to before a prompt", "› carry on")
	tm.Keys("Enter")
	tm.WaitFor("conversation only")
	tm.Keys("c")
	tm.WaitFor("the conversation is back to before “carry on”", longLast)
	tm.WaitGone("CARRIED-ON")

	tm.Keys("M-s")
	tm.Keys("g")
	tm.WaitFor("step 0: make the parser handle case 0")
	tm.Keys("G")
	tm.WaitFor("the conversation is back to before")
	tm.Keys("i")
	tm.Keys("C-c") // the prompt the rewind put back in the input
	tm.prompt("again")
	tm.WaitFor("AGAIN-ANSWERED")
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	if len(msgs) != 1+10000+1 || !strings.HasPrefix(string(msgs[1].Content), "step 0:") || string(msgs[10000].Content) != longLast || string(msgs[10001].Content) != "again" {
		t.Errorf("the request after the rewind has %d messages (want the system prompt, 10,000 and the prompt): %q … %q", len(msgs), msgs[1].Content, msgs[len(msgs)-1].Content)
	}
}

// longLast is the last answer of the sessions continueLongSession writes.
const longLast = "LAST-OF-TEN-THOUSAND"

// continueLongSession writes a 10,000-message session ending in longLast and
// starts fawn on it with --continue against srv, waiting for its end on
// screen. No compaction (the history is far past any window): the next
// request is the history as it is.
func continueLongSession(t *testing.T, srv *llmtest.Server) *Term {
	t.Helper()
	home, project := t.TempDir(), t.TempDir()
	writeLongSession(t, home, project, 10000, longLast)
	conf := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, conf, "agent:\n  auto_compact: 0\n")
	tm := Start(t, 120, 40, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted", "--config", conf, "--continue")
	tm.WaitFor(longLast, "10000 messages")
	return tm
}
