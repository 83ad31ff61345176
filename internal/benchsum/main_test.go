package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestTableFromBenchOutput(t *testing.T) {
	in := "goos: linux\n" +
		"BenchmarkStartup-2 \t 3 \t 123 ns/op \t 50.0 fawn-ms \t 3.3 fawn/vim \t 15 vim-ms \t 200 micro-ms\n" +
		"BenchmarkOpen100k/vs-micro-2  3  1 ns/op  40 fawn-ms 30 micro-ms\n" +
		"BenchmarkIdle-2 1 1 ns/op 0 cpu-ms/10s 2 frames/10s\n" +
		"BenchmarkIdleTasks-2 1 1 ns/op 0.5 cpu-ms/10s 0 frames/10s\n" +
		"BenchmarkTaskSwitch-2 1 1 ns/op 0.9 ms/switch-p50 2.1 ms/switch-p99\n" +
		"BenchmarkIdleTasksBinary-2 1 1 ns/op 0 alone-idle-bytes 0 alone-idle-cpu-ms 0 tasks-idle-bytes 0 tasks-idle-cpu-ms\n" +
		"BenchmarkEditToDiagnostics-2 3 129000000 ns/op\n" +
		"BenchmarkVersion-2 1 1 ns/op 8.5 fawn-ms\n" +
		"PASS\n"
	var out bytes.Buffer
	res, skipped := read(strings.NewReader(in), &out)
	if out.String() != in {
		t.Fatalf("the output is not copied:\n%s", out.String())
	}
	table := render(res, skipped, "")
	for _, want := range []string{
		"| exec → first frame | 50.0 ms | vim 15.0 ms | 3.33× | ≤ 3× vim | **no** |",
		"| exec → first frame, beside micro | 50.0 ms | micro 200 ms | 0.25× | ≤ 0.5× micro | yes |",
		"| open a 100,000-line file | 40.0 ms | micro 30.0 ms | 1.33× | ≤ micro | **no** |",
		"| CPU while idle | 0.00 ms per 10 s, 2 frames |",
		"| CPU while idle, 3 tasks open beside the project | 0.50 ms per 10 s, 0 frames |  |  | 0 frames | yes |",
		"| switch tasks with 3 streaming: key → frame, p99 | 2.10 ms |  |  | ≤ 16 ms | yes |",
		"| CPU while idle, 3 tasks open (the binary, their shells up) | 0.00 ms per 10 s | no task 0.00 ms per 10 s | both 0 | 0 | yes |",
		"| an edit's write → its diagnostics (gopls) | 129 ms |",
		// An absolute goal is judged without the reference.
		"| `fawn --version` | 8.50 ms | micro -version: not measured |  | ≤ 10 ms | yes |",
		"| binary (stripped) | not run (BenchmarkBinary) |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("no line %q in:\n%s", want, table)
		}
	}
}

func TestBaselineRows(t *testing.T) {
	in := "BenchmarkBaseline-2 \t 3 \t 1 ns/op \t 120 now-frame-ms \t 100 base-frame-ms \t 20 now-rss-start-MiB \t 20 base-rss-start-MiB" +
		" \t 0 now-idle-cpu-ms \t 0 base-idle-cpu-ms \t 30 now-idle-bytes \t 0 base-idle-bytes \t 0.5 now-stream-cpu-s \t 0 base-stream-cpu-s\n"
	res, skipped := read(strings.NewReader(in), &bytes.Buffer{})
	table := render(res, skipped, "df36f05")
	for _, want := range []string{
		"| exec → first frame, shell prompt drawn: fawn vs fawn@df36f05 | 120 ms | fawn@df36f05 100 ms | 1.20× | ≤ 1.10× | **no** |",
		"| RSS at the first frame: fawn vs fawn@df36f05 | 20.0 MiB | fawn@df36f05 20.0 MiB | 1.00× | ≤ 1.10× | yes |",
		// Idle CPU is 0 on both sides: that is a figure, and the goal is met.
		"| CPU while idle: fawn vs fawn@df36f05 | 0.00 ms per 10 s | fawn@df36f05 0.00 ms per 10 s | both 0 | ≤ 1.10× | yes |",
		"| bytes to the terminal while idle: fawn vs fawn@df36f05 | 30.0 B per 10 s | fawn@df36f05 0.00 B per 10 s | more than 0 |  |  |",
		// Elsewhere a 0 is a figure that was not measured.
		"| CPU streaming a long answer: fawn vs fawn@df36f05 | 0.50 s | fawn@df36f05: not measured |  | ≤ 1.10× |  |",
		"| RSS after a streamed answer: fawn vs fawn@df36f05 | no now-rss-streamed-MiB in BenchmarkBaseline |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("no line %q in:\n%s", want, table)
		}
	}
	if strings.Contains(render(res, skipped, ""), "fawn@") {
		t.Error("rows against a baseline without -baseline")
	}
}

func TestBaselineSkipped(t *testing.T) {
	in := "BenchmarkBaseline skipped: the baseline commit df36f05 is not in this clone (a shallow clone?)\n" +
		"PASS\n"
	res, skipped := read(strings.NewReader(in), &bytes.Buffer{})
	table := render(res, skipped, "df36f05")
	want := "| binary (stripped): fawn vs fawn@df36f05 | not run (BenchmarkBaseline: skipped: the baseline commit df36f05 is not in this clone (a shallow clone?)) | | | ≤ 1.10× | |"
	if !strings.Contains(table, want) {
		t.Errorf("no line %q in:\n%s", want, table)
	}
}

// TestMonorepoRows: the big trees' figures come out per tree, with their
// reference and ratio, and a tree that was not there says why.
func TestMonorepoRows(t *testing.T) {
	in := "BenchmarkMonorepoStartup/monorepo-2 5 1 ns/op 26.6 big-ms 29.6 small-ms 0.9 big/small\n" +
		"BenchmarkMonorepoGrep/goroot-2 2 1 ns/op 458 grep-ms 546 rg-ms\n" +
		"BenchmarkMonorepoIndex/monorepo skipped: FAWN_MONOREPO is not set\n"
	res, skipped := read(strings.NewReader(in), &bytes.Buffer{})
	table := render(res, skipped, "")
	for _, want := range []string{
		"| exec → first frame, 200,000-file monorepo | 26.6 ms | a 3-file project 29.6 ms | 0.90× | ≤ 1.1× small project | yes |",
		"| grep tool, 5 queries, Go's source | 458 ms | rg 546 ms | 0.84× | ≤ 1.2× rg | yes |",
		"| index: memory, 200,000-file monorepo | not run (BenchmarkMonorepoIndex/monorepo: skipped: FAWN_MONOREPO is not set) |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("no line %q in:\n%s", want, table)
		}
	}
}

// The all-day session's rows: the memory against turn 100's plus 20 MiB,
// the frames, the echo and the resume against their goals.
func TestAllDayRows(t *testing.T) {
	in := "BenchmarkAllDay-2 1 1 ns/op 2000 turns 11000 messages 80 rss-turn100-MiB 100 rss-checkpoint+20-MiB 104 rss-end-MiB" +
		" 9.5 frame-p99-ms 1.9 frame-cpu-p99-ms 17.2 frame-p99-worst-window-ms 8.6 frame-p99-first-window-ms 3.1 echo-p99-ms 3.1 fresh-echo-p99-ms 210 resume-ms 40 fresh-ms\n"
	res, skipped := read(strings.NewReader(in), &bytes.Buffer{})
	table := render(res, skipped, "")
	for _, want := range []string{
		"| all-day session: RSS after the last turn (fawn and its shell) | 104 MiB | RSS after turn 100 + 20 MiB 100 MiB | 1.04× | ≤ turn 100's + 20 MiB | **no** |",
		"| all-day session: frame time p99, the whole run | 9.50 ms |  |  | ≤ 16 ms | yes |",
		"| all-day session: frame time p99, the UI thread's own (the rest of a frame waited: FAWN_FRAMELOG) | 1.90 ms | the frames' p99 9.50 ms | 0.20× | ≤ 16 ms | yes |",
		"| all-day session: frame time p99, the worst 100 turns | 17.2 ms | the first 100 turns 8.60 ms | 2.00× | ≤ 16 ms | **no** |",
		"| all-day session: key echo in the chat at the end, p99 | 3.10 ms | a new session's 3.10 ms | 1.00× | ≤ 5 ms | yes |",
		"| all-day session: --continue to the last answer on the screen | 210 ms | fresh start 40.0 ms | 5.25× | ≤ 150 ms | **no** |",
		"| all-day session: messages kept (resumed above) | 11000 |  |  | ≥ 10,000 | yes |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("no line %q in:\n%s", want, table)
		}
	}
}
