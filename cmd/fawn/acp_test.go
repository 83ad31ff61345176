package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/trust"
)

// TestGuardStdout runs guardStdout in a child test process and writes to
// stdout every way a stray print could: fmt.Println, os.Stdout, descriptor
// 1 itself, and a child process that inherits descriptor 1. Only the
// protocol's line may reach the real stdout; the rest goes to stderr.
func TestGuardStdout(t *testing.T) {
	if os.Getenv("FAWN_TEST_GUARD_STDOUT") == "1" {
		proto, err := guardStdout()
		if err != nil {
			fmt.Fprintln(os.Stderr, "guard:", err)
			os.Exit(3)
		}
		fmt.Println("stray: fmt.Println")
		os.Stdout.WriteString("stray: os.Stdout\n")
		_, _ = syscall.Write(1, []byte("stray: descriptor 1\n"))
		child := exec.Command("sh", "-c", "echo stray: child")
		child.Stdout = os.NewFile(1, "fd1")
		_ = child.Run()
		fmt.Fprintln(proto, `{"jsonrpc":"2.0","method":"ok"}`)
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGuardStdout$")
	cmd.Env = append(os.Environ(), "FAWN_TEST_GUARD_STDOUT=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s", err, errb.String())
	}
	if out.String() != `{"jsonrpc":"2.0","method":"ok"}`+"\n" {
		t.Errorf("stdout holds more than the protocol:\n%s", out.String())
	}
	for _, s := range []string{"fmt.Println", "os.Stdout", "descriptor 1", "child"} {
		if !strings.Contains(errb.String(), "stray: "+s) {
			t.Errorf("stderr lacks the stray print of %s:\n%s", s, errb.String())
		}
	}
}

// TestClientEnv: a command in the editor's terminal gets what fawn's own
// shell gives the agent's commands (no pager, the git guard in a project
// fawn does not trust) and the model keys emptied.
func TestClientEnv(t *testing.T) {
	environ := []string{"PATH=/bin", "OPENAI_API_KEY=sk-1", "MY_KEY=k", "HOME=/h"}
	cfg := &config.Config{Shell: config.Shell{UnsetEnv: config.DefaultUnsetEnv(), KeyVars: []string{"MY_KEY"}}}
	items := []trust.Item{{Kind: "git", Name: "core.fsmonitor", Source: "/p/.git/config", Detail: "x"}}
	untrusted := strings.Join(clientEnv(environ, cfg, trust.Deny("/p", items, trust.Untrusted)), " ")
	for _, want := range []string{"PAGER=cat", "GIT_PAGER=cat", "GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_COUNT=3", "OPENAI_API_KEY= ", "MY_KEY="} {
		if !strings.Contains(untrusted+" ", want) {
			t.Errorf("untrusted: %s lacks %s", untrusted, want)
		}
	}
	if strings.Contains(untrusted, "sk-1") || strings.Contains(untrusted, "PATH") || strings.Contains(untrusted, "HOME") {
		t.Errorf("untrusted: %s", untrusted)
	}
	trusted := strings.Join(clientEnv(environ, cfg, trust.Allow("/p", items, trust.Untrusted, "test")), " ")
	if strings.Contains(trusted, "GIT_CONFIG") || !strings.Contains(trusted, "OPENAI_API_KEY=") {
		t.Errorf("trusted: %s", trusted)
	}
}
