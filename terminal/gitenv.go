package terminal

import (
	"strconv"
	"strings"
)

// GitGuardEnv is, for a command run outside this terminal in a project
// fawn does not trust (a command an editor runs for the agent), the
// GIT_CONFIG_COUNT/KEY/VALUE entries that make its git ignore what the
// repository's .git/config would run, appended after the entries environ
// has (the user's, which win over the repository's), as Options.GuardGit
// does for fawn's own shell.
func GitGuardEnv(environ []string) []string {
	// The settings fawnrc.bash gives the agent's commands: no monitor, no
	// hooks, no bare repository found on the way up.
	gitGuard := [...]string{"core.fsmonitor=false", "core.hooksPath=/dev/null", "safe.bareRepository=explicit"}
	n := 0
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			if c, err := strconv.Atoi(v); err == nil && c >= 0 {
				n = c
			}
		}
	}
	out := make([]string, 0, 2*len(gitGuard)+1)
	for i, kv := range gitGuard {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, "GIT_CONFIG_KEY_"+strconv.Itoa(n+i)+"="+k, "GIT_CONFIG_VALUE_"+strconv.Itoa(n+i)+"="+v)
	}
	return append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(n+len(gitGuard)))
}
