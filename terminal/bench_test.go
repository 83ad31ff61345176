package terminal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

const seqCmd = "seq 1 2000000"

// BenchmarkSeqToTool: how long `seq 1 2000000` takes to come back to the
// agent through the terminal (typed into the shell, captured between
// markers, cleaned, truncated), against reading the same command's output
// from a bare pty. Reports both and their ratio.
func BenchmarkSeqToTool(b *testing.B) {
	term := startTerm(b, Options{})
	mustRun(b, term, "true") // the first prompt
	var fawn, bare time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res := runOpts(b, term, Command{Text: seqCmd, Timeout: 5 * time.Minute})
		fawn += time.Since(start)
		if res.TotalLines != 2000000 {
			b.Fatalf("%d lines", res.TotalLines)
		}
		bare += barePTY(b, "seq", "1", "2000000")
		// Let the pane catch up so the next round starts from quiet.
		waitScreen(b, term, "2000000")
	}
	b.ReportMetric(fawn.Seconds()/float64(b.N), "fawn-s")
	b.ReportMetric(bare.Seconds()/float64(b.N), "bare-pty-s")
	b.ReportMetric(fawn.Seconds()/bare.Seconds(), "ratio")
}

// barePTY runs a command on a pty and reads its output to the end.
func barePTY(b *testing.B, name string, args ...string) time.Duration {
	b.Helper()
	start := time.Now()
	cmd := exec.Command(name, args...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		b.Fatal(err)
	}
	_, err = io.Copy(io.Discard, f)
	var pe *os.PathError
	if err != nil && !(errors.As(err, &pe) && errors.Is(pe.Err, syscall.EIO)) {
		b.Fatal(err)
	}
	_ = cmd.Wait()
	f.Close()
	return time.Since(start)
}

// BenchmarkPaneCatchUp: from typing `seq 1 2000000` until the pane shows
// its last line, against tmux running the same command in a detached
// session of the same size. Reports both and their ratio.
func BenchmarkPaneCatchUp(b *testing.B) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		b.Skip("tmux is not installed (apt-get install -y tmux); the comparison needs it")
	}
	term := startTerm(b, Options{})
	mustRun(b, term, "clear")
	sock := fmt.Sprintf("fawn-bench-%d", os.Getpid())
	tm := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-L", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			b.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	tm("new-session", "-d", "-s", "bench", "-x", "80", "-y", "24", "env", "HOME="+b.TempDir(), "PS1=$ ", "bash", "--norc", "--noprofile")
	defer exec.Command(tmux, "-L", sock, "kill-server").Run()

	var fawn, tmuxT time.Duration
	for i := 0; i < b.N; i++ {
		waitIdle(b, term)
		start := time.Now()
		term.Write([]byte(seqCmd + "\r"))
		for !strings.Contains(term.ScreenText(), "\n2000000\n") {
			time.Sleep(time.Millisecond)
		}
		fawn += time.Since(start)
		mustRun(b, term, "clear")

		tm("send-keys", "-t", "bench", "clear", "Enter")
		start = time.Now()
		tm("send-keys", "-t", "bench", seqCmd, "Enter")
		for !strings.Contains(tm("capture-pane", "-p", "-t", "bench"), "\n2000000\n") {
			time.Sleep(time.Millisecond)
		}
		tmuxT += time.Since(start)
	}
	b.ReportMetric(fawn.Seconds()/float64(b.N), "fawn-s")
	b.ReportMetric(tmuxT.Seconds()/float64(b.N), "tmux-s")
	b.ReportMetric(fawn.Seconds()/tmuxT.Seconds(), "ratio")
	b.ReportMetric(float64(term.SkippedBytes())/float64(b.N)/(1<<20), "skipped-MiB")
}

// BenchmarkKeyEcho: from a key written to the terminal until its echo is
// in the emulator (the shell's readline echoes it through the pty). Each
// iteration types 50 keys; p50 and p99 are over all of them.
func BenchmarkKeyEcho(b *testing.B) {
	term := startTerm(b, Options{Cols: 200})
	mustRun(b, term, "true")
	waitIdle(b, term)
	cursor := func() int {
		term.scr.mu.Lock()
		defer term.scr.mu.Unlock()
		return term.scr.emu.CursorPosition().X
	}
	const keys = 50
	lat := make([]time.Duration, 0, b.N*keys)
	for i := 0; i < b.N; i++ {
		for k := 0; k < keys; k++ {
			before := cursor()
			start := time.Now()
			term.Write([]byte{'x'})
			for cursor() == before {
				time.Sleep(20 * time.Microsecond)
			}
			lat = append(lat, time.Since(start))
		}
		before := cursor()
		term.Write([]byte{0x15}) // Ctrl-U: clear the line
		for cursor() == before {
			time.Sleep(time.Millisecond)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "µs/echo-p50")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "µs/echo-p99")
}

// BenchmarkFullScrollback: heap held by an emulator whose 10,000-line
// scrollback is full of 150-column coloured lines.
func BenchmarkFullScrollback(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		scr := newScreen(200, 50, 10000, Colors{}, func([]byte) {})
		for n := 1; n <= 12000; n++ {
			scr.write([]byte(fmt.Sprintf("\x1b[32m%05d\x1b[0m \x1b[1;34m%s\x1b[0m\r\n", n, strings.Repeat("abcdefghij", 14))))
		}
		if lines := scr.scrollbackText(); len(lines) != 10000 || !strings.HasPrefix(lines[9999], "11951 abcdefghij") {
			b.Fatalf("scrollback holds %d lines, the last %q", len(lines), lines[len(lines)-1])
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		mib := float64(int64(after.HeapInuse)-int64(before.HeapInuse)) / (1 << 20)
		b.ReportMetric(mib, "MiB")
		b.ReportMetric(mib*(1<<20)/10000, "B/line")
		runtime.KeepAlive(scr)
		scr.close()
	}
}

// BenchmarkScreenStream: 100,000 lines of output through the pane's screen
// (the emulator, its scrollback drained into the history), in the 4 KiB
// reads the pty gives, with nothing skipped: streaming output's cost
// without the pty.
func BenchmarkScreenStream(b *testing.B) {
	var out bytes.Buffer
	for n := range 100000 {
		fmt.Fprintf(&out, "\x1b[32m%06d\x1b[0m building package %d of the tree, all is well\r\n", n, n%977)
	}
	p := out.Bytes()
	for b.Loop() {
		scr := newScreen(120, 40, 10000, Colors{}, func([]byte) {})
		for i := 0; i < len(p); i += 4096 {
			scr.write(p[i:min(i+4096, len(p))])
		}
		scr.close()
	}
	b.SetBytes(int64(len(p)))
}

// BenchmarkRunRoundTrip: the cost of one trivial agent command (typed,
// run, captured, prompt back).
func BenchmarkRunRoundTrip(b *testing.B) {
	term := startTerm(b, Options{})
	mustRun(b, term, "true")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := mustRun(b, term, "echo "+strconv.Itoa(i)); res.Output != strconv.Itoa(i)+"\n" {
			b.Fatalf("%+v", res)
		}
	}
}

// BenchmarkCancel: from cancelling the context (Esc) until Run returns,
// for a job that stops on Ctrl-C and for one that ignores it (its process
// group is then killed).
func BenchmarkCancel(b *testing.B) {
	term := startTerm(b, Options{})
	mustRun(b, term, "true")
	cancelAfterStart := func(cmd string) time.Duration {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result)
		go func() {
			res, _ := term.Run(ctx, Command{Text: cmd}, nil)
			done <- res
		}()
		waitForeground(b, term, "sleep")
		start := time.Now()
		cancel()
		res := <-done
		d := time.Since(start)
		if !res.Interrupted {
			b.Fatalf("%+v", res)
		}
		return d
	}
	var plain, ignoring time.Duration
	for i := 0; i < b.N; i++ {
		plain += cancelAfterStart("sleep 60")
		ignoring += cancelAfterStart(`bash -c 'trap "" INT; exec sleep 60'`)
	}
	b.ReportMetric(float64(plain.Microseconds())/1000/float64(b.N), "ms/cancel")
	b.ReportMetric(float64(ignoring.Microseconds())/1000/float64(b.N), "ms/cancel-ignoring-INT")
}
