package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// loadWithin loads, failing the test instead of hanging when Load never
// returns (a FIFO read without a writer blocks forever).
func loadWithin(t *testing.T, f *fixture, opts Options) (*Config, *Report, error) {
	t.Helper()
	type result struct {
		cfg *Config
		rep *Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		cfg, rep, err := f.load(t, opts)
		done <- result{cfg, rep, err}
	}()
	select {
	case r := <-done:
		return r.cfg, r.rep, r.err
	case <-time.After(60 * time.Second):
		t.Fatal("Load did not return: it blocks on the file")
	}
	return nil, nil, nil
}

// The configuration files are read as regular files only, with a cap: a
// project's config.yaml that is a FIFO or a symlink to /dev/zero, and a
// user's config.yaml that is a FIFO, end in an error naming the file
// instead of a hang or an endless read.
func TestConfigFilesMustBeRegular(t *testing.T) {
	special := map[string]func(t *testing.T, path string){
		"fifo": func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"/dev/zero": func(t *testing.T, path string) {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		},
		"huge": func(t *testing.T, path string) {
			write(t, path, "# "+strings.Repeat("x", MaxFileSize)+"\n")
		},
	}
	wants := map[string]string{
		"fifo":      "this file is a named pipe (FIFO), not a regular file; fawn reads only regular files",
		"/dev/zero": "this file links outside the project (to /dev/zero)",
		"huge":      "this file is larger than 1 MiB",
	}
	for what, make := range special {
		for _, whose := range []string{"project", "user"} {
			t.Run(whose+" "+what, func(t *testing.T) {
				f := newFixture(t, "", "")
				path := filepath.Join(f.project, ".fawn", "config.yaml")
				want := wants[what]
				if whose == "user" {
					path = filepath.Join(f.home, "config.yaml")
					if what == "/dev/zero" {
						want = "this file is a character device, not a regular file"
					}
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				make(t, path)
				for _, trusted := range []bool{false, true} {
					_, rep, err := loadWithin(t, f, Options{Trusted: trusted})
					if err == nil || !hasProblem(rep.Errors, "", "config: "+path+": "+want) {
						t.Errorf("trusted %v: err = %v, want %q", trusted, err, want)
					}
				}
			})
		}
	}
}
