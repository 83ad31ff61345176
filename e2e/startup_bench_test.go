package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	plainOnce   sync.Once
	plainBinary string
	plainErr    error
)

// plainFawn is fawn built as make build builds it (without -race, stripped),
// or the binary FAWN_BENCH_BINARY names (to measure another build the same
// way).
func plainFawn(b *testing.B) string {
	plainOnce.Do(func() {
		if p := os.Getenv("FAWN_BENCH_BINARY"); p != "" {
			plainBinary = p
			return
		}
		dir, err := os.MkdirTemp("", "fawn-bench-bin")
		if err != nil {
			plainErr = err
			return
		}
		benchDirs.add(dir)
		plainBinary = filepath.Join(dir, "fawn")
		_, here, _, _ := runtime.Caller(0)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", plainBinary, "./cmd/fawn")
		cmd.Dir = filepath.Join(filepath.Dir(here), "..")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build
		if out, err := cmd.CombinedOutput(); err != nil {
			plainErr = err
			b.Logf("%s", out)
		}
	})
	if plainErr != nil {
		b.Fatal(plainErr)
	}
	return plainBinary
}

// timeToFirstFrame starts argv in a 120×40 pty and returns how long it took
// until the output contained marker, then ends it by closing the pty.
func timeToFirstFrame(b *testing.B, env []string, marker string, argv ...string) time.Duration {
	b.Helper()
	return timeToScreen(b, env, []string{marker}, argv...)
}

// timeToScreen is timeToFirstFrame until the output contained every one of
// markers (the chat's input line and the shell's prompt, say).
func timeToScreen(b *testing.B, env []string, markers []string, argv ...string) time.Duration {
	b.Helper()
	return screenTimes(b, env, [][]string{markers}, nil, argv...)[0]
}

func containsAll(p []byte, markers []string) bool {
	for _, m := range markers {
		if !bytes.Contains(p, []byte(m)) {
			return false
		}
	}
	return true
}

// BenchmarkStartup: from exec to the first frame of the IDE (the chat's
// input line painted), beside vim and micro opening the same file as
// references.
func BenchmarkStartup(b *testing.B) {
	bin := plainFawn(b)
	project := b.TempDir()
	file := filepath.Join(project, "main.go")
	os.WriteFile(file, []byte("package main\n\nfunc main() {}\n"), 0o644)
	home := b.TempDir()
	env := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}

	mic := micro(b)
	var fawn, vim, mi time.Duration
	for i := 0; i < b.N; i++ {
		fawn += timeToFirstFrame(b, env, "Ask fawn", bin, project)
		if _, err := exec.LookPath("vim"); err == nil {
			vim += timeToFirstFrame(b, env, "main()", "vim", "--clean", file)
		}
		if mic != "" {
			mi += timeToFirstFrame(b, env, "main()", mic, file)
		}
	}
	if mi > 0 {
		b.ReportMetric(float64(mi.Microseconds())/1000/float64(b.N), "micro-ms")
		b.ReportMetric(float64(fawn)/float64(mi), "fawn/micro")
	}
	b.ReportMetric(float64(fawn.Microseconds())/1000/float64(b.N), "fawn-ms")
	if vim > 0 {
		b.ReportMetric(float64(vim.Microseconds())/1000/float64(b.N), "vim-ms")
		b.ReportMetric(float64(fawn)/float64(vim), "fawn/vim")
	} else {
		b.Log("vim is not installed: no reference figure")
	}
}

// BenchmarkStartupWithLSP: the first frame of a Go module with gopls on
// PATH (so a language server is configured, and trusted) beside the same
// project with no language server: servers start on the first file, not
// before the first frame, so the ratio stays near 1. It also checks that
// no gopls runs at the first frame.
func BenchmarkStartupWithLSP(b *testing.B) {
	bin := plainFawn(b)
	gopls := goplsDir(b)
	project := b.TempDir()
	os.WriteFile(filepath.Join(project, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	home := b.TempDir()
	var without []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "gopls")); err != nil {
			without = append(without, d)
		}
	}
	base := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color"}
	envWith := append(append([]string{}, base...), "PATH="+gopls+string(os.PathListSeparator)+strings.Join(without, string(os.PathListSeparator)))
	envWithout := append(append([]string{}, base...), "PATH="+strings.Join(without, string(os.PathListSeparator)))

	var with, plain time.Duration
	for i := 0; i < b.N; i++ {
		with += timeToFirstFrame(b, envWith, "Ask fawn", bin, "--trust", project)
		plain += timeToFirstFrame(b, envWithout, "Ask fawn", bin, "--trust", project)
	}
	b.ReportMetric(float64(with.Microseconds())/1000/float64(b.N), "lsp-ms")
	b.ReportMetric(float64(plain.Microseconds())/1000/float64(b.N), "nolsp-ms")
	b.ReportMetric(float64(with)/float64(plain), "lsp/nolsp")
}

// goplsDir is the directory of the real gopls, or the benchmark skips.
func goplsDir(b *testing.B) string {
	if p, err := exec.LookPath("gopls"); err == nil {
		return filepath.Dir(p)
	}
	out, _ := exec.Command("go", "env", "GOPATH").Output()
	for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
		if _, err := os.Stat(filepath.Join(dir, "bin", "gopls")); err == nil {
			return filepath.Join(dir, "bin")
		}
	}
	b.Skip("skipped: gopls not installed (.ci/run installs it)")
	return ""
}
