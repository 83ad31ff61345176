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
		"BenchmarkEditToDiagnostics-2 3 129000000 ns/op\n" +
		"BenchmarkVersion-2 1 1 ns/op 8.5 fawn-ms\n" +
		"PASS\n"
	var out bytes.Buffer
	res := read(strings.NewReader(in), &out)
	if out.String() != in {
		t.Fatalf("the output is not copied:\n%s", out.String())
	}
	table := render(res)
	for _, want := range []string{
		"| exec → first frame | 50.0 ms | vim 15.0 ms | 3.33× | ≤ 3× vim | **no** |",
		"| exec → first frame, beside micro | 50.0 ms | micro 200 ms | 0.25× | ≤ 0.5× micro | yes |",
		"| open a 100,000-line file | 40.0 ms | micro 30.0 ms | 1.33× | ≤ micro | **no** |",
		"| CPU while idle | 0.00 ms per 10 s, 2 frames |",
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
