// Command benchsum reads `go test -bench` output on stdin, copies it to
// stdout, and ends with one table: each measure of fawn that the project
// sets a goal for, the reference measured in the same run (vim, micro,
// tmux, a bare pty, headless fawn), their ratio, the goal and whether it
// is met. With -o it also writes the table to a file, so that the next
// measurement is one command. With -baseline REV the table also has the rows
// of BenchmarkBaseline: today's fawn beside fawn at the commit REV, built and
// measured in the same run. `make bench` pipes the benchmarks through it:
//
//	go test -run '^$' -bench . ./... | go run ./internal/benchsum -baseline df36f05 -o bin/bench-summary.md
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	out := flag.String("o", "", "also write the table to this file")
	baseline := flag.String("baseline", "", "the commit BenchmarkBaseline measured today's fawn against (its rows are left out without it)")
	flag.Parse()
	results, skipped := read(os.Stdin, os.Stdout)
	table := render(results, skipped, *baseline)
	fmt.Print("\n" + table)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(table), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "benchsum:", err)
			os.Exit(1)
		}
		fmt.Printf("(written to %s)\n", *out)
	}
}

// results holds, per benchmark (its name without the -GOMAXPROCS
// suffix), its metrics by unit.
type results map[string]map[string]float64

var (
	benchLine = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+\d+\s+(.*)$`)
	// go test prints a skipped benchmark's log only with -v: a benchmark
	// whose rows the table should explain prints this line itself.
	skipLine = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)? (skipped: .*)$`)
)

// read copies r to w and collects the benchmark lines, and the reasons the
// benchmarks that skipped gave (their "BenchmarkX skipped: why" lines).
func read(r io.Reader, w io.Writer) (results, map[string]string) {
	res, skipped := results{}, map[string]string{}
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		line := s.Text()
		fmt.Fprintln(w, line)
		if m := skipLine.FindStringSubmatch(line); m != nil {
			skipped[m[1]] = m[3]
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		metrics := map[string]float64{}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				metrics[f[i+1]] = v
			}
		}
		res[m[1]] = metrics
	}
	return res, skipped
}

// row is one measure of the table.
type row struct {
	measure string
	bench   string
	// fawn and ref name the metrics (ref "" when there is none); unit
	// is how the figures are shown.
	fawn, ref, refName, unit string
	// scale multiplies both figures (ns/op to ms: 1e-6).
	scale float64
	goal  string
	// met says whether the goal is met, from fawn's figure and the
	// ratio (0 without a reference).
	met func(fawn, ratio float64) bool
	// zeroes: a reference of 0 is a figure, not a missing one (idle
	// CPU): fawn's 0 beside it meets the goal, anything more does not.
	zeroes bool
}

var rows = []row{
	{measure: "exec → first frame", bench: "BenchmarkStartup", fawn: "fawn-ms", ref: "vim-ms", refName: "vim", unit: "ms",
		goal: "≤ 3× vim", met: func(_, r float64) bool { return r <= 3 }},
	{measure: "exec → first frame, beside micro", bench: "BenchmarkStartup", fawn: "fawn-ms", ref: "micro-ms", refName: "micro", unit: "ms",
		goal: "≤ 0.5× micro", met: func(_, r float64) bool { return r <= 0.5 }},
	{measure: "exec → IDE frame complete (every pane drawn)", bench: "BenchmarkStartupAsSeen", fawn: "frame-ms", ref: "vim-ms", refName: "vim -u NONE -N", unit: "ms",
		goal: "≤ 2× vim -u NONE", met: func(_, r float64) bool { return r <= 2 }},
	{measure: "exec → the shell's prompt painted", bench: "BenchmarkStartupAsSeen", fawn: "prompt-ms", ref: "bash+frame-ms", refName: "bash -i + 16 ms", unit: "ms",
		goal: "≤ bash's own + a frame", met: func(_, r float64) bool { return r <= 1 }},
	{measure: "RSS settled, fawn and its shell", bench: "BenchmarkStartupAsSeen", fawn: "fawn+shell-MiB", ref: "micro-MiB", refName: "micro", unit: "MiB",
		goal: "≤ 1.3× micro", met: func(_, r float64) bool { return r <= 1.3 }},
	{measure: "first frame with gopls configured", bench: "BenchmarkStartupWithLSP", fawn: "lsp-ms", ref: "nolsp-ms", refName: "no server", unit: "ms",
		goal: "unchanged (≤ 1.1×)", met: func(_, r float64) bool { return r <= 1.1 }},
	{measure: "`fawn --version`", bench: "BenchmarkVersion", fawn: "fawn-ms", ref: "micro-ms", refName: "micro -version", unit: "ms",
		goal: "≤ 10 ms", met: func(f, _ float64) bool { return f <= 10 }},
	{measure: "`fawn --version` peak memory", bench: "BenchmarkVersion", fawn: "fawn-peak-MiB", ref: "micro-peak-MiB", refName: "micro -version", unit: "MiB"},
	{measure: "RSS at the first frame", bench: "BenchmarkFirstFrameRSS", fawn: "fawn-MiB", ref: "micro-MiB", refName: "micro", unit: "MiB",
		goal: "≤ 25 MiB", met: func(f, _ float64) bool { return f <= 25 }},
	{measure: "binary (stripped)", bench: "BenchmarkBinary", fawn: "fawn-MiB", ref: "micro-MiB", refName: "micro", unit: "MiB",
		goal: "≤ 20 MiB", met: func(f, _ float64) bool { return f <= 20 }},
	{measure: "modules linked", bench: "BenchmarkBinary", fawn: "modules", unit: ""},
	{measure: "cold `go build` (empty build cache)", bench: "BenchmarkColdBuild", fawn: "cold-build-s", unit: "s",
		goal: "≤ 30 s", met: func(f, _ float64) bool { return f <= 30 }},
	{measure: "CPU streaming a long answer", bench: "BenchmarkStreamingTerminal", fawn: "ide-cpu-s", ref: "headless-cpu-s", refName: "headless fawn", unit: "s",
		goal: "≤ 1.1× headless", met: func(_, r float64) bool { return r <= 1.1 }},
	{measure: "CPU of headless fawn reading a 10,000-chunk stream, its shell included", bench: "BenchmarkStreamCPU", fawn: "fawn-cpu-s", ref: "curl-cpu-s", refName: "curl -sN", unit: "s",
		goal: "≤ 2× curl", met: func(_, r float64) bool { return r <= 2 }},
	{measure: "the same, less a one-chunk answer's run (start-up, shell, turn)", bench: "BenchmarkStreamCPU", fawn: "fawn-net-cpu-s", ref: "curl-cpu-s", refName: "curl -sN", unit: "s"},
	{measure: "bytes to the terminal per byte of answer", bench: "BenchmarkStreamingTerminal", fawn: "term-bytes/text-byte", unit: "×",
		goal: "≤ 5×", met: func(f, _ float64) bool { return f <= 5 }},
	{measure: "memory kept per short turn (320 turns)", bench: "BenchmarkTurnMemory", fawn: "KiB/turn", unit: "KiB",
		goal: "≤ 8 KiB", met: func(f, _ float64) bool { return f <= 8 }},
	{measure: "`seq 1 2000000` back to the agent", bench: "BenchmarkSeqToTool", fawn: "fawn-s", ref: "bare-pty-s", refName: "bare pty", unit: "s",
		goal: "≤ 1.2× bare pty", met: func(_, r float64) bool { return r <= 1.2 }},
	{measure: "`seq 1 2000000` in the pane", bench: "BenchmarkPaneCatchUp", fawn: "fawn-s", ref: "tmux-s", refName: "tmux", unit: "s",
		goal: "≤ 1.2× tmux", met: func(_, r float64) bool { return r <= 1.2 }},
	{measure: "vttest menus 1, 2, 8, 11.8.7: screens identical to tmux", bench: "BenchmarkVttestAgainstTmux", fawn: "identical", ref: "screens", refName: "of", unit: ""},
	{measure: "vttest screens that differ where tmux is not known to be off", bench: "BenchmarkVttestAgainstTmux", fawn: "fawn-off", unit: "",
		goal: "≤ 3", met: func(f, _ float64) bool { return f <= 3 }},
	{measure: "1,000 `true` in the sandboxed shell", bench: "BenchmarkSandboxedShell", fawn: "sandboxed-true-s", ref: "plain-true-s", refName: "unsandboxed", unit: "s",
		goal: "≤ 1.05× unsandboxed", met: func(_, r float64) bool { return r <= 1.05 }},
	{measure: "`go test` of a small module, sandboxed", bench: "BenchmarkSandboxedShell", fawn: "sandboxed-gotest-s", ref: "plain-gotest-s", refName: "unsandboxed", unit: "s",
		goal: "≤ 1.05× unsandboxed", met: func(_, r float64) bool { return r <= 1.05 }},
	{measure: "key echo in the terminal, p99", bench: "BenchmarkKeyEcho", fawn: "µs/echo-p99", unit: "µs"},
	{measure: "open a 100,000-line file", bench: "BenchmarkOpen100k/vs-micro", fawn: "fawn-ms", ref: "micro-ms", refName: "micro", unit: "ms",
		goal: "≤ micro", met: func(_, r float64) bool { return r <= 1 }},
	{measure: "keystroke at line 90,000", bench: "BenchmarkKeystrokeAt90k/vs-micro", fawn: "fawn-ms", ref: "micro-ms", refName: "micro", unit: "ms",
		goal: "≤ micro", met: func(_, r float64) bool { return r <= 1 }},
	{measure: "key → echo at line 90,000, vim insert mode (in process)", bench: "BenchmarkVimKeyAt90k", fawn: "vim-ms", ref: "standard-ms", refName: "standard keys", unit: "ms",
		goal: "≤ 1.1× standard", met: func(_, r float64) bool { return r <= 1.1 }},
	{measure: "key → echo at line 90,000, vim normal mode (in process)", bench: "BenchmarkVimNormalKeyAt90k", fawn: "vim-ms", ref: "standard-ms", refName: "standard keys", unit: "ms",
		goal: "≤ 1.1× standard", met: func(_, r float64) bool { return r <= 1.1 }},
	{measure: "resume a 10,000-message session", bench: "BenchmarkResumeLongSession", fawn: "resume-ms", ref: "fresh-ms", refName: "fresh start", unit: "ms",
		goal: "≤ 150 ms", met: func(f, _ float64) bool { return f <= 150 }},
	{measure: "CPU while idle", bench: "BenchmarkIdle", fawn: "cpu-ms/10s", unit: "ms per 10 s",
		goal: "0 frames"},
	{measure: "CPU while idle, 3 tasks open beside the project", bench: "BenchmarkIdleTasks", fawn: "cpu-ms/10s", unit: "ms per 10 s",
		goal: "0 frames"},
	{measure: "CPU while idle, 3 tasks open (the binary, their shells up)", bench: "BenchmarkIdleTasksBinary", fawn: "tasks-idle-cpu-ms", ref: "alone-idle-cpu-ms", refName: "no task", unit: "ms per 10 s",
		goal: "0", met: func(f, _ float64) bool { return f == 0 }, zeroes: true},
	{measure: "switch tasks with 3 streaming: key → frame, p99", bench: "BenchmarkTaskSwitch", fawn: "ms/switch-p99", unit: "ms",
		goal: "≤ 16 ms", met: func(f, _ float64) bool { return f <= 16 }},
	{measure: "end of a turn → compaction done, turn notes ready", bench: "BenchmarkCompactionAfterTurns", fawn: "notes-ms", ref: "summary-ms", refName: "a summary request", unit: "ms",
		goal: "≤ 0.1×", met: func(_, r float64) bool { return r <= 0.1 }},
	{measure: "an edit's write → its diagnostics (gopls)", bench: "BenchmarkEditToDiagnostics", fawn: "ns/op", unit: "ms", scale: 1e-6},
}

// baselineGoal is the most today's fawn may spend beside fawn at the
// baseline commit, on every measure of BenchmarkBaseline.
const baselineGoal = 1.10

// baselineRows are BenchmarkBaseline's rows: today's fawn beside fawn at
// the commit rev.
func baselineRows(rev string) []row {
	ref := "fawn@" + rev
	vs := ": fawn vs " + ref
	goal := fmt.Sprintf("≤ %.2f×", baselineGoal)
	met := func(_, r float64) bool { return r <= baselineGoal }
	return []row{
		{measure: "exec → first frame, shell prompt drawn" + vs, bench: "BenchmarkBaseline", fawn: "now-frame-ms", ref: "base-frame-ms", refName: ref, unit: "ms", goal: goal, met: met},
		{measure: "RSS at the first frame" + vs, bench: "BenchmarkBaseline", fawn: "now-rss-start-MiB", ref: "base-rss-start-MiB", refName: ref, unit: "MiB", goal: goal, met: met},
		{measure: "RSS after a streamed answer" + vs, bench: "BenchmarkBaseline", fawn: "now-rss-streamed-MiB", ref: "base-rss-streamed-MiB", refName: ref, unit: "MiB", goal: goal, met: met},
		{measure: "binary (stripped)" + vs, bench: "BenchmarkBaseline", fawn: "now-bin-MiB", ref: "base-bin-MiB", refName: ref, unit: "MiB", goal: goal, met: met},
		{measure: "modules linked" + vs, bench: "BenchmarkBaseline", fawn: "now-modules", ref: "base-modules", refName: ref, unit: ""},
		{measure: "CPU streaming a long answer" + vs, bench: "BenchmarkBaseline", fawn: "now-stream-cpu-s", ref: "base-stream-cpu-s", refName: ref, unit: "s", goal: goal, met: met},
		{measure: "CPU while idle" + vs, bench: "BenchmarkBaseline", fawn: "now-idle-cpu-ms", ref: "base-idle-cpu-ms", refName: ref, unit: "ms per 10 s", goal: goal, met: met, zeroes: true},
		{measure: "bytes to the terminal while idle" + vs, bench: "BenchmarkBaseline", fawn: "now-idle-bytes", ref: "base-idle-bytes", refName: ref, unit: "B per 10 s", zeroes: true},
	}
}

// render formats the table in Markdown; with a baseline commit, the rows of
// BenchmarkBaseline follow.
func render(res results, skipped map[string]string, baseline string) string {
	var b strings.Builder
	b.WriteString("| measure | fawn | reference, same run | ratio | goal | met |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	all := append(append(append([]row(nil), rows...), monorepoRows()...), alldayRows()...)
	if baseline != "" {
		all = append(all, baselineRows(baseline)...)
	}
	for _, r := range all {
		m, ok := res[r.bench]
		if !ok {
			notRun := "not run (" + r.bench + ")"
			if why, ok := skipped[r.bench]; ok {
				notRun = "not run (" + r.bench + ": " + strings.ReplaceAll(why, "|", "\\|") + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | | | %s | |\n", r.measure, notRun, r.goal)
			continue
		}
		scale := r.scale
		if scale == 0 {
			scale = 1
		}
		f, ok := m[r.fawn]
		if !ok {
			fmt.Fprintf(&b, "| %s | no %s in %s | | | %s | |\n", r.measure, r.fawn, r.bench, r.goal)
			continue
		}
		f *= scale
		refCell, ratioCell, ratio := "", "", 0.0
		zeroMet := ""
		if r.ref != "" {
			if v, ok := m[r.ref]; ok && v == 0 && r.zeroes {
				refCell = r.refName + " " + figure(0, r.unit)
				if f == 0 {
					ratioCell, zeroMet = "both 0", "yes"
				} else {
					ratioCell, zeroMet = "more than 0", "**no**"
				}
			} else if ok && v > 0 {
				v *= scale
				refCell = r.refName + " " + figure(v, r.unit)
				ratio = f / v
				ratioCell = fmt.Sprintf("%.2f×", ratio)
				if r.zeroes && f == 0 {
					zeroMet = "yes"
				}
			} else {
				refCell = r.refName + ": not measured"
			}
		}
		fawnCell, met := figure(f, r.unit), ""
		// A goal against the reference is judged only when it was measured.
		relative := r.ref != "" && strings.Contains(r.goal, "×")
		switch {
		case r.bench == "BenchmarkIdle" || r.bench == "BenchmarkIdleTasks":
			frames := m["frames/10s"]
			fawnCell += fmt.Sprintf(", %.0f frames", frames)
			met = yesNo(frames == 0)
		case zeroMet != "" && r.goal != "":
			met = zeroMet
		case r.met != nil && (!relative || ratio > 0):
			met = yesNo(r.met(f, ratio))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", r.measure, fawnCell, refCell, ratioCell, r.goal, met)
	}
	return b.String()
}

func figure(v float64, unit string) string {
	var s string
	switch {
	case v >= 100:
		s = fmt.Sprintf("%.0f", v)
	case v >= 10:
		s = fmt.Sprintf("%.1f", v)
	default:
		s = fmt.Sprintf("%.2f", v)
	}
	if unit == "" {
		return s
	}
	if unit == "×" {
		return s + "×"
	}
	return s + " " + unit
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}
