package config

import (
	"slices"
	"strings"
	"testing"
)

func TestSandboxIsTheUsersOnly(t *testing.T) {
	f := newFixture(t, "sandbox:\n  network: [proxy.golang.org:443]\n", "sandbox:\n  mode: \"off\"\n  network: true\n  writable: [/]\n")
	cfg, rep, err := f.load(t, Options{Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Sandbox.Mode != "workspace-write" {
		t.Errorf("mode = %q: a project turned the sandbox off", cfg.Sandbox.Mode)
	}
	if list, _ := cfg.Sandbox.Network.([]any); len(list) != 1 {
		if s, _ := cfg.Sandbox.Network.([]string); !slices.Equal(s, []string{"proxy.golang.org:443"}) {
			t.Errorf("network = %#v", cfg.Sandbox.Network)
		}
	}
	if slices.Contains(cfg.Sandbox.Writable, "/") || !slices.Contains(cfg.Sandbox.DenyRead, "~/.ssh") {
		t.Errorf("paths: %+v", cfg.Sandbox)
	}
	n := 0
	for _, w := range rep.Warnings {
		if strings.Contains(w.String(), "the sandbox is yours to set") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d warnings about the project's sandbox keys, want 3: %v", n, rep.Warnings)
	}
}

func TestSandboxValuesAreChecked(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"sandbox:\n  network: 3\n", "sandbox.network"},
		{"sandbox:\n  network: [example.com]\n", "expected host:port"},
		{"sandbox:\n  mode: on\n", "one of off, workspace-write, read-only"},
		{"sandbox:\n  writable: [cache]\n", "an absolute path or one under ~/"},
	} {
		f := newFixture(t, c.file, "")
		_, _, err := f.load(t, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.file, err, c.want)
		}
	}
}
