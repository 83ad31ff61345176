package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid is a live process (not gone, not a zombie).
func alive(pid string) bool {
	st, err := os.ReadFile("/proc/" + pid + "/stat")
	return err == nil && !strings.Contains(string(st), ") Z ")
}

// waitDead waits (generously) until the pid written to path has ended.
func waitDead(t *testing.T, path string) {
	t.Helper()
	b, _ := os.ReadFile(path)
	pid := strings.TrimSpace(string(b))
	if pid == "" {
		t.Fatalf("no pid in %s", path)
	}
	for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			n, _ := strconv.Atoi(pid)
			_ = syscall.Kill(n, syscall.SIGKILL)
			t.Fatalf("process %s outlived the kill", pid)
		}
	}
}

// Cancelling a Command ends its group and what left the group with setsid,
// and Wait does not wait for the pipe they held.
func TestCancelEndsTheGroupAndItsSetsidDescendants(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	script := `sleep 30 & echo $! > bg; setsid sh -c 'sleep 30 & echo $! > grand; sleep 30' & echo $! > sid; echo started; sleep 30`
	cmd := Command(ctx, "bash", "-c", script)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "grand")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the script did not start its children")
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return after the cancellation")
	}
	for _, f := range []string{"bg", "sid", "grand"} {
		waitDead(t, filepath.Join(dir, f))
	}
}

// Signal with SIGTERM reaches the group and its descendants and leaves
// nothing stopped.
func TestSignalTerm(t *testing.T) {
	dir := t.TempDir()
	cmd := Own(exec.Command("bash", "-c", `setsid sleep 30 & echo $! > sid; sleep 30`))
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(filepath.Join(dir, "sid")); len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the script did not start its child")
		}
	}
	Signal(cmd, syscall.SIGTERM)
	_ = cmd.Wait()
	waitDead(t, filepath.Join(dir, "sid"))
}

// A Tree taken while the child runs ends what was below it after the
// child has exited and they were reparented, setsid or not.
func TestTreeKillsWhatWasBelowAfterTheChildExits(t *testing.T) {
	dir := t.TempDir()
	cmd := Own(exec.Command("bash", "-c", `sleep 30 & echo $! > bg; setsid sleep 30 & echo $! > sid; read x`))
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(filepath.Join(dir, "sid")); len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the script did not start its children")
		}
	}
	below := Below(cmd)
	stdin.Close() // the child exits; its children are reparented
	_ = cmd.Wait()
	below.Kill()
	for _, f := range []string{"bg", "sid"} {
		waitDead(t, filepath.Join(dir, f))
	}
}
