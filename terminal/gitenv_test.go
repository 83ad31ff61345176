package terminal

import (
	"strings"
	"testing"
)

func TestGitGuardEnvAppendsAfterTheUsersEntries(t *testing.T) {
	got := strings.Join(GitGuardEnv([]string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=me"}), " ")
	want := "GIT_CONFIG_KEY_1=core.fsmonitor GIT_CONFIG_VALUE_1=false GIT_CONFIG_KEY_2=core.hooksPath GIT_CONFIG_VALUE_2=/dev/null " +
		"GIT_CONFIG_KEY_3=safe.bareRepository GIT_CONFIG_VALUE_3=explicit GIT_CONFIG_COUNT=4"
	if got != want {
		t.Errorf("GitGuardEnv:\n got %s\nwant %s", got, want)
	}
}
