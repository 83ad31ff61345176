package sandbox

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

func TestSettingsAreChecked(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Mode: "strict"}, "expected one of off, workspace-write, read-only"},
		{Settings{Mode: "off", Network: "example.com"}, "expected host:port"},
		{Settings{Mode: "off", Network: []any{"example.com:0"}}, "port must be a number from 1 to 65535"},
		{Settings{Mode: "off", Network: 3}, "expected false, true or a list"},
		{Settings{Mode: "off", Writable: []string{"cache"}}, "sandbox.writable entry \"cache\": expected an absolute path"},
		{Settings{Mode: "off", DenyRead: []string{"$HOME/.ssh"}}, "sandbox.deny_read entry"},
	} {
		_, err := New(c.s, "/p", "/h", nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Mode: "workspace-write", Network: false}, "sandboxed: project, no network"},
		{Settings{Mode: "workspace-write", Network: true}, "sandboxed: project, network"},
		{Settings{Mode: "read-only", Network: []string{"a.example:443", "b.example:443", "c:8080"}}, "sandboxed: read-only, network: port 443, 8080"},
		{Settings{Mode: "off"}, "not sandboxed"},
	} {
		p, err := New(c.s, "/p", "/h", []string{"GOCACHE=/c/go-build", "TMPDIR=/t"})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Describe(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
	p, _ := New(Settings{Mode: "workspace-write", Writable: []string{"~/.cache"}, DenyRead: []string{"~/.ssh"}}, "/p", "/h", []string{"GOCACHE=/c/go-build", "TMPDIR=/t"})
	if strings.Join(p.Writable, " ") != "/h/.cache /c/go-build" || p.Temp != "/t" || p.DenyRead[0] != "/h/.ssh" {
		t.Errorf("paths: %+v", p)
	}
}

// Where the kernel cannot confine, the shell is never said to be
// sandboxed, starts as it is (Start changes nothing) and /sandbox on
// says why not; the commands then ask, as On is false.
func TestNoKernelSupport(t *testing.T) {
	p, err := New(Settings{Mode: "workspace-write"}, "/p", "/h", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &Shell{policy: p, missing: errors.New("this kernel offers no Landlock")}
	if s.On() {
		t.Error("On without kernel support")
	}
	if got := s.Describe(); got != "not sandboxed: unavailable here, commands ask" {
		t.Errorf("Describe = %q", got)
	}
	if err := s.Configured(); err == nil || !strings.Contains(err.Error(), "no Landlock") {
		t.Errorf("Configured = %v", err)
	}
	cmd := exec.Command("/bin/sh", "-c", "true")
	if err := s.Start(cmd); err != nil || cmd.Path != "/bin/sh" || cmd.Env != nil {
		t.Errorf("Start changed the command: %v %+v", err, cmd)
	} else if err := cmd.Wait(); err != nil {
		t.Errorf("the command started as it is: %v", err)
	}
	s.SetOff(true)
	if s.On() {
		t.Error("On after SetOff")
	}
}

func TestExplainSaysHomeAsTilde(t *testing.T) {
	p, err := New(Settings{Mode: "workspace-write", Writable: []string{"~/.cache"}, DenyRead: []string{"~/.ssh", "/etc/secret"}}, "/h/src/p", "/h", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := p.Explain()
	for _, want := range []string{"Writes: the project (~/src/p), the system temp directory, and ~/.cache.", "Not readable: ~/.ssh, /etc/secret.", "Network: closed"} {
		if !strings.Contains(got, want) {
			t.Errorf("Explain lacks %q:\n%s", want, got)
		}
	}
}

func TestDenyReadNeverHoldsTheProject(t *testing.T) {
	p, err := New(Settings{Mode: "workspace-write", DenyRead: []string{"~/.ssh"}}, "/h/src/p", "/h", nil, "/h", "/h/src")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.DenyRead, " ") != "/h/.ssh" {
		t.Errorf("DenyRead = %v", p.DenyRead)
	}
}
