package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkIdleTasksBinary is idle CPU with three tasks open beside the
// project, in the real binary: each task's worktree, session and shell
// started with /task new, then nothing happening for idleWindow. It
// reports fawn's CPU (its shells' is theirs: bash waiting at a prompt) and
// the bytes it wrote to the terminal (0: no frame), beside the same of
// fawn with no task open, measured in the same run.
func BenchmarkIdleTasksBinary(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	bin := plainFawn(b)
	var withCPU, aloneCPU time.Duration
	var withBytes, aloneBytes int64
	for i := 0; i < b.N; i++ {
		for _, tasks := range []int{0, 3} {
			home, repo := b.TempDir(), b.TempDir()
			if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("# Widget\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"-c", "user.name=u", "-c", "user.email=u@e", "commit", "-q", "-m", "init"}} {
				if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
					b.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			env := []string{"FAWN_HOME=" + home, "HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH"), "OPENAI_API_KEY=", "ANTHROPIC_API_KEY="}
			r := startPty(b, env, bin, "--trust", repo)
			r.waitFor(b, "Ask fawn")
			for k := 0; k < tasks; k++ {
				name := string(rune('a' + k))
				_, _ = r.f.WriteString("/task new " + name + "\r")
				// Its record is written once its parts are up.
				for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
					if m, _ := filepath.Glob(filepath.Join(home, "data", "worktrees", "*", ".open", name)); len(m) > 0 {
						break
					}
					if time.Now().After(deadline) {
						b.Fatalf("task %s did not open", name)
					}
				}
			}
			r.waitQuiet(b, 2*time.Second, 500*time.Millisecond) // the shells, git
			cpu0, bytes0 := procCPU(r.cmd.Process.Pid), r.bytes.Load()
			time.Sleep(idleWindow)
			cpu, written := procCPU(r.cmd.Process.Pid)-cpu0, r.bytes.Load()-bytes0
			r.stop()
			if tasks == 0 {
				aloneCPU, aloneBytes = aloneCPU+cpu, aloneBytes+written
			} else {
				withCPU, withBytes = withCPU+cpu, withBytes+written
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(withCPU.Milliseconds())/n, "tasks-idle-cpu-ms")
	b.ReportMetric(float64(aloneCPU.Milliseconds())/n, "alone-idle-cpu-ms")
	b.ReportMetric(float64(withBytes)/n, "tasks-idle-bytes")
	b.ReportMetric(float64(aloneBytes)/n, "alone-idle-bytes")
}
