package main

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// repoRoot is the directory of the Makefile.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(here), "..", "..")
	if _, err := os.Stat(filepath.Join(root, "Makefile")); err != nil {
		t.Skipf("skipped: no Makefile at %s", root)
	}
	return root
}

// make runs make in the repository with args and the environment's Go.
func runMake(t *testing.T, env []string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("skipped: make is not installed")
	}
	cmd := exec.Command("make", args...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// describe is the version make stamps: git describe of the checkout, or
// "" when there is no git history to describe.
func describe(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("git", "describe", "--tags", "--always", "--dirty")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// make install puts a binary that runs and says the version git describes
// in PREFIX/bin, and DESTDIR stages it below.
func TestMakeInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: builds fawn")
	}
	prefix := t.TempDir()
	out := runMake(t, []string{"GOBIN=" + filepath.Join(prefix, "gobin-not-used")}, "install", "PREFIX="+prefix)
	bin := filepath.Join(prefix, "bin", "fawn")
	got, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v (make said:\n%s)", bin, err, out)
	}
	want := describe(t)
	if want == "" {
		want = "dev"
	}
	if strings.TrimSpace(string(got)) != "fawn "+want {
		t.Errorf("fawn --version = %q, want %q", got, "fawn "+want)
	}
	if _, err := os.Stat(filepath.Join(prefix, "gobin-not-used")); err == nil {
		t.Errorf("PREFIX given, but make install wrote to GOBIN")
	}

	// Where it goes without PREFIX (make -n: the commands, not the build):
	// GOBIN when Go has one, with DESTDIR before it; else ~/.local/bin.
	stage, gobin, home := t.TempDir(), t.TempDir(), t.TempDir()
	if out := runMake(t, []string{"GOBIN=" + gobin}, "-n", "install", "DESTDIR="+stage); !strings.Contains(out, "'"+filepath.Join(stage, gobin, "fawn")+"'") {
		t.Errorf("make install DESTDIR=%s with GOBIN=%s does not install to %s:\n%s", stage, gobin, filepath.Join(stage, gobin), out)
	}
	if out := runMake(t, []string{"GOBIN=", "GOENV=off", "HOME=" + home}, "-n", "install"); !strings.Contains(out, "'"+filepath.Join(home, ".local", "bin", "fawn")+"'") {
		t.Errorf("make install without GOBIN does not install to ~/.local/bin:\n%s", out)
	}
}

// make release builds the four archives and a SHA256SUMS that matches
// them. It cross-compiles fawn four times (minutes on a cold cache), so it
// runs only when FAWN_TEST_RELEASE=1 (.ci/run sets it after make test).
func TestMakeRelease(t *testing.T) {
	if os.Getenv("FAWN_TEST_RELEASE") != "1" {
		t.Skip("skipped: cross-compiles fawn four times; FAWN_TEST_RELEASE=1 runs it (.ci/run does)")
	}
	dist := t.TempDir()
	runMake(t, nil, "release", "DIST="+dist)
	version := describe(t)
	if version == "" {
		version = "dev"
	}
	sums := map[string]string{}
	f, err := os.Open(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q is not `SUM  NAME`", sc.Text())
		}
		sums[name] = sum
	}
	platforms := [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}}
	if len(sums) != len(platforms) {
		t.Errorf("SHA256SUMS lists %d files, want %d: %v", len(sums), len(platforms), sums)
	}
	for _, p := range platforms {
		name := "fawn-" + version + "-" + p[0] + "-" + p[1] + ".tar.gz"
		path := filepath.Join(dist, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if h := sha256.Sum256(b); sums[name] != hex.EncodeToString(h[:]) {
			t.Errorf("%s: SHA256SUMS says %q, the file's is %x", name, sums[name], h)
		}
		exe := extract(t, path, strings.TrimSuffix(name, ".tar.gz"))
		checkBinary(t, exe, p[0], p[1])
		if p[0] == runtime.GOOS && p[1] == runtime.GOARCH {
			if out, err := exec.Command(exe, "--version").Output(); err != nil || strings.TrimSpace(string(out)) != "fawn "+version {
				t.Errorf("%s --version = %q, %v; want fawn %s", name, out, err, version)
			}
		}
	}
}

// extract unpacks the archive's dir/fawn and checks dir holds the README and
// the example configuration; it returns the binary's path.
func extract(t *testing.T, archive, dir string) string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", archive, err)
	}
	tr := tar.NewReader(gz)
	seen := map[string]bool{}
	exe := filepath.Join(t.TempDir(), "fawn")
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", archive, err)
		}
		seen[h.Name] = true
		if h.Name == dir+"/fawn" {
			if h.Mode&0o111 == 0 {
				t.Errorf("%s: fawn is not executable (%o)", archive, h.Mode)
			}
			out, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY, 0o755)
			if err != nil {
				t.Fatal(err)
			}
			_, err = io.Copy(out, tr)
			out.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, want := range []string{dir + "/fawn", dir + "/README.md", dir + "/config.example.yaml"} {
		if !seen[want] {
			t.Errorf("%s lacks %s (has %v)", archive, want, seen)
		}
	}
	return exe
}

// checkBinary checks the executable is for goos and goarch, and static
// (CGO off: no interpreter on linux).
func checkBinary(t *testing.T, path, goos, goarch string) {
	t.Helper()
	switch goos {
	case "linux":
		f, err := elf.Open(path)
		if err != nil {
			t.Errorf("%s/%s: not ELF: %v", goos, goarch, err)
			return
		}
		defer f.Close()
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[goarch]
		if f.Machine != want {
			t.Errorf("%s/%s: machine %v, want %v", goos, goarch, f.Machine, want)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s/%s: dynamically linked (CGO_ENABLED=0 makes it static)", goos, goarch)
			}
		}
	case "darwin":
		f, err := macho.Open(path)
		if err != nil {
			t.Errorf("%s/%s: not Mach-O: %v", goos, goarch, err)
			return
		}
		defer f.Close()
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[goarch]
		if f.Cpu != want {
			t.Errorf("%s/%s: cpu %v, want %v", goos, goarch, f.Cpu, want)
		}
	}
}
