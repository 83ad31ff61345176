//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// box is a project, a home and a temp directory of their own, and a
// policy over them.
type box struct {
	project, home, tmp string
	policy             Policy
	env                []string
}

func newBox(t *testing.T, s Settings) *box {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	root := t.TempDir()
	b := &box{project: filepath.Join(root, "proj"), home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp")}
	for _, d := range []string{b.project, filepath.Join(b.home, ".ssh"), b.tmp, filepath.Join(b.project, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(b.home, ".bashrc"), "# rc\n")
	write(t, filepath.Join(b.home, ".ssh", "id_ed25519"), "SECRET KEY\n")
	b.env = []string{"HOME=" + b.home, "TMPDIR=" + b.tmp, "PATH=" + os.Getenv("PATH"), "LANG=C"}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN"} {
		if v, ok := os.LookupEnv(k); ok {
			b.env = append(b.env, k+"="+v)
		}
	}
	if s.Mode == "" {
		s.Mode = string(WorkspaceWrite)
	}
	if s.Writable == nil {
		s.Writable = DefaultWritable()
	}
	if s.DenyRead == nil {
		s.DenyRead = DefaultDenyRead()
	}
	p, err := New(s, b.project, b.home, b.env)
	if err != nil {
		t.Fatal(err)
	}
	b.policy = p
	return b
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs script in bash in the box's project, confined.
func (b *box) run(t *testing.T, script string) (string, int) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, "-c", script)
	cmd.Args[0] = "bash"
	cmd.Dir = b.project
	cmd.Env = b.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := b.policy.Start(cmd); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func (b *box) refused(t *testing.T, script string) string {
	t.Helper()
	out, code := b.run(t, script)
	if code == 0 {
		t.Fatalf("%s: succeeded in the sandbox:\n%s", script, out)
	}
	if _, ok := b.policy.Refusal(out); !ok {
		t.Errorf("%s: failed (%d) but not read as a sandbox refusal:\n%s", script, code, out)
	}
	return out
}

func TestWritesStayInTheProject(t *testing.T) {
	b := newBox(t, Settings{})
	if out, code := b.run(t, "echo hi > src/a.txt && mkdir -p src/d && touch src/d/b && echo t > $TMPDIR/t && cat src/a.txt"); code != 0 || !strings.Contains(out, "hi") {
		t.Fatalf("writing inside the project: %d\n%s", code, out)
	}
	b.refused(t, "touch ../outside")
	if _, err := os.Stat(filepath.Join(filepath.Dir(b.project), "outside")); err == nil {
		t.Error("../outside was created")
	}
	b.refused(t, "echo x >> ~/.bashrc")
	if data, _ := os.ReadFile(filepath.Join(b.home, ".bashrc")); string(data) != "# rc\n" {
		t.Errorf("~/.bashrc changed: %q", data)
	}
}

func TestSecretsAreNotReadable(t *testing.T) {
	b := newBox(t, Settings{})
	out := b.refused(t, "cat ~/.ssh/id_ed25519")
	if strings.Contains(out, "SECRET") {
		t.Fatalf("the key was read:\n%s", out)
	}
	if out, code := b.run(t, "cat ~/.bashrc && ls ~"); code != 0 || !strings.Contains(out, "# rc") {
		t.Fatalf("reading the rest of home: %d\n%s", code, out)
	}
}

func TestGitConfigStaysReadOnly(t *testing.T) {
	b := newBox(t, Settings{})
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	git := exec.Command("git", "init", "-q", b.project)
	git.Env = b.env
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	before, _ := os.ReadFile(filepath.Join(b.project, ".git", "config"))
	b.refused(t, "git config core.fsmonitor x")
	after, _ := os.ReadFile(filepath.Join(b.project, ".git", "config"))
	if !bytes.Equal(before, after) || bytes.Contains(after, []byte("fsmonitor")) {
		t.Fatalf(".git/config changed:\n%s", after)
	}
	entries, _ := os.ReadDir(filepath.Join(b.project, ".git"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".lock") {
			t.Errorf("left behind: .git/%s", e.Name())
		}
	}
	b.refused(t, "echo 'echo pwned' > .git/hooks/pre-commit")
	b.refused(t, "mkdir -p .claude && echo '{}' > .claude/settings.json")
	b.refused(t, "mkdir .fawn")
	for _, p := range []string{".git/hooks/pre-commit", ".claude", ".fawn"} {
		if _, err := os.Stat(filepath.Join(b.project, p)); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}

func TestNetworkIsClosed(t *testing.T) {
	b := newBox(t, Settings{})
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan struct{}, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			got <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	b.refused(t, fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d", port))
	if _, err := exec.LookPath("curl"); err == nil {
		b.refused(t, fmt.Sprintf("curl -sS --max-time 5 http://127.0.0.1:%d/", port))
	}
	if _, err := exec.LookPath("python3"); err == nil {
		// UDP and Multipath TCP, which Landlock's TCP rules miss.
		b.refused(t, `python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)'`)
		b.refused(t, `python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)'`)
	}
	select {
	case <-got:
		t.Fatal("the listener was reached from the sandbox")
	case <-time.After(100 * time.Millisecond):
	}
	// An allowed port opens.
	b2 := newBox(t, Settings{Network: []string{fmt.Sprintf("localhost:%d", port)}})
	if out, code := b2.run(t, fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d", port)); code != 0 {
		t.Fatalf("an allowed port: %d\n%s", code, out)
	}
}

func TestGoTestInsideTheSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	b := newBox(t, Settings{})
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	write(t, filepath.Join(b.project, "src", "go.mod"), "module fixture\n\ngo 1.22\n")
	write(t, filepath.Join(b.project, "src", "a_test.go"), "package fixture\n\nimport (\"os\"; \"testing\")\n\nfunc TestA(t *testing.T) { if err := os.WriteFile(t.TempDir()+\"/x\", nil, 0o644); err != nil { t.Fatal(err) } }\n")
	if out, code := b.run(t, "cd src && GOFLAGS=-mod=mod go test -count=1 ./..."); code != 0 {
		t.Fatalf("go test in the sandbox: %d\n%s", code, out)
	}
}

// A project inside the temp directory carves it (the project's .git stays
// read-only), so the shell gets a temp directory of its own beside it.
func TestProjectInsideTheTempDirectory(t *testing.T) {
	b := newBox(t, Settings{})
	b.env = append(b.env[:0:0], b.env...)
	for i, kv := range b.env {
		if strings.HasPrefix(kv, "TMPDIR=") {
			b.env[i] = "TMPDIR=" + filepath.Dir(b.project) // the project's parent
		}
	}
	p, err := New(Settings{Mode: string(WorkspaceWrite)}, b.project, b.home, b.env)
	if err != nil {
		t.Fatal(err)
	}
	b.policy = p
	if err := os.MkdirAll(filepath.Join(b.project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := b.run(t, `f=$(mktemp) && echo ok > "$f" && cat "$f"`); code != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("mktemp in the sandbox: %d\n%s", code, out)
	}
	b.refused(t, "touch .git/x")
	b.refused(t, "touch ../beside")
}

// What fawn's user may reach as root stays closed: the disks in /dev,
// and typing into another terminal with TIOCSTI (its request with high
// bits set too, which the kernel reads as the same request).
func TestDevicesAndTerminalInjection(t *testing.T) {
	b := newBox(t, Settings{})
	if _, err := os.Stat("/dev/loop0"); err == nil {
		b.refused(t, "exec 3</dev/loop0")
	}
	if out, code := b.run(t, "echo x > /dev/null && head -c1 /dev/urandom >/dev/null && ls /dev >/dev/null"); code != 0 {
		t.Fatalf("the usual devices: %d\n%s", code, out)
	}
	if _, err := exec.LookPath("python3"); err == nil {
		b.refused(t, `python3 -c 'import pty, fcntl, termios; m, s = pty.openpty(); fcntl.ioctl(s, termios.TIOCSTI, b"x")'`)
	}
	if _, err := exec.LookPath("perl"); err == nil && runtime.GOARCH == "amd64" {
		// ioctl (16) on stdin, no terminal: the filter answers EPERM
		// before the kernel could say ENOTTY.
		b.refused(t, `perl -e 'my $c = "x"; syscall(16, 0, 0x100005412, $c) == -1 or exit 0; print "$!\n"; exit 1'`)
	}
}

func TestNpmTestInsideTheSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("runs npm")
	}
	b := newBox(t, Settings{})
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("no npm (apt-get install -y npm)")
	}
	write(t, filepath.Join(b.project, "src", "package.json"), `{"name": "fixture", "version": "1.0.0", "scripts": {"test": "node test.js"}}`+"\n")
	write(t, filepath.Join(b.project, "src", "test.js"), "const fs = require('fs'), os = require('os'), path = require('path');\n"+
		"const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 't-')), 'x');\nfs.writeFileSync(f, 'ok');\n"+
		"if (fs.readFileSync(f, 'utf8') !== 'ok') { process.exit(1); }\nconsole.log('tests pass');\n")
	if out, code := b.run(t, "cd src && npm test"); code != 0 || !strings.Contains(out, "tests pass") {
		t.Fatalf("npm test in the sandbox: %d\n%s", code, out)
	}
}

// The shell's history file is written back; the rest of home is not.
func TestHistoryIsKept(t *testing.T) {
	b := newBox(t, Settings{})
	hist := filepath.Join(b.home, ".bash_history")
	write(t, hist, "ls\n")
	p, err := New(Settings{Mode: string(WorkspaceWrite)}, b.project, b.home, b.env)
	if err != nil {
		t.Fatal(err)
	}
	b.policy = p
	if out, code := b.run(t, "echo 'go test' >> ~/.bash_history"); code != 0 {
		t.Fatalf("appending to the history: %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(hist); string(data) != "ls\ngo test\n" {
		t.Errorf("history: %q", data)
	}
	b.refused(t, "echo x >> ~/.profile")
}

// With the network closed nothing listens; a listed port may be listened
// on and reached, from inside.
func TestListenOnAListedPort(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // a free port, most likely still free below
	serve := fmt.Sprintf(`python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", %d)); s.listen(); c = socket.create_connection(("127.0.0.1", %d)); print("served")'`, port, port)
	b := newBox(t, Settings{})
	b.refused(t, serve)
	open := newBox(t, Settings{Network: []string{fmt.Sprintf("localhost:%d", port)}})
	if out, code := open.run(t, serve); code != 0 || !strings.Contains(out, "served") {
		t.Fatalf("a listed port: %d\n%s", code, out)
	}
}

// Read-only writes nothing of the project, even one inside the temp
// directory, whose other entries stay writable.
func TestReadOnlyInsideTheTempDirectory(t *testing.T) {
	b := newBox(t, Settings{})
	for i, kv := range b.env {
		if strings.HasPrefix(kv, "TMPDIR=") {
			b.env[i] = "TMPDIR=" + filepath.Dir(b.project)
		}
	}
	p, err := New(Settings{Mode: string(ReadOnly)}, b.project, b.home, b.env)
	if err != nil {
		t.Fatal(err)
	}
	b.policy = p
	b.refused(t, "touch src/x")
	if out, code := b.run(t, `f=$(mktemp) && echo ok > "$f" && cat "$f"`); code != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("mktemp in the read-only sandbox: %d\n%s", code, out)
	}
}

// The shell's own temp directory has a name anyone can know: one that
// someone else made first (here, one others may enter) is not used.
func TestPrivateTempIsNotTakenOver(t *testing.T) {
	temp := t.TempDir()
	project := filepath.Join(temp, "proj")
	dir, err := privateTemp(temp, project)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := privateTemp(temp, project); err != nil || again != dir {
		t.Fatalf("a shell started again: %q %v, want %q", again, err, dir)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	p, err := New(Settings{Mode: string(WorkspaceWrite)}, project, t.TempDir(), []string{"TMPDIR=" + temp})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", "true")
	if err := p.Start(cmd); err == nil || !strings.Contains(err.Error(), "only you may enter") {
		if err == nil {
			cmd.Wait()
		}
		t.Fatalf("Start with a squatted temp directory: %v", err)
	}
}

// The shell starts confined from a thread of its own that then ends:
// fawn itself stays free, on every thread it has or makes later.
func TestFawnItselfIsNotConfined(t *testing.T) {
	b := newBox(t, Settings{})
	b.refused(t, "touch ../outside")
	confined := func() []string {
		var out []string
		tasks, _ := filepath.Glob("/proc/self/task/*/status")
		for _, task := range tasks {
			status, err := os.ReadFile(task)
			if err != nil {
				continue // the thread ended meanwhile
			}
			for _, l := range strings.Split(string(status), "\n") {
				if f := strings.Fields(l); len(f) == 2 && (f[0] == "NoNewPrivs:" || f[0] == "Seccomp:") && f[1] != "0" {
					out = append(out, task+": "+l)
				}
			}
		}
		return out
	}
	deadline := time.Now().Add(20 * time.Second)
	for left := confined(); len(left) > 0; left = confined() {
		if time.Now().After(deadline) {
			t.Fatalf("threads of the test process (%d) are still confined:\n%s", os.Getpid(), strings.Join(left, "\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Threads made now write outside the project.
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			errs <- os.WriteFile(filepath.Join(filepath.Dir(b.project), fmt.Sprintf("free-%d", i)), nil, 0o644)
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatalf("fawn's own write outside the project: %v", err)
		}
	}
}
