package secret

import (
	"fmt"
	"os"
)

// Unsetenv takes the named variables out of fawn's environment for good:
// out of os.Environ, so that no child fawn starts (the shell, hooks, MCP
// and language servers, git) inherits them, and out of the environment
// block the kernel shows as /proc/PID/environ, which os.Unsetenv leaves as
// it was and which every process of the user can read. Call it once the
// configuration has read the values, before any child starts. An error
// says the block could not be overwritten; os.Environ is clean anyway.
func Unsetenv(names ...string) error {
	if len(names) == 0 {
		return nil
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
		_ = os.Unsetenv(n)
	}
	if err := wipeEnvironBlock(set); err != nil {
		return fmt.Errorf("the model keys are still in /proc/%d/environ, where the agent's shell can read them: %w", os.Getpid(), err)
	}
	return nil
}

// wipe zeroes, in block (the environment block: NAME=VALUE entries, each
// ended by a NUL), every entry whose name is in names, and returns the
// ranges it changed.
func wipe(block []byte, names map[string]bool) (changed [][2]int) {
	for start := 0; start < len(block); {
		end := start
		for end < len(block) && block[end] != 0 {
			end++
		}
		entry := block[start:end]
		for i, c := range entry {
			if c == '=' {
				if names[string(entry[:i])] {
					clear(entry)
					changed = append(changed, [2]int{start, end})
				}
				break
			}
		}
		start = end + 1
	}
	return changed
}
