package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fawnPIDs are the processes the pane's shell runs: fawn, while it runs.
func (tm *Term) fawnPIDs() []int {
	out, err := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "-t", tm.name, "#{pane_pid}").Output()
	shell := strings.TrimSpace(string(out))
	if err != nil || shell == "" {
		return nil
	}
	out, _ = exec.Command("pgrep", "-P", shell).Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// fawnPID is the pid of the fawn running in the pane.
func (tm *Term) fawnPID() int {
	tm.t.Helper()
	pids := tm.fawnPIDs()
	if len(pids) == 0 {
		tm.t.Fatal("no fawn runs in the pane")
	}
	return pids[0]
}

// recoveryHolds waits until a recovery file under home holds want.
func recoveryHolds(t *testing.T, home, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(home, "data", "sessions", "*", "recovery", "*.rec"))
		for _, f := range files {
			if b, _ := os.ReadFile(f); strings.Contains(string(b), want) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recovery file holds %q (files: %v)", want, files)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// An unsaved buffer survives kill -9 (kept a moment after the edit) and
// SIGTERM (kept at once); the next start offers it back, and a clean quit
// that discards it leaves nothing behind.
func TestUnsavedBufferSurvivesAKill(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	notes := filepath.Join(project, "notes.txt")
	writeFile(t, notes, "alpha\n")
	env := []string{"FAWN_HOME=" + home}

	tm := Start(t, 140, 40, project, env)
	tm.WaitFor("Ask fawn")
	tm.Keys("C-p")
	tm.WaitFor("notes.txt")
	tm.Type("notes")
	tm.Keys("Enter")
	tm.WaitFor("alpha")
	tm.Type("KEPT-BY-TIMER ")
	tm.WaitFor("KEPT-BY-TIMER alpha")
	recoveryHolds(t, home, "KEPT-BY-TIMER alpha")
	pid := tm.fawnPID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The terminal is left as the kill found it (raw, alternate screen):
	// wait for the process, not for the screen.
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("fawn outlived kill -9")
		}
	}

	tm2 := Start(t, 140, 40, project, env)
	tm2.WaitFor("Unsaved changes from before", "notes.txt", "restore them in tabs")
	tm2.Keys("r")
	tm2.WaitFor("KEPT-BY-TIMER alpha", "restored the unsaved changes of 1 file")
	if b, _ := os.ReadFile(notes); string(b) != "alpha\n" {
		t.Errorf("restoring wrote the file: %q", b)
	}
	// SIGTERM right after an edit: kept before fawn ends.
	// The restored tab already shows "notes.txt", so wait for the finder
	// itself, its query and its closing: keys typed while it is still open
	// go to its query, not to the file.
	tm2.Keys("C-p")
	tm2.WaitFor("Open file")
	tm2.Type("notes")
	tm2.WaitFor("> notes")
	tm2.Keys("Enter")
	tm2.WaitGone("Open file")
	tm2.Type("BY-SIGTERM ")
	tm2.WaitFor("BY-SIGTERM KEPT-BY-TIMER alpha")
	if err := syscall.Kill(tm2.fawnPID(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	tm2.WaitFor("fawn-exited-143")
	recoveryHolds(t, home, "BY-SIGTERM ")

	// Discarded, then a clean quit: nothing is offered again.
	tm3 := Start(t, 140, 40, project, env)
	tm3.WaitFor("Unsaved changes from before")
	tm3.Keys("d")
	tm3.WaitGone("Unsaved changes from before")
	tm3.Keys("C-q")
	tm3.WaitFor("fawn-exited-0")
	files, _ := filepath.Glob(filepath.Join(home, "data", "sessions", "*", "recovery", "*.rec"))
	if len(files) != 0 {
		t.Errorf("recovery files left after discarding: %v", files)
	}
}
