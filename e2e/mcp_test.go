package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// npmBin finds a program of the npm packages the tests run (.ci/run
// installs them, pinned, under ~/.cache/fawn-test-npm or $NPM_TEST_PACKAGES_DIR).
func npmBin(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("NPM_TEST_PACKAGES_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "fawn-test-npm")
	}
	p := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed: .ci/run installs the packages of .ci/npm-test-packages under %s", name, dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed (apt-get install -y nodejs)")
	}
	return p
}

// descendant finds a process under pid whose command line contains what.
func descendant(t *testing.T, pid int, what string) int {
	t.Helper()
	parents := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 1 {
			parents[p], _ = strconv.Atoi(fields[1])
		}
	}
	under := func(p int) bool {
		for i := 0; i < 64 && p > 1; i++ {
			if p = parents[p]; p == pid {
				return true
			}
		}
		return false
	}
	for p := range parents {
		if cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "cmdline")); under(p) && bytes.Contains(cmd, []byte(what)) {
			return p
		}
	}
	t.Fatalf("no process %q under %d", what, pid)
	return 0
}

// panePID is the pid of the shell tmux started fawn from.
func (tm *Term) panePID() int {
	tm.t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(tm.tmux("display", "-p", "-t", tm.name, "#{pane_pid}")))
	if err != nil {
		tm.t.Fatal(err)
	}
	return pid
}

// MCP against the real npm servers: their tools are listed as soon as the
// servers are ready, /mcp shows them, an image a tool returns reaches the
// model as an image and shows in the card, and a server that dies is
// started again and says so.
func TestMCPServersFromNpm(t *testing.T) {
	every, files := npmBin(t, "mcp-server-everything"), npmBin(t, "mcp-server-filesystem")
	project := t.TempDir()
	if real, err := filepath.EvalSymlinks(project); err == nil {
		project = real
	}
	writeFile(t, filepath.Join(project, "notes.txt"), "hello from the project\n")
	conf := filepath.Join(t.TempDir(), "mcp.yaml")
	writeFile(t, conf, fmt.Sprintf("tools:\n  mcp_servers:\n    everything:\n      command: %s\n      args: [stdio]\n    files:\n      command: %s\n      args: [%s]\n", every, files, project))
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("mcp__everything__get-tiny-image", `{}`)}},
		{Text: "Got the logo."},
		{ToolCalls: []llmtest.ToolCall{call("mcp__files__read_text_file", `{"path":"`+filepath.Join(project, "notes.txt")+`"}`)}},
		{Text: "Read the notes."},
	}})
	tm := startIDE(t, srv, project, "--config", conf, "--permission-mode", "yolo", "--model", "gpt-4o")
	tm.WaitFor("MCP: everything is ready", "MCP: files is ready")
	tm.prompt("/tools")
	tm.WaitFor("MCP everything (ready):", "get-tiny-image", "MCP files (ready):", "read_text_file")
	tm.prompt("/mcp")
	tm.WaitFor("everything — ready", "files — ready", "/mcp restart NAME")

	tm.prompt("show me the logo")
	tm.WaitFor("Got the logo.", "[image 20×20 PNG]")
	msgs := srv.ChatRequests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Role != "user" || len(last.Images) != 1 {
		t.Errorf("the tool's image did not reach the model as an image: %+v", last)
	}
	tm.prompt("read the notes")
	tm.WaitFor("Read the notes.", "hello from the project")

	// The everything server dies: fawn starts it again and says so.
	pid := descendant(t, tm.panePID(), "mcp-server-everything")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	tm.WaitFor("starting it again")
	tm.WaitFor("MCP: everything is back")
	if n := descendant(t, tm.panePID(), "mcp-server-everything"); n == pid {
		t.Error("the server was not started again")
	}
}

// An HTTP MCP server (everything, streamable HTTP) that goes away and comes
// back is reconnected.
func TestMCPReconnectsOverHTTP(t *testing.T) {
	every := npmBin(t, "mcp-server-everything")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	start := func() *exec.Cmd {
		cmd := exec.Command(every, "streamableHttp")
		cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				go func() {
					for sc.Scan() {
					}
				}()
				return cmd
			}
		}
		t.Fatal("the HTTP server did not start")
		return nil
	}
	server := start()
	conf := filepath.Join(t.TempDir(), "mcp.yaml")
	writeFile(t, conf, fmt.Sprintf("tools:\n  mcp_servers:\n    web:\n      url: http://127.0.0.1:%d/mcp\n", port))
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("mcp__web__echo", `{"message":"are you there"}`)}},
		{Text: "It did not answer."},
	}})
	tm := startIDE(t, srv, "", "--config", conf, "--permission-mode", "yolo")
	tm.WaitFor("MCP: web is ready")
	server.Process.Kill()
	server.Wait()
	tm.prompt("echo something")
	tm.WaitFor("It did not answer.")
	tm.WaitFor("starting it again")
	start()
	tm.WaitFor("MCP: web is back")
	tm.prompt("/mcp")
	tm.WaitFor("web — ready")
}
