package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
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
		plainBinary = filepath.Join(dir, "fawn")
		_, here, _, _ := runtime.Caller(0)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", plainBinary, "./cmd/fawn")
		cmd.Dir = filepath.Join(filepath.Dir(here), "..")
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
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		b.Fatal(err)
	}
	var seen bytes.Buffer
	buf := make([]byte, 64<<10)
	var took time.Duration
	deadline := time.Now().Add(20 * time.Second)
	for took == 0 {
		f.SetReadDeadline(deadline)
		n, err := f.Read(buf)
		seen.Write(buf[:n])
		if bytes.Contains(seen.Bytes(), []byte(marker)) {
			took = time.Since(start)
		} else if err != nil {
			b.Fatalf("%v: no %q in the output (%v)", argv, marker, err)
		}
	}
	_ = cmd.Process.Kill()
	f.Close()
	_ = cmd.Wait()
	return took
}

// BenchmarkStartup: from exec to the first frame of the IDE (the chat's
// input line painted), beside vim opening the same file as a reference.
func BenchmarkStartup(b *testing.B) {
	bin := plainFawn(b)
	project := b.TempDir()
	file := filepath.Join(project, "main.go")
	os.WriteFile(file, []byte("package main\n\nfunc main() {}\n"), 0o644)
	home := b.TempDir()
	env := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}

	var fawn, vim time.Duration
	for i := 0; i < b.N; i++ {
		fawn += timeToFirstFrame(b, env, "Ask fawn", bin, project)
		if _, err := exec.LookPath("vim"); err == nil {
			vim += timeToFirstFrame(b, env, "main()", "vim", "--clean", file)
		}
	}
	b.ReportMetric(float64(fawn.Microseconds())/1000/float64(b.N), "fawn-ms")
	if vim > 0 {
		b.ReportMetric(float64(vim.Microseconds())/1000/float64(b.N), "vim-ms")
		b.ReportMetric(float64(fawn)/float64(vim), "fawn/vim")
	} else {
		b.Log("vim is not installed: no reference figure")
	}
}
