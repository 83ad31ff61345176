package rules

import (
	"strings"
	"testing"
)

// TestCautionCorpus: under allow rules for the commands, an argument that
// writes a file anywhere or runs a program asks, with the reason; the same
// commands without it are allowed. A bare bash rule still allows them, and
// a deny rule still denies.
func TestCautionCorpus(t *testing.T) {
	s := set(t,
		[]string{"bash(git log:*)", "bash(git diff:*)", "bash(git show:*)", "bash(git format-patch:*)", "bash(git grep:*)",
			"bash(git rebase:*)", "bash(git:*)", "bash(go test:*)", "bash(go build:*)", "bash(find:*)", "bash(sort:*)",
			"bash(rg:*)", "bash(sed:*)", "bash(tar:*)", "bash(curl:*)", "bash(wget:*)", "bash(env:*)", "bash(xargs:*)",
			"bash(timeout:*)"},
		nil,
		[]string{"bash(rm:*)"})
	for _, c := range []struct {
		cmd   string
		allow bool
	}{
		{"git log -1 --format=x", true},
		{"git log -1 --format=x --output=/home/u/.bashrc", false},
		{"git log -1 --output /home/u/.bashrc", false},
		{"git log -1 --outp=/home/u/.bashrc", false}, // git takes abbreviations
		{"git log --oneline -5", true},
		{"git diff --output=.git/hooks/x", false},
		{"git diff --stat", true},
		{"git diff --output-indicator-new=+", true},
		{"git show --output=x HEAD", false},
		{"git format-patch -o /tmp/x HEAD~1", false},
		{"git format-patch --stdout -1", true},
		{"git grep -O'touch X' foo", false},
		{"git grep --open-files-in-pager=vim foo", false},
		{"git grep -n foo", true},
		{"git rebase -x 'touch X' main", false},
		{"git rebase --exec='touch X' main", false},
		{"git -c core.fsmonitor='touch X' status", false},
		{"git -c alias.x='!touch X' x", false},
		{"git --config-env=core.pager=EVIL log", false},
		{"git --git-dir=vendor/evil status", false},
		{"git --exec-path=/tmp/evil status", false},
		{"git -C sub status", true},
		{"git ls-remote --upload-pack='touch X' .", false},
		{"go test ./...", true},
		{"go test -c -o .git/hooks/pre-commit", false},
		{"go test -o=.git/hooks/pre-commit ./x", false},
		{"go test --o .git/hooks/pre-commit ./x", false},
		{"go test -coverprofile=/home/u/.bashrc ./...", false},
		{"go test ./x -args -test.cpuprofile=/home/u/.bashrc", false},
		{"go test -run TestOutput ./...", true},
		{"go build -o bin/x ./cmd/x", false},
		{"find . -name '*.go'", true},
		{"find . -delete", false},
		{"find . -name x -delete", false},
		{"find -fprint F", false},
		{"find . -fprintf F %p", false},
		{"find . -fls F", false},
		{"sort x", true},
		{"sort -u x", true},
		{"sort -o F x", false},
		{"sort -uo F x", false},
		{"sort --output=F x", false},
		{"sort --out=F x", false},
		{"sort --compress-program='touch X' x", false},
		{"rg foo", true},
		{"rg --pre 'touch X' foo", false},
		{"rg --pre=./evil foo", false},
		{"rg --pre-glob '*.pdf' foo", true},
		{"sed -n 1,10p x", true},
		{"sed 's/hello/world/g' x", true},
		{"sed -n '/foo/p' x", true},
		{"sed -i s/a/b/ x", false},
		{"sed -ni s/a/b/p x", false},
		{"sed -i.bak s/a/b/ x", false},
		{"sed --in-place s/a/b/ x", false},
		{"sed 's/x/y/w /home/u/.bashrc' x", false},
		{"sed 's/.*/touch X/e' x", false},
		{"sed '1e touch X' x", false},
		{"sed -e p -e 'w out' x", false},
		{"sed -f script.sed x", false},
		{"sed -l 5 's/x/y/w /home/u/.bashrc' x", false},
		{"sed -n --line-length 5 '1e touch X' x", false},
		{"sed -n -l5 -e p -e '$w out' x", false},
		{"sed -n -- 'w out' x", false},
		{"sed -n -e 1p readme.txt", true},
		{"sed -E -n 's/(a)/b/p' readme.txt", true},
		{"sed --sandbox 's/x/y/w out' x", true},
		{"tar -tzf a.tgz", true},
		{"tar tvf a.tar", true},
		{"tar -xzf a.tgz", false},
		{"tar xf a.tar", false},
		{"tar --extract -f a.tar", false},
		{"tar -czf /home/u/.bashrc .", false},
		{"tar -tf a.tar --to-command='touch X'", false},
		{"tar -t -I 'touch X' -f a.tar", false},
		{"curl -s https://example.com", true},
		{"curl -sSLo /home/u/.bashrc https://example.com", false},
		{"curl -O https://example.com/x", false},
		{"curl --output x https://example.com", false},
		{"wget -O x https://example.com", false},
		// Behind wrappers the rules also allow.
		{"env FOO=1 sort -o F x", false},
		{"timeout 5 find . -delete", false},
		{"xargs sort -o F", false},
		{"sort x && find . -delete", false},
	} {
		v := s.Check(bash(c.cmd))
		if got := v.Effect == Allow; got != c.allow {
			t.Errorf("%q: %s (caution %q), want allowed %v", c.cmd, v.Effect, v.Caution, c.allow)
		}
		if !c.allow && v.Caution == "" {
			t.Errorf("%q: asks without saying why", c.cmd)
		}
	}
	if v := s.Check(bash("find . -delete -exec rm x \\;")); v.Effect != Deny {
		t.Errorf("a deny rule under a caution: %s", v.Effect)
	}
	if v := s.Check(bash("sort -o F x")); !strings.Contains(v.Caution, "sort -o") || !strings.Contains(v.Caution, "writes a file") {
		t.Errorf("the caution does not say what and why: %q", v.Caution)
	}
	all := set(t, []string{"bash"}, nil, nil)
	if e, _ := all.Decide(bash("find . -delete")); e != Allow {
		t.Errorf("a bare bash rule: %s", e)
	}
}

// TestUntrustedGit: in a project that is not trusted, no allow rule lets
// a line that runs git through, wherever git sits in it; trusted, the
// rule allows it as before. The caution names the repository's own
// configuration even where no rule matched, for the dialog to say.
func TestUntrustedGit(t *testing.T) {
	s := set(t, []string{"bash(git status)", "bash(git log:*)", "bash(env:*)", "bash(command:*)", "bash(xargs:*)",
		"bash(ls:*)", "bash(bash -c:*)", "bash(find:*)", "bash(/usr/bin/git status)"}, nil, []string{"bash(git push:*)"})
	for _, cmd := range []string{
		"git status",
		"git log -1",
		"ls && git status",
		"env GIT_DIR=.git git status",
		"command git status",
		"echo . | xargs git status",
		"bash -c 'git status'",
		"find . -exec git status \\;",
		"/usr/bin/git status",
	} {
		trusted := s.Check(bash(cmd))
		untrusted := s.Check(Call{Tool: "bash", Exec: true, Command: cmd, Untrusted: true})
		if untrusted.Effect == Allow || untrusted.Caution != UntrustedGit {
			t.Errorf("untrusted %q: %s, caution %q", cmd, untrusted.Effect, untrusted.Caution)
		}
		if cmd == "echo . | xargs git status" {
			continue // echo has no rule
		}
		if trusted.Effect != Allow || trusted.Caution != "" {
			t.Errorf("trusted %q: %s, caution %q", cmd, trusted.Effect, trusted.Caution)
		}
	}
	if v := s.Check(Call{Tool: "bash", Exec: true, Command: "ls -la", Untrusted: true}); v.Effect != Allow || v.Caution != "" {
		t.Errorf("untrusted ls: %s, %q", v.Effect, v.Caution)
	}
	if v := s.Check(Call{Tool: "bash", Exec: true, Command: "git push", Untrusted: true}); v.Effect != Deny {
		t.Errorf("untrusted git push under a deny rule: %s", v.Effect)
	}
	if v := s.Check(Call{Tool: "bash", Exec: true, Command: "git log --output=x", Untrusted: true}); !strings.Contains(v.Caution, "--output=x") {
		t.Errorf("untrusted git log --output: the caution %q does not name the argument, which trust would not change", v.Caution)
	}
	var none *Set
	if v := none.Check(Call{Tool: "bash", Exec: true, Command: "git status", Untrusted: true}); v.Effect != None || v.Caution != UntrustedGit {
		t.Errorf("no rules: %s, %q", v.Effect, v.Caution)
	}
}
