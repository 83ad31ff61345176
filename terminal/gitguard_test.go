package terminal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitGuardOnlyForAgentCommands: with GuardGit (a project fawn does not
// trust), an agent's command sees GIT_CONFIG_* entries that turn off the
// repository's fsmonitor and hooks and bare repositories, after the
// user's own entries, which still hold; a git status it runs in a
// repository whose .git/config names a monitor runs no monitor. The
// user's own command after it has the user's environment back. Without
// GuardGit nothing is added.
func TestGitGuardOnlyForAgentCommands(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	const userRC = "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=me\n"
	userEnv := "GIT_CONFIG_COUNT=1\nGIT_CONFIG_KEY_0=user.name\nGIT_CONFIG_VALUE_0=me"
	guarded := userEnv[len("GIT_CONFIG_COUNT=1\n"):]
	guarded = "GIT_CONFIG_COUNT=4\n" + strings.Replace(guarded, "GIT_CONFIG_VALUE_0=me", "GIT_CONFIG_KEY_1=core.fsmonitor\nGIT_CONFIG_KEY_2=core.hooksPath\nGIT_CONFIG_KEY_3=safe.bareRepository\nGIT_CONFIG_VALUE_0=me\nGIT_CONFIG_VALUE_1=false\nGIT_CONFIG_VALUE_2=/dev/null\nGIT_CONFIG_VALUE_3=explicit", 1)

	for _, c := range []struct {
		guard, own bool // GuardGit; the user has GIT_CONFIG_* entries of their own
	}{{true, true}, {false, true}, {true, false}} {
		guard := c.guard
		rc, userEnv, guarded := userRC, userEnv, guarded
		if !c.own {
			rc, userEnv = "", ""
			guarded = "GIT_CONFIG_COUNT=3\nGIT_CONFIG_KEY_0=core.fsmonitor\nGIT_CONFIG_KEY_1=core.hooksPath\nGIT_CONFIG_KEY_2=safe.bareRepository\nGIT_CONFIG_VALUE_0=false\nGIT_CONFIG_VALUE_1=/dev/null\nGIT_CONFIG_VALUE_2=explicit"
		}
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		marker := filepath.Join(t.TempDir(), "fsmonitor-ran")
		for _, args := range [][]string{{"init", "-q"}, {"config", "core.fsmonitor", "touch " + marker + "; false"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		term := startTerm(t, Options{Dir: dir, GuardGit: guard, Env: []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1"}})

		const show = "env | grep -E '^GIT_CONFIG_(COUNT|KEY_|VALUE_)' | LC_ALL=C sort"
		want := userEnv
		if guard {
			want = guarded
		}
		if got := strings.TrimSpace(mustRun(t, term, show).Output); got != want {
			t.Errorf("guard %v: the agent's command sees\n%s\nwant\n%s", guard, got, want)
		}
		res := mustRun(t, term, "git status --short; git config --get user.name")
		if c.own && !strings.Contains(res.Output, "me") {
			t.Errorf("guard %v: the user's own GIT_CONFIG entry is lost: %q", guard, res.Output)
		}
		_, err := os.Stat(marker)
		if ran := err == nil; ran == guard {
			t.Errorf("guard %v: the repository's fsmonitor ran: %v", guard, ran)
		}

		// The user's own command, typed after the agent's.
		out := filepath.Join(t.TempDir(), "user-env")
		waitIdle(t, term)
		if _, err := term.Write([]byte("{ " + show + "; echo end; } > " + out + "\r")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the user's command", func() bool {
			b, _ := os.ReadFile(out)
			return strings.HasSuffix(string(b), "end\n")
		})
		if b, _ := os.ReadFile(out); strings.TrimSpace(strings.TrimSuffix(string(b), "end\n")) != userEnv {
			t.Errorf("guard %v: the user's own command after the agent's sees\n%s\nwant\n%s", guard, b, userEnv)
		}
	}
}
