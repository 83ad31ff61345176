package terminal

import (
	"context"
	"strings"
	"testing"
	"time"
)

// fawn's shell integration survives what people put in ~/.bashrc, and
// leaves it in effect: each case is a real bash reading a real ~/.bashrc
// in a temporary HOME. Agent commands get their exact output, status and
// directory; a command the user types runs; the shell prints no error of
// fawn's; and a probe shows the user's setting still holds.
func TestShellIntegrationSurvivesTheUsersRC(t *testing.T) {
	cases := []struct {
		name, rc string
		probe    string // an agent command showing the setting holds...
		want     string // ...and its output
		first    string // the output of "echo hi; false" when not "hi\n"
	}{
		{"set -u", "set -u\n", `echo "${nope}"`, "nope: unbound variable", ""},
		{"set -e", "set -e\n", "false; echo survived", "survived", ""},
		{"pipefail", "set -o pipefail\n", "false | true; echo $?", "1", ""},
		{"PROMPT_COMMAND string", "PROMPT_COMMAND='n=$((${n:-0}+1));'\n", "echo $((n > 0))", "1", ""},
		{"PROMPT_COMMAND array", "PROMPT_COMMAND=('a=$((${a:-0}+1))' 'b=$a')\n", "echo $((b > 0))", "1", ""},
		{"DEBUG trap", "trap 'd=$((${d:-0}+1))' DEBUG\n", "echo $((d > 0))", "1", ""},
		{"ERR trap", "trap 'echo \"err trap $?\"' ERR\n", "false", "err trap 1", "hi\nerr trap 1\n"},
		{"bind and stty", "bind '\"\\C-x\\C-x\": \"echo bound\"'\nbind 'set editing-mode vi'\nstty -ixon\n",
			"bind -v | grep -c 'editing-mode vi'; stty -a | grep -o -- '-ixon'", "1\n-ixon", ""},
		{"extdebug", "shopt -s extdebug\ntrap ': \"$BASH_COMMAND\"' DEBUG\n", "shopt -q extdebug && echo on", "on", ""},
		{"xtrace", "set -x\n", "echo $-", "x", "+ echo hi\nhi\n+ false\n"},
		{"all at once", "set -euo pipefail\nshopt -s extdebug\ntrap 'd=1' DEBUG\nPROMPT_COMMAND=('history -a')\nstty -ixon\n",
			"echo $-; shopt -q extdebug && echo on", "u", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			term := startTermWithRC(t, c.rc)
			first := c.first
			if first == "" {
				first = "hi\n"
			}
			res := mustRun(t, term, "echo hi; false")
			if res.Output != first || res.ExitCode != 1 || res.ShellRestarted {
				t.Fatalf("echo hi; false: %+v", res)
			}
			res = mustRun(t, term, "mkdir -p sub && cd sub")
			if res.ExitCode != 0 || !strings.HasSuffix(res.Cwd, "/sub") {
				t.Fatalf("cd: %+v", res)
			}
			if res = mustRun(t, term, "pwd"); !strings.HasSuffix(res.Output, "/sub\n") {
				t.Fatalf("pwd after cd: %+v", res)
			}
			res = mustRun(t, term, c.probe)
			if !strings.Contains(res.Output, c.want) || res.ShellRestarted {
				t.Fatalf("%s: %+v", c.probe, res)
			}
			if strings.Contains(res.Output, "__fawn") {
				t.Fatalf("fawn's hooks show in the output: %q", res.Output)
			}
			// A command the user types runs and the prompt comes back.
			waitIdle(t, term)
			term.Write([]byte("echo typed-$((6*7))\r"))
			waitScreen(t, term, "typed-42")
			waitIdle(t, term)
			if res := mustRun(t, term, "echo still-usable"); !strings.Contains(res.Output, "still-usable\n") || res.ExitCode != 0 {
				t.Fatalf("the shell is not usable afterwards: %+v", res)
			}
			// The scrollback too: the rc's first lines scroll off a busy screen.
			screen := strings.Join(term.ScrollbackText(), "\n") + "\n" + term.ScreenText()
			for _, bad := range []string{"unbound variable: PS", "PS0", "__fawn", "syntax error", "command not found", "keeps exiting", "exited with status"} {
				if strings.Contains(screen, bad) {
					t.Fatalf("the pane shows %q:\n%s", bad, screen)
				}
			}
		})
	}
}

// set -e from the rc is turned off, and the pane says so.
func TestSetEIsTurnedOffVisibly(t *testing.T) {
	term := startTermWithRC(t, "set -e\n")
	mustRun(t, term, "true")
	waitScreen(t, term, "set -e from ~/.bashrc is off in this shell")
}

// An rc that does break the integration (a read-only PS1 cannot take the
// prompt marker) gets an error that says so and quotes the shell, not one
// blaming slow startup files.
func TestBrokenIntegrationIsNamed(t *testing.T) {
	term := startTermWithRC(t, "readonly PS1='$ '\necho from-the-rc >&2\n")
	term.startupWait = 3 * time.Second
	_, err := term.Run(context.Background(), Command{Text: "true"}, nil)
	if err == nil || !strings.Contains(err.Error(), "stops fawn's shell integration") || strings.Contains(err.Error(), "slow") {
		t.Fatalf("error %v", err)
	}
	waitScreen(t, term, "bash has not shown fawn's prompt marker yet")
}
