package agent

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/session"
)

// TestStoredPromptIsWhatTheUserTyped: the model gets the hook's context
// and the attached file, but the session's title, the resume list, the
// export and the resumed conversation's user message are what the user
// typed, and a resumed session sends the model what it got before.
func TestStoredPromptIsWhatTheUserTyped(t *testing.T) {
	ctx := context.Background()
	st, _ := session.New(t.TempDir(), t.TempDir(), session.Options{})
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{text("one"), text("two")}}, ModeYolo, withStore(st), func(o *Options) {
		o.Config.Hooks = hookCfg("UserPromptSubmit", `echo "HOOK-CONTEXT branch main"`)
	})
	typed := "explain @main.go"
	full := typed + "\n\n(The user attached these with @-mentions.)\n<attached path=\"main.go\">\n1\tpackage main\n</attached>"
	checkInvariants(t, collect(t, h.s.RunInput(ctx, Input{Text: full, Typed: typed}), nil))
	checkInvariants(t, h.run(ctx, "plain prompt", nil))
	sent := string(nonSystem(h.srv.ChatRequests()[0])[0].Content)
	if !strings.Contains(sent, "package main") || !strings.Contains(sent, "HOOK-CONTEXT") {
		t.Fatalf("the model did not get the attachment and the context: %q", sent)
	}
	id := h.s.ID()

	list, err := st.List()
	if err != nil || len(list) != 1 || list[0].Title != typed {
		t.Errorf("resume list: %+v %v", list, err)
	}
	l, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if l.Info.Title != typed {
		t.Errorf("title %q", l.Info.Title)
	}
	var users []string
	for _, e := range l.Transcript {
		if e.Message != nil && e.Message.Role == "user" {
			users = append(users, e.Message.Shown())
		}
	}
	if strings.Join(users, "|") != typed+"|plain prompt" {
		t.Errorf("user messages as shown: %q", users)
	}
	var md bytes.Buffer
	if err := session.WriteMarkdown(&md, l); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "HOOK-CONTEXT") || strings.Contains(md.String(), "package main") || !strings.Contains(md.String(), typed) {
		t.Errorf("export:\n%s", md.String())
	}
	if l.Messages[0].Typed != typed || !strings.Contains(l.Messages[0].Content, "HOOK-CONTEXT") || l.Messages[0].Extra != nil {
		t.Errorf("stored message: %+v", l.Messages[0])
	}
	// The model is sent, after a resume, exactly what it got.
	h.s.Close()
	h2 := newHarness(t, llmtest.Script{Responses: []llmtest.Response{text("three")}}, ModeYolo, withStore(st))
	if _, err := h2.s.Resume(id); err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h2.run(ctx, "third", nil))
	msgs := nonSystem(h2.srv.ChatRequests()[0])
	if string(msgs[0].Content) != sent {
		t.Errorf("after resume the first message is %q, want %q", msgs[0].Content, sent)
	}
}
