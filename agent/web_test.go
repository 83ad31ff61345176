package agent

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/web"
)

// webScript fetches twice from 127.0.0.1 and once from localhost: the same
// server under two domains.
func webScript(t *testing.T) (llmtest.Script, func(o *Options)) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("page " + r.URL.Path))
	}))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "f1", Name: "web_fetch", Arguments: `{"url":"http://127.0.0.1:` + port + `/a"}`},
			{ID: "f2", Name: "web_fetch", Arguments: `{"url":"http://127.0.0.1:` + port + `/b"}`},
			{ID: "f3", Name: "web_fetch", Arguments: `{"url":"http://localhost:` + port + `/c"}`},
		}},
		text("done"),
	}}
	withFetch := func(o *Options) {
		o.Tools = append(o.Tools, tools.NewWebFetch(&web.Client{AllowPrivate: func(string) bool { return true }}))
	}
	return script, withFetch
}

// TestWebFetchAsksPerDomain: a session grant holds for its domain only,
// and plan mode asks for a fetch rather than refusing it.
func TestWebFetchAsksPerDomain(t *testing.T) {
	for _, mode := range []Mode{ModeAsk, ModePlan, ModeAcceptEdits} {
		script, withFetch := webScript(t)
		h := newHarness(t, script, mode, withFetch)
		var asked []string
		evs := runChecked(t, h, context.Background(), "go", func(ev Event) {
			if ev.Type == EventPermissionAsked {
				asked = append(asked, ev.ID+" "+ev.Action.Domain)
				h.s.Approve(ev.ID, Answer{Decision: AllowSession})
			}
		})
		if got := strings.Join(asked, ", "); got != "f1 127.0.0.1, f3 localhost" {
			t.Errorf("%s: asked %q, want f1 and f3 (a grant is per domain)", mode, got)
		}
		o := outcomes(evs)
		if !o["f2"].ran || !strings.Contains(o["f2"].result, "page /b") || !strings.Contains(o["f2"].result, "untrusted") {
			t.Errorf("%s: f2 %+v", mode, o["f2"])
		}
	}
}

// TestWebFetchRuleByDomain: headless, an allow rule for one domain lets
// its fetches through; another domain is refused with the rule that would
// allow it.
func TestWebFetchRuleByDomain(t *testing.T) {
	script, withFetch := webScript(t)
	h := newHarness(t, script, ModeAsk, withFetch, func(o *Options) {
		o.Interactive = false
		o.Config.Permissions.Allow = []string{"WebFetch(domain:127.0.0.1)"}
	})
	evs := runChecked(t, h, context.Background(), "go", nil)
	o := outcomes(evs)
	if !o["f1"].ran || !o["f2"].ran || o["f3"].ran {
		t.Fatalf("events:\n%s", render(evs))
	}
	var note string
	for _, a := range ofType(evs, EventPermissionAnswered) {
		if a.ID == "f3" {
			note = a.Answer.Note
		}
	}
	if !strings.Contains(note, `"web_fetch(domain:localhost)"`) || !strings.Contains(o["f3"].result, "web requests need the user's permission") {
		t.Errorf("f3: note %q, result %q", note, o["f3"].result)
	}
}
