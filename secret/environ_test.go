package secret

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

func TestWipe(t *testing.T) {
	block := []byte("HOME=/root\x00OPENAI_API_KEY=sk-abc\x00OPENAI_API_KEY_X=keep\x00A=\x00MY_TOKEN=t=1\x00")
	changed := wipe(block, map[string]bool{"OPENAI_API_KEY": true, "MY_TOKEN": true})
	want := []byte("HOME=/root\x00" + strings.Repeat("\x00", len("OPENAI_API_KEY=sk-abc")) + "\x00OPENAI_API_KEY_X=keep\x00A=\x00" + strings.Repeat("\x00", len("MY_TOKEN=t=1")) + "\x00")
	if !bytes.Equal(block, want) {
		t.Errorf("block = %q\nwant    %q", block, want)
	}
	if len(changed) != 2 || changed[0] != [2]int{11, 32} {
		t.Errorf("changed = %v", changed)
	}
}

// unsetenvHelper is set in the environment of the test binary started by
// TestUnsetenvClearsProcEnviron: that process is the one whose environment
// is cleaned.
const unsetenvHelper = "FAWN_SECRET_TEST_HELPER"

// TestUnsetenvClearsProcEnviron starts a process with a key in its
// environment, has it call Unsetenv, and reads its /proc/PID/environ from
// outside, as the agent's shell would; then what a child of it inherits
// and reads of its parent.
func TestUnsetenvClearsProcEnviron(t *testing.T) {
	if os.Getenv(unsetenvHelper) != "" {
		unsetenvChild()
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/environ is Linux's")
	}
	const key = "sk-test-unsetenv-0123456789abcdef"
	cmd := exec.Command(os.Args[0], "-test.run=^TestUnsetenvClearsProcEnviron$", "-test.count=1")
	cmd.Env = append(os.Environ(), unsetenvHelper+"=1", "SECRET_TEST_API_KEY="+key, "SECRET_TEST_OTHER="+key+"-too", "SECRET_TEST_KEPT=visible")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	sc := bufio.NewScanner(stdout)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == "ready" {
			break
		}
	}
	if len(lines) == 0 || lines[len(lines)-1] != "ready" {
		t.Fatalf("the helper did not get ready: %q", lines)
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(environ, []byte(key)) || bytes.Contains(environ, []byte("SECRET_TEST_API_KEY")) {
		t.Error("/proc/PID/environ still holds the key") // (the rest of it is this machine's, not for a log)
	}
	if !bytes.Contains(environ, []byte("\x00SECRET_TEST_KEPT=visible\x00")) {
		t.Error("/proc/PID/environ lost SECRET_TEST_KEPT, which it should keep")
	}
	out := strings.Join(lines, "\n")
	for _, want := range []string{"getenv=\n", "child-env-keys=0\n", "child-parent-keys=0\n", "child-kept=1\n"} {
		if !strings.Contains(out+"\n", want) {
			t.Errorf("the helper says %q, want %q in it", out, want)
		}
	}
}

// unsetenvChild is the helper process: it drops the keys, reports what it
// and a child of it see, and waits for its stdin to close.
func unsetenvChild() {
	if err := Unsetenv("SECRET_TEST_API_KEY", "SECRET_TEST_OTHER", "NOT_SET_AT_ALL"); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Printf("getenv=%s\n", os.Getenv("SECRET_TEST_API_KEY")+os.Getenv("SECRET_TEST_OTHER"))
	out, err := exec.Command("sh", "-c",
		`echo "child-env-keys=$(env | grep -c sk-test-unsetenv)"; `+
			`echo "child-parent-keys=$(tr '\0' '\n' < /proc/$PPID/environ | grep -c sk-test-unsetenv)"; `+
			`echo "child-kept=$(tr '\0' '\n' < /proc/$PPID/environ | grep -c SECRET_TEST_KEPT=visible)"`).Output()
	if err != nil {
		fmt.Println("error:", err)
	}
	fmt.Print(string(out))
	fmt.Println("ready")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	os.Exit(0)
}

// BenchmarkUnsetenv is what Unsetenv adds to fawn's start-up: reading the
// block's bounds and the block, and writing the entries it clears.
func BenchmarkUnsetenv(b *testing.B) {
	for b.Loop() {
		os.Setenv("SECRET_BENCH_API_KEY", "sk-bench-0123456789")
		if err := Unsetenv("SECRET_BENCH_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"); err != nil {
			b.Fatal(err)
		}
	}
}
