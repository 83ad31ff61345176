//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
	"runtime"
)

// Available says whether this system can confine a shell: fawn's sandbox
// is Linux's Landlock; elsewhere it says so and fawn keeps asking.
func Available() error {
	return errors.New("fawn has no sandbox on " + runtime.GOOS + " (Linux only: Landlock)")
}

func startConfined(Policy, *exec.Cmd) error { return Available() }
