package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The measures of a lean fawn (make bench's summary table): the start of
// `fawn --version`, the memory at the first frame, the binary, and the
// memory a long run of short turns keeps. Each beside a reference measured
// in the same run: micro, a terminal editor in Go.

// micro returns micro's path, or "" (the figures then have no reference).
func micro(b *testing.B) string {
	p, err := exec.LookPath("micro")
	if err != nil {
		b.Log("micro is not installed: no reference figure")
		return ""
	}
	return p
}

// runOnce runs argv to the end and returns its wall time and peak RSS (MiB).
func runOnce(b *testing.B, env []string, argv ...string) (time.Duration, float64) {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %v\n%s", argv, err, out)
	}
	took := time.Since(start)
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var peak float64
	if ru != nil {
		peak = float64(ru.Maxrss) / 1024
	}
	return took, peak
}

func medianDuration(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkVersion: `fawn --version` (everything before main, and main's
// first lines) beside `micro -version`; medians of 9 runs per iteration.
func BenchmarkVersion(b *testing.B) {
	bin := plainFawn(b)
	ref := micro(b)
	env := []string{"HOME=" + b.TempDir(), "PATH=" + os.Getenv("PATH")}
	var fawn, mic []time.Duration
	var fawnPeak, micPeak float64
	for i := 0; i < b.N*9; i++ {
		d, p := runOnce(b, env, bin, "--version")
		fawn, fawnPeak = append(fawn, d), max(fawnPeak, p)
		if ref != "" {
			d, p := runOnce(b, env, ref, "-version")
			mic, micPeak = append(mic, d), max(micPeak, p)
		}
	}
	b.ReportMetric(ms(medianDuration(fawn)), "fawn-ms")
	b.ReportMetric(fawnPeak, "fawn-peak-MiB")
	if ref != "" {
		b.ReportMetric(ms(medianDuration(mic)), "micro-ms")
		b.ReportMetric(micPeak, "micro-peak-MiB")
		b.ReportMetric(float64(medianDuration(fawn))/float64(medianDuration(mic)), "fawn/micro")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// rssMiB is a live process's resident set (VmRSS), in MiB.
func rssMiB(pid int) float64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}

// BenchmarkFirstFrameRSS: the resident memory at the first frame, with a
// model configured, beside micro opening the same file.
func BenchmarkFirstFrameRSS(b *testing.B) {
	bin := plainFawn(b)
	ref := micro(b)
	srv := llmtest.NewServer(llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "ok"}}})
	defer srv.Close()
	project := b.TempDir()
	file := filepath.Join(project, "main.go")
	os.WriteFile(file, []byte("package main\n\nfunc main() {}\n"), 0o644)
	home := b.TempDir()
	env := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
	var fawn, mic float64
	for i := 0; i < b.N; i++ {
		r := startPty(b, env, bin, "--base-url", srv.URL(), "--model", "scripted", project)
		r.waitFor(b, "Ask fawn")
		fawn += rssMiB(r.cmd.Process.Pid)
		r.stop()
		if ref != "" {
			r := startPty(b, env, ref, file)
			r.waitFor(b, "main()")
			mic += rssMiB(r.cmd.Process.Pid)
			r.stop()
		}
	}
	n := float64(b.N)
	b.ReportMetric(fawn/n, "fawn-MiB")
	if ref != "" {
		b.ReportMetric(mic/n, "micro-MiB")
		b.ReportMetric(fawn/mic, "fawn/micro")
	}
}

// BenchmarkBinary: the size of fawn as make build builds it (stripped),
// and the modules linked into it, beside micro's binary.
func BenchmarkBinary(b *testing.B) {
	size, mods := binaryFigures(b, plainFawn(b))
	for i := 0; i < b.N; i++ {
		// Nothing to repeat: the figures are the binary's.
	}
	b.ReportMetric(size, "fawn-MiB")
	b.ReportMetric(float64(mods), "modules")
	if ref := micro(b); ref != "" {
		if real, err := filepath.EvalSymlinks(ref); err == nil {
			ref = real
		}
		if mst, err := os.Stat(ref); err == nil {
			msize := float64(mst.Size()) / (1 << 20)
			b.ReportMetric(msize, "micro-MiB")
			b.ReportMetric(size/msize, "fawn/micro")
		}
	}
}

// binaryFigures is the size of the fawn binary bin (MiB) and the number of
// modules linked into it.
func binaryFigures(b *testing.B, bin string) (float64, int) {
	st, err := os.Stat(bin)
	if err != nil {
		b.Fatal(err)
	}
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		b.Fatal(err)
	}
	mods := 0
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "dep" {
			mods++
		}
	}
	return float64(st.Size()) / (1 << 20), mods
}

// turnMemoryTurns is how many short turns BenchmarkTurnMemory runs.
const turnMemoryTurns = 320

// BenchmarkTurnMemory: the resident memory the IDE keeps per short turn
// (a one-line prompt, a one-line answer), from turn 20 to turn 320, in a
// 120×40 pty.
func BenchmarkTurnMemory(b *testing.B) {
	bin := plainFawn(b)
	srv := llmtest.NewServer(llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "Done: the answer is one short line."}}})
	defer srv.Close()
	home := b.TempDir()
	project := b.TempDir()
	env := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
	var perTurn, first, last float64
	for i := 0; i < b.N; i++ {
		r := startPty(b, env, bin, "--base-url", srv.URL(), "--model", "scripted", project)
		r.waitFor(b, "Ask fawn")
		base := len(srv.ChatRequests())
		var rss20 float64
		for turn := 1; turn <= turnMemoryTurns; turn++ {
			if _, err := r.f.Write([]byte("question number " + strconv.Itoa(turn) + "\r")); err != nil {
				b.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for len(srv.ChatRequests()) < base+turn {
				if time.Now().After(deadline) {
					b.Fatalf("turn %d never reached the server", turn)
				}
				time.Sleep(time.Millisecond)
			}
			r.waitQuiet(b, 0, 60*time.Millisecond)
			if turn == 20 {
				rss20 = rssMiB(r.cmd.Process.Pid)
			}
		}
		rss := rssMiB(r.cmd.Process.Pid)
		r.stop()
		first += rss20
		last += rss
		perTurn += (rss - rss20) * 1024 / float64(turnMemoryTurns-20)
	}
	n := float64(b.N)
	b.ReportMetric(perTurn/n, "KiB/turn")
	b.ReportMetric(first/n, "MiB-at-turn-20")
	b.ReportMetric(last/n, "MiB-at-turn-320")
}

var (
	coldBuildOnce sync.Once
	coldBuildTime time.Duration
	coldBuildErr  error
)

// BenchmarkColdBuild: `go build` of fawn as make build does it, with an
// empty build cache (the module cache is left warm: downloads are not
// counted). Built once; the testing package's later calls reuse the
// figure.
func BenchmarkColdBuild(b *testing.B) {
	coldBuildOnce.Do(func() {
		cache := b.TempDir()
		out := filepath.Join(b.TempDir(), "fawn")
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, "./cmd/fawn")
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "GOCACHE="+cache, "GOFLAGS=-mod=readonly", "CGO_ENABLED=0") // as make build
		start := time.Now()
		if msg, err := cmd.CombinedOutput(); err != nil {
			coldBuildErr = fmt.Errorf("%v\n%s", err, msg)
			return
		}
		coldBuildTime = time.Since(start)
	})
	if coldBuildErr != nil {
		b.Fatal(coldBuildErr)
	}
	for i := 0; i < b.N; i++ {
		// Built once: the figure is the build's.
	}
	b.ReportMetric(coldBuildTime.Seconds(), "cold-build-s")
}
