package sandbox

import (
	"crypto/sha256"
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

// Start starts cmd (a shell) confined by p: the confinement is made on
// an OS thread of its own, which starts cmd and then ends, so the shell
// begins confined and fawn's other threads never are. It starts cmd as
// it is when p.Mode is Off, and never starts it unconfined otherwise.
func (p Policy) Start(cmd *exec.Cmd) error {
	if p.Mode == Off || p.Mode == "" {
		return cmd.Start()
	}
	if within(p.Temp, p.Project) {
		env := cmd.Env
		if env == nil {
			env = os.Environ()
		}
		env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") })
		// The temp directory holds the project, so it is carved (its
		// .git stays read-only) and takes no new entries: the shell gets
		// a temp directory of its own beside the project.
		dir, err := privateTemp(p.Temp, p.Project)
		if err != nil {
			return fmt.Errorf("sandbox: make the shell's temp directory: %w", err)
		}
		p.Writable = append(slices.Clone(p.Writable), dir)
		cmd.Env = append(env, "TMPDIR="+dir)
	}
	if err := startConfined(p, cmd); err != nil {
		return fmt.Errorf("the sandbox could not confine the shell, so it does not start (%w); "+
			"run /sandbox off for this session, or set sandbox.mode: off in your config", err)
	}
	return nil
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
