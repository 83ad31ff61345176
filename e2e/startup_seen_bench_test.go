package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// BenchmarkStartupAsSeen times start-up to what the user sees, each
// moment beside a reference measured in the same run, interleaved
// (fawn, its references, fawn, …) so that a machine getting busier shows
// in both:
//
//   - the IDE frame complete (every pane drawn, the chat taking keys)
//     beside `vim -u NONE -N` showing the same file;
//   - the shell's prompt painted in the Terminal pane beside `bash -i`
//     alone reaching its prompt with the same rc files: the rc files are
//     the user's, fawn's overhead is the difference (goal: at most one
//     frame, 16 ms);
//   - RSS settled a second after the prompt, fawn and its shell together,
//     beside micro's a second after its first frame.
func BenchmarkStartupAsSeen(b *testing.B) {
	bin := plainFawn(b)
	project := b.TempDir()
	file := filepath.Join(project, "main.go")
	os.WriteFile(file, []byte("package main\n\nfunc main() {}\n"), 0o644)
	home := b.TempDir()
	// A prompt both shells paint the same way, whatever the machine's
	// /etc/bash.bashrc sets.
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte("PS1='ready> '\n"), 0o644)
	env := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH"), "FAWN_SANDBOX_MODE=off"}
	_, vimErr := exec.LookPath("vim")
	mic := micro(b)

	var frame, prompt, vim, bash time.Duration
	var fawnRSS, micRSS float64
	frameSeen := []string{"Ask fawn", "F1 help", "Terminal", "Welcome"}
	for i := 0; i < b.N; i++ {
		var rss float64
		t := screenTimes(b, env, [][]string{frameSeen, {"ready>"}}, func(pid int) {
			time.Sleep(time.Second)
			rss = treeRSS(pid)
		}, bin, project)
		frame += t[0]
		prompt += t[1]
		fawnRSS += rss
		bash += screenTimes(b, env, [][]string{{"ready>"}}, nil, "bash", "-i")[0]
		if vimErr == nil {
			vim += screenTimes(b, env, [][]string{{"main()"}}, nil, "vim", "-u", "NONE", "-N", file)[0]
		}
		if mic != "" {
			screenTimes(b, env, [][]string{{"main()"}}, func(pid int) {
				time.Sleep(time.Second)
				micRSS += treeRSS(pid)
			}, mic, file)
		}
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
	b.ReportMetric(ms(frame), "frame-ms")
	b.ReportMetric(ms(prompt), "prompt-ms")
	b.ReportMetric(ms(bash), "bash-ms")
	// The prompt's reference: bash's own start-up plus one frame.
	b.ReportMetric(ms(bash)+16, "bash+frame-ms")
	b.ReportMetric(fawnRSS/n, "fawn+shell-MiB")
	if vim > 0 {
		b.ReportMetric(ms(vim), "vim-ms")
	} else {
		b.Log("vim is not installed: no reference for the frame")
	}
	if micRSS > 0 {
		b.ReportMetric(micRSS/n, "micro-MiB")
	}
}

// screenTimes starts argv in a 120×40 pty and returns, for each set of
// markers, how long it took until the output held all of them (sets in
// the order they are expected). hold, when set, runs once the last set is
// seen, before the program is ended.
func screenTimes(b *testing.B, env []string, sets [][]string, hold func(pid int), argv ...string) []time.Duration {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		f.Close()
		_ = cmd.Wait()
	}()
	out := readPty(f)
	took := make([]time.Duration, len(sets))
	for i, set := range sets {
		if err := out.waitFor(20*time.Second, func(p []byte) bool { return containsAll(p, set) }); err != nil {
			b.Fatalf("%v: not all of %q in the output (%v)", argv, set, err)
		}
		took[i] = time.Since(start)
	}
	if hold != nil {
		hold(cmd.Process.Pid)
	}
	return took
}

// treeRSS is the resident memory of pid and its descendants, in MiB.
func treeRSS(pid int) float64 {
	var kib int64
	var walk func(pid int)
	walk = func(pid int) {
		kib += vmRSS(pid)
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
		for _, t := range tasks {
			b, _ := os.ReadFile(t)
			for _, c := range strings.Fields(string(b)) {
				if cp, err := strconv.Atoi(c); err == nil {
					walk(cp)
				}
			}
		}
	}
	walk(pid)
	return float64(kib) / 1024
}

// vmRSS is the resident memory of process pid, in KiB (0 when gone).
func vmRSS(pid int) int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}
