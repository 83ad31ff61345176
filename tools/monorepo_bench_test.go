package tools

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/monorepo"
)

// fdBinary is fd, installed as fd or (Debian) fdfind; "" when neither is.
func fdBinary() string {
	for _, name := range []string{"fd", "fdfind"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runCount runs a reference command in dir and returns its output's lines.
func runCount(b *testing.B, dir string, argv ...string) int {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 { // 1: nothing found
			b.Fatalf("%v: %v", argv, err)
		}
	}
	return strings.Count(string(out), "\n")
}

// globTotal is how many files the glob tool's answer says matched (its
// list may be cut to limit and to the size of a result).
func globTotal(res string) int {
	if m := regexp.MustCompile(`\[(?:\d+ of )?(\d+) files?[ ,]`).FindStringSubmatch(res); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// BenchmarkMonorepoGrep runs the grep tool on the big trees (the
// 200,000-file fixture and Go's source) beside rg on the same queries,
// interleaved, each checked to find as many (goal: ≤ 1.2× rg).
func BenchmarkMonorepoGrep(b *testing.B) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		b.Skip("rg is not installed (apt-get install -y ripgrep): nothing to compare with")
	}
	for _, tr := range monorepo.BenchTrees() {
		b.Run(tr.Name, func(b *testing.B) {
			if tr.Why != "" {
				fmt.Printf("%s skipped: %s\n", b.Name(), tr.Why)
				b.Skip(tr.Why)
			}
			env, err := NewEnv(tr.Root)
			if err != nil {
				b.Fatal(err)
			}
			g := NewGrep(env)
			g.timeLimit = time.Hour
			queries := []struct {
				args map[string]any
				rg   []string
			}{
				{map[string]any{"pattern": "needleHandler", "head_limit": 5000}, []string{"-l", "needleHandler"}},
				{map[string]any{"pattern": `func\s+\w+Handler\(`, "head_limit": 5000}, []string{"-l", `func\s+\w+Handler\(`}},
				{map[string]any{"pattern": "NEEDLEHANDLER", "i": true, "head_limit": 5000}, []string{"-l", "-i", "NEEDLEHANDLER"}},
				{map[string]any{"pattern": "func needleHandler", "output_mode": "content", "head_limit": 5000}, []string{"-n", "--no-heading", "func needleHandler"}},
				{map[string]any{"pattern": "needleHandler", "type": "go", "head_limit": 5000}, []string{"-l", "-t", "go", "needleHandler"}},
			}
			var fawn, ref time.Duration
			for i := range b.N + 1 { // the first round warms the page cache
				for _, q := range queries {
					args := argsJSON(b, q.args)
					t0 := time.Now()
					res, err := g.InvokableRun(context.Background(), args)
					took := time.Since(t0)
					if err != nil {
						b.Fatal(err)
					}
					rgArgs := append([]string{rg, "--hidden", "--no-ignore-global", "--no-ignore-parent", "--glob", "!.git"}, q.rg...)
					t0 = time.Now()
					want := runCount(b, tr.Root, rgArgs...)
					rgTook := time.Since(t0)
					if got := len(resultLines(res)); got != want {
						b.Fatalf("%s: grep found %d, rg %d", args, got, want)
					}
					if i > 0 {
						fawn += took
						ref += rgTook
					}
				}
			}
			n := float64(b.N * len(queries))
			b.ReportMetric(float64(fawn.Microseconds())/1000/n, "grep-ms")
			b.ReportMetric(float64(ref.Microseconds())/1000/n, "rg-ms")
			b.ReportMetric(float64(fawn)/float64(ref), "grep/rg")
		})
	}
}

// BenchmarkMonorepoGlob runs the glob tool on the big trees beside fd
// (or, without fd, rg --files --glob) on the same patterns, interleaved,
// each checked to find as many (goal: ≤ 1.2× fd).
func BenchmarkMonorepoGlob(b *testing.B) {
	fd, refName := fdBinary(), "fd"
	rg, _ := exec.LookPath("rg")
	if fd == "" {
		if rg == "" {
			b.Skip("neither fd nor rg is installed (apt-get install -y fd-find ripgrep): nothing to compare with")
		}
		refName = "rg"
	}
	for _, tr := range monorepo.BenchTrees() {
		b.Run(tr.Name, func(b *testing.B) {
			if tr.Why != "" {
				fmt.Printf("%s skipped: %s\n", b.Name(), tr.Why)
				b.Skip(tr.Why)
			}
			env, err := NewEnv(tr.Root)
			if err != nil {
				b.Fatal(err)
			}
			gl := NewGlob(env)
			gl.timeLimit = time.Hour
			patterns := []string{"**/*.rs", "**/*_test.go", "**/gen_00001*.go"}
			var fawn, ref time.Duration
			for i := range b.N + 1 {
				for _, pat := range patterns {
					args := argsJSON(b, map[string]any{"pattern": pat, "limit": 5000})
					t0 := time.Now()
					res, err := gl.InvokableRun(context.Background(), args)
					took := time.Since(t0)
					if err != nil {
						b.Fatal(err)
					}
					argv := []string{rg, "--files", "--hidden", "--no-ignore-global", "--no-ignore-parent", "--glob", "!.git", "--glob", pat}
					if fd != "" {
						argv = []string{fd, "--hidden", "--no-ignore-parent", "--type", "f", "--exclude", ".git", "--glob", "--full-path", "--base-directory", tr.Root, pat}
						argv[len(argv)-1] = "**/" + strings.TrimPrefix(pat, "**/")
					}
					t0 = time.Now()
					want := runCount(b, tr.Root, argv...)
					refTook := time.Since(t0)
					got := globTotal(res)
					if got != want {
						b.Fatalf("%s: glob found %d, %s %d", pat, got, refName, want)
					}
					if i > 0 {
						fawn += took
						ref += refTook
					}
				}
			}
			n := float64(b.N * len(patterns))
			b.ReportMetric(float64(fawn.Microseconds())/1000/n, "glob-ms")
			b.ReportMetric(float64(ref.Microseconds())/1000/n, refName+"-ms")
			b.ReportMetric(float64(fawn)/float64(ref), "glob/"+refName)
		})
	}
}
