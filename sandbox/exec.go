package sandbox

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// ExecName is argv[0] of fawn re-executed to confine a shell; with the
// policy in EnvVar it marks the hidden entry Main serves.
const ExecName = "fawn-sandbox"

// EnvVar carries the policy to the re-executed fawn, which removes it
// before it executes the shell.
const EnvVar = "FAWN_SANDBOX_POLICY"

// spec is what the re-executed fawn needs: the policy with every path
// absolute, and the program to become.
type spec struct {
	Policy Policy
}

// Confine rewrites cmd (a shell about to start) so that it starts
// confined by p: fawn's own executable, which restricts itself (Main) and
// then executes cmd's program with cmd's arguments and environment.
// It changes nothing when p.Mode is Off.
func (p Policy) Confine(cmd *exec.Cmd) error {
	if p.Mode == Off || p.Mode == "" {
		return nil
	}
	self, err := selfExe()
	if err != nil {
		return fmt.Errorf("sandbox: find fawn's own executable to confine the shell: %w", err)
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	clean := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if !strings.HasPrefix(kv, EnvVar+"=") {
			clean = append(clean, kv)
		}
	}
	if within(p.Temp, p.Project) {
		clean = slices.DeleteFunc(clean, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") })
		// The temp directory holds the project, so it is carved (its
		// .git stays read-only) and takes no new entries: the shell gets
		// a temp directory of its own beside the project.
		dir, err := privateTemp(p.Temp, p.Project)
		if err != nil {
			return fmt.Errorf("sandbox: make the shell's temp directory: %w", err)
		}
		p.Writable = append(p.Writable, dir)
		clean = append(clean, "TMPDIR="+dir)
	}
	data, err := json.Marshal(spec{Policy: p})
	if err != nil {
		return err
	}
	cmd.Env = append(clean, EnvVar+"="+string(data))
	cmd.Args = append([]string{ExecName, cmd.Path}, cmd.Args...)
	cmd.Path = self
	return nil
}

// Main serves the hidden entry: in a process started by Confine it
// confines the process and executes the shell, and never returns (on
// failure it says why on stderr and exits 126, never running the shell
// unconfined). In any other process it returns at once. cmd/fawn calls it
// before anything else.
func Main() {
	if filepath.Base(os.Args[0]) != ExecName || len(os.Args) < 3 {
		return
	}
	raw, ok := os.LookupEnv(EnvVar)
	if !ok {
		return
	}
	os.Unsetenv(EnvVar)
	var s spec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		fail(fmt.Errorf("read the policy: %w", err))
	}
	if err := restrict(s); err != nil {
		fail(err)
	}
	if err := execve(os.Args[1], os.Args[2:], os.Environ()); err != nil {
		fail(fmt.Errorf("start %s: %w", os.Args[1], err))
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "fawn: the sandbox could not confine the shell, so it does not start: %v\n"+
		"Run /sandbox off for this session, or set sandbox.mode: off in your config.\n", err)
	os.Exit(126)
}

// within reports whether path is dir or lies beneath it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// privateTemp is the temp directory of the shells of one project: one
// per user and project, made once and used again (a shell started again
// finds its files), and only if it is a directory of this user's that no
// one else may enter, since the name is known to anyone.
func privateTemp(temp, project string) (string, error) {
	sum := sha256.Sum256([]byte(project))
	dir := filepath.Join(temp, fmt.Sprintf("fawn-sandbox-%d-%x", os.Getuid(), sum[:6]))
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); !st.IsDir() || st.Mode().Perm() != 0o700 || !ok || int(sys.Uid) != os.Getuid() {
		return "", fmt.Errorf("%s is not a directory of yours that only you may enter", dir)
	}
	return dir, nil
}
