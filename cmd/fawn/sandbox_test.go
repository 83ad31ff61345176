package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/sandbox"
	"github.com/fawn-ide/fawn/terminal"
)

// TestMain puts the tests' temp directories in one of their own, removed
// at the end: a sandboxed shell whose project lies in the temp directory
// makes a directory of its own beside it, which would outlive the tests
// in /tmp.
func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "fawn-cmd-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// The workspace's shell is sandboxed by default and refuses what the
// policy closes.
func TestWorkspaceShellIsSandboxed(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir()) // beside the project, not holding it
	cfg, _, err := config.Load(config.Options{ProjectDir: dir, Env: []string{"FAWN_HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := newWorkspace(cfg, nil, nil, project.NewWatchers(project.WatchOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if !ws.sandbox.On() || ws.sandbox.Describe() != "sandboxed: project, no network" {
		t.Fatalf("sandbox: on %v, %q", ws.sandbox.On(), ws.sandbox.Describe())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := ws.term.Run(ctx, terminal.Command{Text: "touch ../outside", Timeout: 30 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode == 0 || !strings.Contains(res.Output, "Permission denied") {
		t.Fatalf("the shell is not confined: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, "outside")); err == nil {
		t.Fatal("../outside was created")
	}
}
