package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The real binary's exit codes and one-line errors, as a script sees them.
func TestBinaryUsageErrors(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "notadir")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"/definitely/not/here"}, 2, "fawn: /definitely/not/here: no such directory\n"},
		{[]string{file}, 2, "not a directory"},
		{[]string{"--bogus"}, 2, "unknown flag: --bogus"},
		{[]string{"--version"}, 0, "fawn "},
	}
	for _, c := range cases {
		cmd := exec.Command(binary, c.args...)
		cmd.Env = append(os.Environ(), "FAWN_HOME="+home)
		out, _ := cmd.CombinedOutput()
		if got := cmd.ProcessState.ExitCode(); got != c.code {
			t.Errorf("fawn %v: exit %d, want %d (%s)", c.args, got, c.code, out)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("fawn %v: output %q lacks %q", c.args, out, c.want)
		}
	}
}
