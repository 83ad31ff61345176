package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The streaming benchmark: one long answer streamed from the scripted server
// at about 880 tokens/s, once into the IDE in a 120×40 pty (every byte fawn
// writes to the terminal counted) and once headless (-p), which is the
// reference: the same agent and the same stream, without a screen.

const (
	streamTokens  = 6000
	tokensPerSec  = 880
	bytesPerToken = 5 // the chunk size in runes: about one token of prose
)

// benchAnswer is a long Markdown answer of about n tokens: prose, lists and
// code blocks, as real answers have.
func benchAnswer(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n*bytesPerToken; i++ {
		fmt.Fprintf(&b, "Step %d: the wrapper in **ui/chat.go** drops the last word of a line when the line ends exactly at the width, ", i)
		b.WriteString("because the break opportunity is recorded after the cluster is placed, so `flush` never sees it.\n\n")
		if i%3 == 0 {
			b.WriteString("- keep the break position\n- place the cluster\n- then decide where to break\n\n")
		}
		if i%4 == 0 {
			b.WriteString("```go\nfunc (w *wrapper) place(g string, width int) {\n\tif w.curW+width > w.width {\n\t\tw.flush(false)\n\t}\n\tw.cur = append(w.cur, g)\n}\n```\n\n")
		}
	}
	b.WriteString("That is all.")
	return b.String()
}

func streamScript(text string) llmtest.Script {
	return llmtest.Script{Loop: true, Responses: []llmtest.Response{{
		Text: text, ChunkSize: bytesPerToken, Delay: llmtest.Duration(time.Second / tokensPerSec),
		Usage: &llmtest.Usage{PromptTokens: 1000, CompletionTokens: len(text) / bytesPerToken},
	}}}
}

// procCPU is the CPU time (user+system) a live process has used so far.
func procCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// ptyRun is a program in a 120×40 pty whose output is read and counted.
type ptyRun struct {
	cmd   *exec.Cmd
	f     *os.File
	mu    sync.Mutex
	seen  strings.Builder // until marked done
	bytes atomic.Int64
	last  atomic.Int64 // unix ns of the last output
	done  chan struct{}
}

func startPty(b *testing.B, env []string, argv ...string) *ptyRun {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		b.Fatal(err)
	}
	r := &ptyRun{cmd: cmd, f: f, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				r.bytes.Add(int64(n))
				r.last.Store(time.Now().UnixNano())
				r.mu.Lock()
				if r.seen.Len() < 1<<20 {
					r.seen.Write(buf[:n])
				}
				r.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return r
}

func (r *ptyRun) waitFor(b *testing.B, marker string) {
	b.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r.mu.Lock()
		ok := strings.Contains(r.seen.String(), marker)
		r.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%v: no %q in the output", r.cmd.Args, marker)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitQuiet waits until nothing was written for d (the answer is drawn and
// the screen idle), after at least min.
func (r *ptyRun) waitQuiet(b *testing.B, min, d time.Duration) {
	start := time.Now()
	for {
		time.Sleep(20 * time.Millisecond)
		if time.Since(start) > min && time.Since(time.Unix(0, r.last.Load())) > d {
			return
		}
		if time.Since(start) > 5*time.Minute {
			b.Fatal("the screen never went quiet")
		}
	}
}

// waitExit waits up to d for the program to end (its pty to close).
func (r *ptyRun) waitExit(b *testing.B, d time.Duration) {
	select {
	case <-r.done:
	case <-time.After(d):
		b.Logf("%s did not end within %v", r.cmd.Path, d)
	}
}

func (r *ptyRun) stop() {
	_ = r.cmd.Process.Kill()
	r.f.Close()
	_ = r.cmd.Wait()
	<-r.done
}

// streamRun is what streamIDE measured.
type streamRun struct {
	cpu     time.Duration // the IDE's CPU from the prompt sent until the screen is quiet
	written int64         // the bytes it wrote to the terminal meanwhile
	// rssStart and rssEnd are its resident memory (MiB) at the first
	// frame and once the answer is drawn.
	rssStart, rssEnd float64
}

// streamIDE runs argv (fawn with a scripted model) in a 120×40 pty, sends
// one prompt and measures its answer until the screen is quiet, for at
// least streamFor. gentle ends fawn with SIGTERM, as a user would, so that
// the profiles FAWN_CPUPROFILE asks for get written.
func streamIDE(b *testing.B, env, argv []string, streamFor time.Duration, gentle bool) streamRun {
	b.Helper()
	r := startPty(b, env, argv...)
	r.waitFor(b, "Ask fawn")
	var run streamRun
	run.rssStart = rssMiB(r.cmd.Process.Pid)
	time.Sleep(300 * time.Millisecond) // let the start-up settle (the shell pane, git)
	cpu0, bytes0 := procCPU(r.cmd.Process.Pid), r.bytes.Load()
	if _, err := r.f.Write([]byte("explain\r")); err != nil {
		b.Fatal(err)
	}
	r.waitQuiet(b, streamFor, 700*time.Millisecond)
	run.cpu = procCPU(r.cmd.Process.Pid) - cpu0
	run.written = r.bytes.Load() - bytes0
	run.rssEnd = rssMiB(r.cmd.Process.Pid)
	if gentle {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		r.waitExit(b, 10*time.Second)
	}
	r.stop()
	return run
}

// BenchmarkStreamingTerminal reports, for one long answer: the bytes fawn
// wrote to the terminal per byte of answer text, the CPU the IDE used, and
// that CPU over the CPU of the same turn headless.
func BenchmarkStreamingTerminal(b *testing.B) {
	bin := plainFawn(b)
	text := benchAnswer(streamTokens)
	srv := llmtest.NewServer(streamScript(text))
	defer srv.Close()
	home := b.TempDir()
	project := b.TempDir()
	env := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH"),
		"OPENAI_API_KEY=", "ANTHROPIC_API_KEY="}
	args := []string{"--base-url", srv.URL(), "--model", "scripted"}
	streamFor := time.Duration(len(text)/bytesPerToken) * time.Second / tokensPerSec

	// FAWN_BENCH_CPUPROFILE=DIR: each run of the IDE and of headless fawn
	// writes a CPU profile there (ide-N.prof, head-N.prof, for go tool
	// pprof with the binary); FAWN_BENCH_MEMPROFILE=DIR a heap profile
	// (ide-N.mem, head-N.mem), to see where the difference goes. Apart:
	// the heap profile samples every 4 KiB allocated, which the CPU
	// profile would count as the program's.
	profDir, memDir := os.Getenv("FAWN_BENCH_CPUPROFILE"), os.Getenv("FAWN_BENCH_MEMPROFILE")
	profiled := func(env []string, name string) []string {
		env = append([]string(nil), env...)
		if profDir != "" {
			env = append(env, "FAWN_CPUPROFILE="+filepath.Join(profDir, name))
		}
		if memDir != "" {
			env = append(env, "FAWN_MEMPROFILE="+filepath.Join(memDir, strings.TrimSuffix(name, ".prof")+".mem"))
		}
		return env
	}

	var ideCPU, headCPU time.Duration
	var written int64
	for i := 0; i < b.N; i++ {
		run := streamIDE(b, profiled(env, fmt.Sprintf("ide-%d.prof", i)), append(append([]string{bin}, args...), project), streamFor, profDir != "" || memDir != "")
		ideCPU += run.cpu
		written += run.written

		cmd := exec.Command(bin, append(append(args, "-p", "explain"), project)...)
		cmd.Env = profiled(env, fmt.Sprintf("head-%d.prof", i))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("headless: %v\n%s", err, out)
		}
		headCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	n := float64(b.N)
	b.ReportMetric(float64(written)/n/float64(len(text)), "term-bytes/text-byte")
	b.ReportMetric(ideCPU.Seconds()/n, "ide-cpu-s")
	b.ReportMetric(headCPU.Seconds()/n, "headless-cpu-s")
	b.ReportMetric(float64(ideCPU)/float64(headCPU), "ide/headless-cpu")
	b.ReportMetric(float64(len(text)/bytesPerToken), "tokens")
}
