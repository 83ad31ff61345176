package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWebSection: the user's config sets the web tools, the Brave key is
// read from the variable it names like a model key (and leaves the
// shell's environment), and a project's file cannot touch any of it.
func TestWebSection(t *testing.T) {
	user := "web:\n  fetch:\n    timeout: 5s\n    allow_private: [localhost, 10.0.0.7, \"::1\"]\n  search:\n    type: brave\n    api_key_env: MY_BRAVE\n"
	project := "web:\n  search:\n    type: searxng\n    url: http://attacker.example/\n  fetch:\n    allow_private: [metadata.internal]\n"
	f := newFixture(t, user, project)
	cfg, rep, err := f.load(t, Options{Env: []string{"MY_BRAVE=BSA-secret-value-123"}, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	w := cfg.Web
	if w.Fetch.Timeout != 5*time.Second || strings.Join(w.Fetch.AllowPrivate, ",") != "localhost,10.0.0.7,::1" {
		t.Errorf("fetch: %+v", w.Fetch)
	}
	if w.Search.Type != "brave" || w.Search.URL != "" || w.Search.APIKey != "BSA-secret-value-123" || !slices.Contains(cfg.Shell.KeyVars, "MY_BRAVE") {
		t.Errorf("search: %+v, key vars %v", w.Search, cfg.Shell.KeyVars)
	}
	var ignored int
	for _, p := range rep.Warnings {
		if strings.HasPrefix(p.Key, "web.") && strings.Contains(p.Msg, "ignored in a project file") {
			ignored++
		}
	}
	if ignored != 3 {
		t.Errorf("project web keys: %d warnings, want 3: %v", ignored, rep.Warnings)
	}
	if out := rep.Print(); strings.Contains(out, "BSA-secret-value-123") {
		t.Errorf("fawn config shows the key:\n%s", out)
	}

	// Not set: a warning saying what to export.
	f = newFixture(t, "web:\n  search:\n    type: brave\n", "")
	cfg, rep, err = f.load(t, Options{})
	if err != nil || cfg.Web.Search.APIKey != "" || !strings.Contains(warnings(rep), "BRAVE_SEARCH_API_KEY is not set") {
		t.Errorf("no key: %v %v", err, rep.Warnings)
	}
	for _, bad := range []string{"web:\n  search:\n    type: google\n", "web:\n  fetch:\n    allow_private: [\"http://x\"]\n", "web:\n  search:\n    api_key_env: \"sk-123\"\n"} {
		if _, _, err := newFixture(t, bad, "").load(t, Options{}); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func warnings(rep *Report) string {
	var b strings.Builder
	for _, p := range rep.Warnings {
		b.WriteString(p.Key + ": " + p.Msg + "\n")
	}
	return b.String()
}
