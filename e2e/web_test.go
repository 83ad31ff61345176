package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// webSite is a page, with a script and navigation, and a SearXNG JSON API.
func webSite(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<html><head><title>Widget docs</title><script>var k = "SCRIPT-BODY"</script></head>
<body><nav>NAV-MENU</nav><main><h1>Widgets</h1><p>Widgets are <b>blue</b>.</p></main></body></html>`))
		case "/search":
			_, _ = w.Write([]byte(`{"results":[{"title":"Widget docs","url":"http://127.0.0.1/doc","content":"All about widgets"}]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// runHeadlessHome is runHeadless with a FAWN_HOME whose config.yaml is cfg.
func runHeadlessHome(t *testing.T, srv *llmtest.Server, cfg string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "config.yaml"), cfg)
	all := append([]string{"--base-url", srv.URL(), "--model", "scripted"}, args...)
	all = append(all, project(t))
	cmd := exec.Command(binary, all...)
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "OPENAI_API_KEY=")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

// toolResults are the tool results the model was sent in its last request.
func toolResults(srv *llmtest.Server) map[string]string {
	reqs := srv.ChatRequests()
	out := map[string]string{}
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = string(m.Content)
		}
	}
	return out
}

// TestHeadlessWebFetchAndSearch: headless, with the user's rules allowing
// the site's domain and the search, the model gets the page as Markdown
// between untrusted markers and the search's results.
func TestHeadlessWebFetchAndSearch(t *testing.T) {
	site := webSite(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "f", Name: "web_fetch", Arguments: `{"url":"` + site.URL + `/doc","prompt":"What colour are widgets?"}`},
			{ID: "s", Name: "web_search", Arguments: `{"query":"widget docs"}`},
		}},
		{Text: "Widgets are blue."},
	}})
	cfg := "permissions:\n  allow: [\"web_fetch(domain:127.0.0.1)\", web_search]\n" +
		"web:\n  fetch:\n    allow_private: [127.0.0.1]\n  search:\n    type: searxng\n    url: " + site.URL + "\n"
	out, errs, code := runHeadlessHome(t, srv, cfg, "-p", "what colour are widgets?")
	if code != 0 || strings.TrimSpace(out) != "Widgets are blue." {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
	res := toolResults(srv)
	f := res["f"]
	for _, want := range []string{"Title: Widget docs", "untrusted", "<web_content", "# Widgets", "Widgets are **blue**.", "</web_content>", "What colour are widgets?"} {
		if !strings.Contains(f, want) {
			t.Errorf("web_fetch result lacks %q:\n%s", want, f)
		}
	}
	if strings.Contains(f, "SCRIPT-BODY") || strings.Contains(f, "NAV-MENU") {
		t.Errorf("web_fetch result keeps the script or the navigation:\n%s", f)
	}
	if s := res["s"]; !strings.Contains(s, "1. Widget docs") || !strings.Contains(s, "All about widgets") {
		t.Errorf("web_search result:\n%s", s)
	}
}

// TestHeadlessWebRefusals: with no rule, headless refuses the fetch and
// names the rule that would allow it; a loopback address is refused
// unless the user listed the host; with no backend, web_search says how
// to configure one.
func TestHeadlessWebRefusals(t *testing.T) {
	site := webSite(t)
	script := func() llmtest.Script {
		return llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{
				{ID: "f", Name: "web_fetch", Arguments: `{"url":"` + site.URL + `/doc"}`},
				{ID: "s", Name: "web_search", Arguments: `{"query":"widgets"}`},
			}},
			{Text: "Could not."},
		}}
	}
	srv := llmtest.Start(t, script())
	_, errs, code := runHeadlessHome(t, srv, "ui:\n  theme: dark\n", "-p", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	res := toolResults(srv)
	if !strings.Contains(res["f"], "web requests need the user's permission") || !strings.Contains(errs, `web_fetch(domain:127.0.0.1)`) {
		t.Errorf("no rule: result %q, stderr %q", res["f"], errs)
	}
	if !strings.Contains(res["s"], "web search is not configured") || !strings.Contains(res["s"], "type: searxng") {
		t.Errorf("no backend: %q", res["s"])
	}

	srv = llmtest.Start(t, script())
	_, errs, _ = runHeadlessHome(t, srv, "permissions:\n  mode: yolo\n", "-p", "go")
	if res := toolResults(srv); !strings.Contains(res["f"], "not a public internet address") || !strings.Contains(res["f"], "web.fetch.allow_private") {
		t.Errorf("loopback: %q (%s)", res["f"], errs)
	}
}
