package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The baseline benchmark: today's fawn beside fawn built from an earlier
// commit (FAWN_BENCH_BASELINE; make bench sets it from BENCH_BASELINE), in
// the same run and interleaved, with the measuring code of the other
// benchmarks, so that a reshaping of the code can show it costs the user
// nothing.

var (
	baselineOnce   sync.Once
	baselineBinary string
	baselineSkip   string // why there is no baseline binary
	baselineErr    error
)

// repoRoot is the root of the checkout the tests run from.
func repoRoot() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..")
}

// baselineFawn is fawn at the commit FAWN_BENCH_BASELINE names, built as
// plainFawn builds today's (stripped, without cgo) from `git archive` of
// that commit into a directory of its own: the checkout is not touched.
// The benchmark skips, saying why, when no commit is named or the clone
// does not have it (a shallow clone).
func baselineFawn(b *testing.B) (string, string) {
	baselineOnce.Do(func() {
		rev := os.Getenv("FAWN_BENCH_BASELINE")
		if rev == "" {
			baselineSkip = "FAWN_BENCH_BASELINE names no commit to compare with (make bench sets it from BENCH_BASELINE)"
			return
		}
		root := repoRoot()
		if err := exec.Command("git", "-C", root, "rev-parse", "--verify", "--quiet", rev+"^{commit}").Run(); err != nil {
			baselineSkip = fmt.Sprintf("the baseline commit %s is not in this clone (a shallow clone? git fetch --unshallow, or set BENCH_BASELINE to a commit it has)", rev)
			return
		}
		baselineBinary, baselineErr = buildAt(root, rev)
	})
	if baselineSkip != "" {
		// go test prints a skipped benchmark's log only with -v; make
		// bench's table (internal/benchsum) reads this line instead.
		fmt.Printf("%s skipped: %s\n", b.Name(), baselineSkip)
		b.Skip("skipped: " + baselineSkip)
	}
	if baselineErr != nil {
		b.Fatal(baselineErr)
	}
	return baselineBinary, os.Getenv("FAWN_BENCH_BASELINE")
}

// buildAt builds cmd/fawn as it was at rev into a new temporary directory
// (removed by removeBenchBinaries) and returns the binary's path. The
// sources are unpacked beside it and removed once it is built.
func buildAt(root, rev string) (string, error) {
	dir, err := os.MkdirTemp("", "fawn-bench-baseline")
	if err != nil {
		return "", err
	}
	benchDirs.add(dir)
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	archive := exec.Command("git", "-C", root, "archive", "--format=tar", rev)
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	untar.Stdin = pipe
	var archiveErr, untarErr strings.Builder
	archive.Stderr, untar.Stderr = &archiveErr, &untarErr
	if err := archive.Start(); err != nil {
		return "", err
	}
	if err := untar.Run(); err != nil {
		_ = archive.Wait()
		return "", fmt.Errorf("unpacking fawn at %s: %v\n%s", rev, err, untarErr.String())
	}
	if err := archive.Wait(); err != nil {
		return "", fmt.Errorf("git archive %s: %v\n%s", rev, err, archiveErr.String())
	}
	bin := filepath.Join(dir, "fawn")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, "./cmd/fawn")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as plainFawn
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building fawn at %s: %v\n%s", rev, err, out)
	}
	return bin, nil
}

// benchDirs are the directories of the binaries the benchmarks built;
// TestMain removes them.
var benchDirs dirList

type dirList struct {
	mu   sync.Mutex
	dirs []string
}

func (l *dirList) add(dir string) {
	l.mu.Lock()
	l.dirs = append(l.dirs, dir)
	l.mu.Unlock()
}

func removeBenchBinaries() {
	benchDirs.mu.Lock()
	defer benchDirs.mu.Unlock()
	for _, d := range benchDirs.dirs {
		os.RemoveAll(d)
	}
}

// idleWindow is how long BenchmarkBaseline leaves fawn alone.
const idleWindow = 10 * time.Second

// idleCPU runs argv (fawn) in a 120×40 pty, lets the start-up settle and
// returns the CPU it used over the next idleWindow with nothing happening,
// and the bytes it wrote to the terminal meanwhile (0: it drew no frame).
// The in-process BenchmarkIdle measures the same of ui.App; this is it for a
// binary.
func idleCPU(b *testing.B, env, argv []string) (time.Duration, int64) {
	b.Helper()
	r := startPty(b, env, argv...)
	defer r.stop()
	r.waitFor(b, "Ask fawn")
	r.waitQuiet(b, time.Second, 500*time.Millisecond) // the shell pane, git
	cpu0, bytes0 := procCPU(r.cmd.Process.Pid), r.bytes.Load()
	time.Sleep(idleWindow)
	return procCPU(r.cmd.Process.Pid) - cpu0, r.bytes.Load() - bytes0
}

// baselineSide is one of the two builds BenchmarkBaseline compares, with
// its own home and project (the same files in both), so that neither sees
// what the other wrote.
type baselineSide struct {
	bin, home, project string
	frame, cpu, idle   time.Duration
	idleBytes          int64
	rssStart, rssEnd   float64
}

// benchPrompt is the shell prompt BenchmarkBaseline's ~/.bashrc sets, so
// that the first frame is timed until the shell pane shows it (its trailing
// space is not drawn: the cell is blank already).
const benchPrompt = "fawn-bench-prompt$"

func newBaselineSide(b *testing.B, bin string) *baselineSide {
	s := &baselineSide{bin: bin, home: b.TempDir(), project: b.TempDir()}
	os.WriteFile(filepath.Join(s.home, ".bashrc"), []byte("PS1='"+benchPrompt+" '\n"), 0o644)
	os.WriteFile(filepath.Join(s.project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	return s
}

func (s *baselineSide) env() []string {
	// FAWN_HOME apart from HOME: the shell's sandbox hides fawn's own
	// directory, and would hide ~/.bashrc with it.
	return []string{"HOME=" + s.home, "FAWN_HOME=" + filepath.Join(s.home, "fawn"), "TERM=xterm-256color", "PATH=" + os.Getenv("PATH"),
		"OPENAI_API_KEY=", "ANTHROPIC_API_KEY="}
}

// BenchmarkBaseline: today's fawn beside fawn at FAWN_BENCH_BASELINE, each
// iteration measuring both in turn (which goes first alternates): exec →
// first frame with the chat's input line and the shell's prompt drawn, the
// resident memory at the first frame and after a long streamed answer, the
// CPU of that answer (as BenchmarkStreamingTerminal), the CPU over 10 s of
// idleness, and the binaries' sizes.
func BenchmarkBaseline(b *testing.B) {
	base, rev := baselineFawn(b)
	now := newBaselineSide(b, plainFawn(b))
	old := newBaselineSide(b, base)
	b.Logf("baseline: fawn at %s", rev)

	text := benchAnswer(streamTokens)
	srv := llmtest.NewServer(streamScript(text))
	defer srv.Close()
	streamFor := time.Duration(len(text)/bytesPerToken) * time.Second / tokensPerSec
	measure := func(s *baselineSide) {
		s.frame += timeToScreen(b, s.env(), []string{"Ask fawn", benchPrompt}, s.bin, s.project)
		argv := []string{s.bin, "--base-url", srv.URL(), "--model", "scripted", s.project}
		run := streamIDE(b, s.env(), argv, streamFor, false)
		s.cpu += run.cpu
		s.rssStart += run.rssStart
		s.rssEnd += run.rssEnd
		idle, written := idleCPU(b, s.env(), argv)
		s.idle += idle
		s.idleBytes += written
	}
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			measure(now)
			measure(old)
		} else {
			measure(old)
			measure(now)
		}
	}
	n := float64(b.N)
	for _, s := range []struct {
		name string
		side *baselineSide
	}{{"now", now}, {"base", old}} {
		size, mods := binaryFigures(b, s.side.bin)
		b.ReportMetric(ms(s.side.frame)/n, s.name+"-frame-ms")
		b.ReportMetric(s.side.rssStart/n, s.name+"-rss-start-MiB")
		b.ReportMetric(s.side.rssEnd/n, s.name+"-rss-streamed-MiB")
		b.ReportMetric(size, s.name+"-bin-MiB")
		b.ReportMetric(float64(mods), s.name+"-modules")
		b.ReportMetric(s.side.cpu.Seconds()/n, s.name+"-stream-cpu-s")
		b.ReportMetric(ms(s.side.idle)/n, s.name+"-idle-cpu-ms")
		b.ReportMetric(float64(s.side.idleBytes)/n, s.name+"-idle-bytes")
	}
}
